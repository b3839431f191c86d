import type { ClientSession, MongoClient, TransactionOptions } from 'mongodb';
import { isDuplicateKey, type TransactionRetryReason, transactionRetryReasonOf } from '../db/mongoErrors.ts';
import { attemptTransactions, withSession } from '../db/transactionAttempts.ts';
import { exponentialBackoffMs, jitteredMs } from '../lib/backoff.ts';
import { moveAttemptsMax, moveBackoffBaseMs, moveBackoffMaxMs } from './limits.ts';
import type { OutcomeUnknown, RequestInProgress } from './results.ts';
import type { LedgerTelemetry, TransactionKind } from './telemetry.ts';

// The keyed-transaction runner: every request of the ledger that is decided under a caller's key
// (a lone move, a group of moves, a submitMoves batch, an authorization, capture or void of a
// hold) runs here, and only the `decide` step differs.
//
//   runKeyed(deps, {
//     kind,          // what a commit counts as in ledger_transactions_total ('lone' | 'group' | 'batch')
//     deadlineMs,    // no attempt starts after it (the caller's retry budget)
//     requests(),    // this attempt's requests under their keys, asked anew on every attempt
//     decide(session, requests),   // inside the transaction: read, decide, write; per request,
//                                  // its answer or the decision already stored under its key
//     lookup(session, keys),       // the stored decisions under some keys
//     answerTaken(taken),          // answers decided keys (a replay, the call's own, or a key reused)
//   }) → one answer per request, in order: the request's own, or RequestInProgress/OutcomeUnknown
//
// What the runner does, once for all of them:
//   1. one session for every attempt (a new transaction on it ends what an earlier one left open);
//   2. bounded attempts (`moveAttemptsMax`, the deadline) with full-jitter backoff, retrying what
//      the one error table calls retryable (src/db/mongoErrors.ts, src/db/transactionAttempts.ts);
//   3. a duplicate key on a request's insert: the key was decided since the snapshot (by another
//      call); those decisions, read in a new transaction, answer it;
//   4. "may have committed": after a lost commit reply, a key found decided is this call's own
//      decision (answered as the first answer, not DuplicateReplayed), unless an attempt had seen
//      it decided before any commit was sent;
//   5. out of attempts: one more transaction reads the keys (starting it ends any transaction an
//      earlier attempt left open, which could otherwise still commit late); a decided key answers
//      from its record, the others are transient: OutcomeUnknown when a commit may have applied,
//      else RequestInProgress. The same key sent again decides them; no state is left over.

export type Transient = RequestInProgress | OutcomeUnknown;

/** Snapshot reads, so a refusal reports the state the decision saw; majority commit. */
export const transactionOptions: TransactionOptions = {
  readConcern: { level: 'snapshot' },
  writeConcern: { w: 'majority' },
  readPreference: 'primary',
};

/** Exponential backoff with full jitter, so that racing requests spread out instead of meeting again. */
export function backoffMs(attemptNo: number): number {
  return jitteredMs(exponentialBackoffMs(attemptNo, moveBackoffBaseMs, moveBackoffMaxMs), 1);
}

/** A request under its key, as the runner sees it. */
export interface KeyedRequest {
  key: string;
  requestId: string;
  firstSeenAt: Date;
}

/** How one request of an attempt ended: answered by the decision, or already decided under its key. */
export type RequestEnd<Stored, Answer> =
  | { kind: 'answer'; answer(): Answer | Promise<Answer> }
  | { kind: 'taken'; stored: Stored };

export interface Decided<Stored, Answer> {
  /** Requests this transaction records; 0: nothing was written, and the runner aborts it. */
  recorded: number;
  /** One per request, in order. An `answer` is asked for only once the transaction is committed or aborted. */
  ends: readonly RequestEnd<Stored, Answer>[];
}

/** A key found decided, and whether the decision is this very call's (a commit whose reply was lost). */
export interface TakenKey<Request, Stored> {
  request: Request;
  stored: Stored;
  own: boolean;
}

export interface KeyedTransaction<Request extends KeyedRequest, Stored, Answer> {
  kind: TransactionKind;
  deadlineMs: number;
  requests(): readonly Request[];
  decide(session: ClientSession, requests: readonly Request[]): Promise<Decided<Stored, Answer>>;
  lookup(session: ClientSession, keys: readonly string[]): Promise<ReadonlyMap<string, Stored>>;
  answerTaken(taken: readonly TakenKey<Request, Stored>[]): Promise<Answer[]>;
}

export interface KeyedDeps {
  client: MongoClient;
  telemetry: Pick<LedgerTelemetry, 'retried' | 'committed'>;
}

/**
 * Thrown by a `decide` step whose conditional write matched less than it read: the state changed
 * since (never inside a snapshot, unless another process wrote it). Retried as a write conflict.
 */
export class StateChangedSinceRead extends Error {}

/** A key was decided by another call after this attempt's snapshot, and not every key is: rerun. */
class KeyDecidedSince extends Error {}

function retryReasonOf(error: unknown): TransactionRetryReason | null {
  if (error instanceof StateChangedSinceRead) return 'writeConflict';
  if (error instanceof KeyDecidedSince) return 'transient';
  return transactionRetryReasonOf(error);
}

