import type { Document } from 'mongodb';
import { CompletionOutcome, WorkStatus } from './model.ts';
import { WorkLimits } from './limits.ts';

// Update pipelines for every transition. Pipelines (rather than operator updates) let the write
// read the current document (`$status`, `$attempts`) and the server's clock (`$$NOW`) in the same
// atomic step, so nothing the caller read earlier is trusted.

/** Caller data always goes in as a literal: a string starting with `$` must not become a path. */
function lit(value: unknown): Document {
  return { $literal: value };
}

/**
 * The common shape of a transition: remember the status left, move to `to`, bump the version
 * (the fencing token), and append to the bounded history what this very write did.
 */
function transition(
  to: unknown,
  workerId: string | null,
  fields: Document,
  historyWorkerId: unknown = lit(workerId),
): Document[] {
  return [
    { $set: { previousStatus: '$status' } },
    { $set: { ...fields, status: to, version: { $add: ['$version', 1] }, updatedAt: '$$NOW' } },
    {
      $set: {
        history: {
          $slice: [
            {
              $concatArrays: [
                { $ifNull: ['$history', []] },
                [
                  {
                    from: '$previousStatus',
                    to: '$status',
                    version: '$version',
                    at: '$$NOW',
                    workerId: historyWorkerId,
                  },
                ],
              ],
            },
            -WorkLimits.historyLengthMax,
          ],
        },
      },
    },
  ];
}

export interface NewItem {
  idempotencyKey: string;
  kind: string;
  payload: unknown;
  maxAttempts: number;
  /** Higher first among the due items of its kind. */
  priority: number;
  /** Not claimable before this instant of the database clock (null: at once). */
  runAt: Date | null;
  /** The tenant or merchant within its kind (W9); absent: none. */
  group?: string | undefined;
  /**
   * Whether a replay of the creation can come and must be answered as first decided (a client's
   * createWorkItem). The projection's payouts are never replayed through createWorkItem (their
   * keys live in another namespace), so they do not carry the copy: half their insert's oplog.
   */
  keepsCreateOutcome: boolean;
  /** The W3C traceparent of what caused it (the withdrawal, or the creating request), when traced. */
  traceparent?: string | undefined;
  /** A client's createWorkItem call (random per call): its rerun after a lost reply knows its own item (createItem.ts). */
  creationId?: string | undefined;
}

/**
 * For an upsert on the unique `idempotencyKey`: builds the item when the upsert inserts, and
 * leaves an existing item exactly as it is (no version bump, no history entry).
 */
export function createIfMissing(item: NewItem): Document[] {
  const fresh = {
    kind: lit(item.kind),
    payload: lit(item.payload),
    status: WorkStatus.PENDING,
    previousStatus: null,
    version: 1,
    lockedBy: null,
    leaseExpiresAt: null,
    leaseDurationMs: null,
    attempts: 0,
    maxAttempts: item.maxAttempts,
    // Compared with $$NOW by every claim's filter, so "not before runAt" is judged by the database clock.
    availableAt: item.runAt === null ? '$$NOW' : lit(item.runAt),
    priority: item.priority,
    runAt: lit(item.runAt),
    ...(item.group === undefined ? {} : { group: lit(item.group) }),
    result: null,
    lastCompletion: null,
    history: [{ from: null, to: WorkStatus.PENDING, version: 1, at: '$$NOW', workerId: null }],
    createdAt: '$$NOW',
    updatedAt: '$$NOW',
    ...(item.traceparent ? { traceparent: lit(item.traceparent) } : {}),
    ...(item.creationId ? { creationId: lit(item.creationId) } : {}),
  };
  return [
    {
      $replaceWith: {
        $cond: {
          if: { $eq: [{ $type: '$version' }, 'missing'] },
          // The item as created (less `_id`, which an upsert adds after the pipeline), kept so that
          // a replay answers this outcome, not the item as it is later.
          then: item.keepsCreateOutcome
            ? { $mergeObjects: ['$$ROOT', fresh, { createOutcome: { $mergeObjects: ['$$ROOT', fresh] } }] }
            : { $mergeObjects: ['$$ROOT', fresh] },
          else: '$$ROOT',
        },
      },
    },
  ];
}

