import type { ClientSession, Document, Filter, ObjectId, Sort } from 'mongodb';
import { acrossElections } from '../db/elections.ts';
import { attemptTransactions } from '../db/transactionAttempts.ts';
import { jitteredMs } from '../lib/backoff.ts';
import { WorkLimits } from './limits.ts';
import type { WorkDeps } from './workDeps.ts';
import { ClaimIndex, WorkStatus, type WorkItemDoc } from './model.ts';
import * as pipelines from './pipelines.ts';
import { takePlace } from './kindLimits.ts';
import { takeGroupPlace } from './groupLimits.ts';

// The one claim write every claim path uses (claimWorkItem by id or next, claimWorkItems): the
// item's conditional update, and, when the item's kind has a concurrency limit (W5), the taking of
// a place in the kind's document within the same transaction (kindLimits.ts), and when the kind
// has a per-group limit (W9) and the item a group, a place in its group's document as well
// (groupLimits.ts).

export type ClaimWrite =
  | { kind: 'claimed'; item: WorkItemDoc }
  | { kind: 'deadLettered'; item: WorkItemDoc }
  | { kind: 'noMatch' }
  /** The kind's limit is reached: nothing was written. */
  | { kind: 'kindFull'; itemKind: string }
  /** The item's group is at its kind's per-group limit: nothing was written. */
  | { kind: 'groupFull'; itemKind: string; group: string };

class KindFull extends Error {
  constructor(readonly itemKind: string) {
    super(`kind ${itemKind} is at its concurrency limit`);
  }
}

class GroupFull extends Error {
  constructor(
    readonly itemKind: string,
    readonly group: string,
  ) {
    super(`group ${group} of kind ${itemKind} is at its concurrency limit`);
  }
}

export interface ClaimWriteOptions {
  filter: Filter<WorkItemDoc>;
  /** The item, when the claim names one (by id, or a batch's candidate). */
  id?: ObjectId;
  /** The claiming call (random per call, the same for each write of the call): written with the claim. */
  claimId: string;
  sort?: Sort;
  hint?: Document;
  workerId: string;
  leaseMs: number;
  /** The limited kinds (read by the caller once per call): when empty, no transaction is needed. */
  limited: ReadonlyMap<string, number>;
  /** The kinds with a per-group limit (W9), read likewise; absent or empty: none. */
  groupLimited?: ReadonlyMap<string, number>;
}

/**
 * The claim, rerun through elections (src/db/elections.ts) like the other work-item writes. A
 * claim is no keyed write: a rerun of one that applied before its reply was lost would match
 * nothing (ConflictLost) or claim another item. So each claim writes its call's `claimId`, and a
 * rerun first looks for an item this call holds: found, that claim is the answer (R5).
 */
export async function claimWrite(ctx: WorkDeps, options: ClaimWriteOptions): Promise<ClaimWrite> {
  let rerun = false;
  return acrossElections(async () => {
    if (rerun) {
      const own = await ctx.collection.findOne(
        {
          ...(options.id ? { _id: options.id } : {}),
          status: WorkStatus.PROCESSING,
          lockedBy: options.workerId,
          claimId: options.claimId,
        },
        // By id, or among the items in PROCESSING (the running ones: a short walk, whatever the queue's length).
        options.id ? {} : { hint: { ...ClaimIndex.expired } },
      );
      if (own !== null) return { kind: 'claimed', item: own };
    }
    rerun = true;
    return claimOnce(ctx, options);
  });
}

async function claimOnce(ctx: WorkDeps, options: ClaimWriteOptions): Promise<ClaimWrite> {
  const write = (session?: ClientSession) =>
    ctx.collection.findOneAndUpdate(
      options.filter,
      pipelines.claim(options.workerId, options.leaseMs, options.claimId),
      {
        ...(options.sort ? { sort: options.sort } : {}),
        ...(options.hint ? { hint: options.hint } : {}),
        returnDocument: 'after',
        ...(session ? { session } : {}),
      },
    );
  const decided = (item: WorkItemDoc | null): ClaimWrite =>
    item === null
      ? { kind: 'noMatch' }
      : item.status === WorkStatus.FAILED
        ? { kind: 'deadLettered', item }
        : { kind: 'claimed', item };
  const groupLimited = options.groupLimited ?? new Map<string, number>();
  if (options.limited.size === 0 && groupLimited.size === 0) return decided(await write());
  const session = ctx.client.startSession();
  try {
    return await inTransaction(session, async () => {
      const write1 = decided(await write(session));
      if (write1.kind !== 'claimed') return write1;
      // No place: the transaction is aborted, and the item's claim with it.
      if (options.limited.has(write1.item.kind) && !(await takePlace(ctx.kindLimits, write1.item, session)))
        throw new KindFull(write1.item.kind);
      const group = write1.item.group;
      const groupLimit = groupLimited.get(write1.item.kind);
      if (
        group !== undefined &&
        groupLimit !== undefined &&
        !(await takeGroupPlace(ctx.groupPlaces, write1.item, group, groupLimit, session))
      ) {
        throw new GroupFull(write1.item.kind, group);
      }
      return write1;
    });
  } catch (error) {
    if (error instanceof KindFull) return { kind: 'kindFull', itemKind: error.itemKind };
    if (error instanceof GroupFull) return { kind: 'groupFull', itemKind: error.itemKind, group: error.group };
    throw error;
  } finally {
    await session.endSession();
  }
}

/**
 * Runs `body` in a transaction on `session` and commits it (majority), on the one transaction loop
 * (src/db/transactionAttempts.ts). A write conflict on the kind's document (another claim took a
 * place meanwhile) aborts and runs it again after a jittered pause of a few milliseconds: the
 * driver's withTransaction backs off up to half a second per conflict, far too long for a
 * document every claim of the kind writes. A lost commit reply is committed again (mongod answers
 * a retried commit with the outcome), never rerun: a rerun would claim a second item.
 */
export async function inTransaction<T>(session: ClientSession, body: () => Promise<T>): Promise<T> {
  const end = await attemptTransactions(
    session,
    {
      transaction: { writeConcern: { w: 'majority' } },
      attemptsMax: WorkLimits.placeAttemptsMax,
      deadlineMs: Infinity,
      pauseMs: () => jitteredMs(WorkLimits.placeRetryPauseMs, 1),
      unknownCommit: 'commitAgain',
    },
    async () => ({ commit: true, value: await body() }),
  );
  if (end.kind === 'spent') throw end.error;
  return end.value;
}