/** Runs one keyed transaction to its answers (see the top of this file). */
export function runKeyed<Request extends KeyedRequest, Stored, Answer>(
  deps: KeyedDeps,
  tx: KeyedTransaction<Request, Stored, Answer>,
): Promise<(Answer | Transient)[]> {
  return withSession(deps.client, async (session) => {
    let requests: readonly Request[] = [];
    let mayHaveCommitted = false;
    /** Keys an attempt saw decided before any commit of this call was sent: replays, whatever follows. */
    const decidedBefore = new Set<string>();
    const noteTaken = (ends: readonly RequestEnd<Stored, Answer>[]) => {
      if (mayHaveCommitted) return;
      ends.forEach((end, i) => {
        if (end.kind === 'taken') decidedBefore.add(requests[i]!.key);
      });
    };
    const end = await attemptTransactions<Decided<Stored, Answer>>(
      session,
      {
        transaction: transactionOptions,
        attemptsMax: moveAttemptsMax,
        deadlineMs: tx.deadlineMs,
        pauseMs: backoffMs,
        unknownCommit: 'rerun',
        retryReasonOf,
        onRetry: (reason) => {
          deps.telemetry.retried(reason);
          if (reason === 'unknownCommitResult') mayHaveCommitted = true;
        },
      },
      async (attemptSession) => {
        requests = tx.requests();
        let decided: Decided<Stored, Answer>;
        try {
          decided = await tx.decide(attemptSession, requests);
        } catch (error) {
          if (!isDuplicateKey(error)) throw error;
          decided = await decidedSince(tx, attemptSession, requests);
        }
        noteTaken(decided.ends);
        return { commit: decided.recorded > 0, value: decided };
      },
    );
    if (end.kind === 'done') {
      if (end.value.recorded > 0) deps.telemetry.committed(tx.kind, end.value.recorded);
      return answersOf(tx, requests, end.value.ends, mayHaveCommitted, decidedBefore);
    }
    // Out of attempts or time.
    const stored = await fencedLookup(
      tx,
      session,
      requests.map((request) => request.key),
    );
    const ends = requests.map((request): RequestEnd<Stored, Answer | Transient> => {
      const found = stored.get(request.key);
      if (found !== undefined) return { kind: 'taken', stored: found };
      const transient = { requestId: request.requestId, firstSeenAt: request.firstSeenAt };
      return {
        kind: 'answer',
        answer: () =>
          mayHaveCommitted ? { kind: 'outcomeUnknown', ...transient } : { kind: 'requestInProgress', ...transient },
      };
    });
    return answersOf<Request, Stored, Answer | Transient>(tx, requests, ends, mayHaveCommitted, decidedBefore);
  });
}

/**
 * A request's insert met its key taken: decided by another call since this transaction's snapshot.
 * The transaction is over; when every key of the attempt is decided, those decisions answer it.
 */
async function decidedSince<Request extends KeyedRequest, Stored, Answer>(
  tx: KeyedTransaction<Request, Stored, Answer>,
  session: ClientSession,
  requests: readonly Request[],
): Promise<Decided<Stored, Answer>> {
  await session.abortTransaction().catch(() => undefined);
  const stored = await fencedLookup(
    tx,
    session,
    requests.map((request) => request.key),
  );
  const ends = requests.map((request) => stored.get(request.key));
  if (ends.some((found) => found === undefined)) throw new KeyDecidedSince('a key was decided since the snapshot');
  return { recorded: 0, ends: ends.map((found) => ({ kind: 'taken', stored: found! })) };
}

/**
 * Reads the keys in one more transaction on the call's session. Starting it ends any transaction
 * an earlier attempt left open on the server (a commit that never arrived): that one would
 * otherwise hold the accounts until transactionLifetimeLimitSeconds, and could still commit late.
 */
async function fencedLookup<Stored>(
  tx: Pick<KeyedTransaction<KeyedRequest, Stored, unknown>, 'lookup'>,
  session: ClientSession,
  keys: readonly string[],
): Promise<ReadonlyMap<string, Stored>> {
  session.startTransaction(transactionOptions);
  try {
    return await tx.lookup(session, keys);
  } finally {
    await session.abortTransaction().catch(() => undefined);
  }
}

/** The answers in order; decided keys are answered together (one read of their entries). */
async function answersOf<Request extends KeyedRequest, Stored, Answer>(
  tx: Pick<KeyedTransaction<Request, Stored, Answer>, 'answerTaken'>,
  requests: readonly Request[],
  ends: readonly RequestEnd<Stored, Answer>[],
  mayHaveCommitted: boolean,
  decidedBefore: ReadonlySet<string>,
): Promise<Answer[]> {
  const taken: TakenKey<Request, Stored>[] = [];
  ends.forEach((end, i) => {
    const request = requests[i]!;
    if (end.kind === 'taken')
      taken.push({ request, stored: end.stored, own: mayHaveCommitted && !decidedBefore.has(request.key) });
  });
  const takenAnswers = taken.length === 0 ? [] : await tx.answerTaken(taken);
  let next = 0;
  return Promise.all(ends.map((end) => (end.kind === 'taken' ? takenAnswers[next++]! : end.answer())));
}