/**
 * PENDING → PROCESSING, or PROCESSING → PROCESSING when a stalled lease is taken over. Every claim
 * counts an attempt, so a lease that expired has used one. A stalled item that has used all its
 * attempts (its lease expired `maxAttempts` times, or the last one did) is dead-lettered instead:
 * PROCESSING → FAILED in this same write, so it is never reclaimed forever.
 */
export function claim(workerId: string, leaseDurationMs: number, claimId: string): Document[] {
  const exhausted = { $and: [{ $eq: ['$status', WorkStatus.PROCESSING] }, { $gte: ['$attempts', '$maxAttempts'] }] };
  const unlessExhausted = (claimed: unknown, deadLettered: unknown) => ({ $cond: [exhausted, deadLettered, claimed] });
  return transition(
    unlessExhausted(WorkStatus.PROCESSING, WorkStatus.FAILED),
    workerId,
    {
      lockedBy: unlessExhausted(lit(workerId), null),
      leaseDurationMs: unlessExhausted(leaseDurationMs, '$leaseDurationMs'),
      leaseExpiresAt: unlessExhausted({ $add: ['$$NOW', leaseDurationMs] }, null),
      attempts: unlessExhausted({ $add: ['$attempts', 1] }, '$attempts'),
      // The claiming call (random per call): its rerun after a lost reply knows its own claim (claimWrite.ts).
      claimId: lit(claimId),
    },
    // The history stage sees the new status: FAILED here can only be the dead letter.
    { $cond: [{ $eq: ['$status', WorkStatus.FAILED] }, null, lit(workerId)] },
  );
}

/** Extends the lease by the duration it was claimed with; bumps nothing. */
export function heartbeat(): Document[] {
  return [{ $set: { leaseExpiresAt: { $add: ['$$NOW', '$leaseDurationMs'] } } }];
}

/**
 * PROCESSING → DONE, or for a failure PROCESSING → PENDING after a backoff while attempts are
 * left, else PROCESSING → FAILED (dead letter).
 */
export function complete(
  workerId: string,
  version: number,
  outcome: CompletionOutcome,
  result: unknown,
  retryBackoffBaseMs: number,
): Document[] {
  const retry = { $lt: ['$attempts', '$maxAttempts'] };
  // exponentialBackoffMs (src/lib/backoff.ts) of the attempts so far, computed by the database in
  // this update so that the item's own attempt count decides it.
  const backoffMs = {
    $min: [
      WorkLimits.retryBackoffMaxMs,
      { $multiply: [retryBackoffBaseMs, { $pow: [2, { $max: [0, { $subtract: ['$attempts', 1] }] }] }] },
    ],
  };
  const failed = outcome === CompletionOutcome.FAILED;
  const to = failed ? { $cond: [retry, WorkStatus.PENDING, WorkStatus.FAILED] } : WorkStatus.DONE;
  return [
    ...transition(to, workerId, {
      lockedBy: null,
      leaseExpiresAt: null,
      result: lit(result),
      ...(failed ? { availableAt: { $cond: [retry, { $add: ['$$NOW', backoffMs] }, '$availableAt'] } } : {}),
      lastCompletion: { workerId: lit(workerId), version, outcome, result: lit(result), completedAt: '$$NOW' },
    }),
    // A failed completion's item moves on (retried or requeued), so the item as this completion
    // left it is kept for a replay to answer (see complete.ts). DONE is terminal: the item stays
    // as this completion left it and answers for itself, so it keeps no copy (an earlier failed
    // completion's copy goes), which is half of the completion's oplog entry.
    ...(failed
      ? [
          { $set: { completionOutcome: '$$ROOT' } },
          {
            $unset: ['completionOutcome.completionOutcome', 'completionOutcome.createOutcome', 'completionOutcome._id'],
          },
        ]
      : [{ $unset: 'completionOutcome' }]),
  ];
}

/** FAILED → PENDING with a fresh set of attempts, due now; `requeueId` names the requeuing call (requeue.ts). */
export function requeue(requeueId: string): Document[] {
  return transition(WorkStatus.PENDING, null, { attempts: 0, availableAt: '$$NOW', requeueId: lit(requeueId) });
}
