import { setTimeout as sleep } from 'node:timers/promises';
import type { ClientSession, TransactionOptions } from 'mongodb';
import { type TransactionRetryReason, transactionRetryReasonOf } from './mongoErrors.ts';

// The one loop that runs a transaction again after a transient failure, on one session, within a
// bound of attempts and of wall time, with the caller's pause between attempts. What to do when
// the attempts are spent is the caller's: the ledger's keyed requests look their keys up and
// answer (src/ledger/keyedTransaction.ts); the hold sweeper and the work claims give up with the
// error. The driver's own `withTransaction` retries for 120 s with its own pauses, far longer than
// a request may wait, and cannot tell its caller that a lost commit reply may have applied.

export interface AttemptPlan {
  /** Of every attempt's transaction. */
  transaction: TransactionOptions;
  attemptsMax: number;
  /** No attempt starts after this instant (epoch ms); `Infinity`: attempts only. */
  deadlineMs: number;
  /** The pause after the n-th failed attempt (n ≥ 1). */
  pauseMs(failedAttempts: number): number;
  /**
   * After a commit whose reply was lost (UnknownTransactionCommitResult): `commitAgain` sends the
   * commit again (mongod answers a retried commit with the transaction's outcome), `rerun` runs
   * the whole transaction again (the caller's keys then tell what applied).
   */
  unknownCommit: 'commitAgain' | 'rerun';
  /** Why a failure may be retried, or null; defaults to the driver's labels (`transactionRetryReasonOf`). */
  retryReasonOf?(error: unknown): TransactionRetryReason | null;
  /** Each retry, with its reason (the metrics). */
  onRetry?(reason: TransactionRetryReason): void;
}

/** What an attempt's body decided: commit what it wrote, or abort it (nothing to write); and its value. */
export interface Attempted<T> {
  commit: boolean;
  value: T;
}

export type AttemptsEnd<T> =
  /** `mayHaveCommitted`: an earlier attempt's commit reply was lost, so it may have applied. */
  | { kind: 'done'; value: T; mayHaveCommitted: boolean }
  /** Out of attempts or time after retryable failures; `error` is the last one. */
  | { kind: 'spent'; error: unknown; mayHaveCommitted: boolean };

/**
 * Runs `body` in a transaction on `session` and commits it, again after each retryable failure,
 * until the plan's bounds. A failure that is not retryable is thrown. One session for every
 * attempt: a new transaction on it ends whatever an earlier attempt left open on the server (a
 * statement whose reply was lost), instead of leaving it to hold its locks.
 */
export async function attemptTransactions<T>(
  session: ClientSession,
  plan: AttemptPlan,
  body: (session: ClientSession) => Promise<Attempted<T>>,
): Promise<AttemptsEnd<T>> {
  const reasonOf = plan.retryReasonOf ?? transactionRetryReasonOf;
  let mayHaveCommitted = false;
  for (let attemptNo = 1; ; attemptNo += 1) {
    let failure: unknown;
    try {
      return { kind: 'done', value: await attemptOnce(session, plan, body, reasonOf), mayHaveCommitted };
    } catch (error) {
      if (session.inTransaction()) await session.abortTransaction().catch(() => undefined);
      failure = error;
    }
    const reason = reasonOf(failure);
    // Committed again up to the bound and still unknown: a rerun could apply the body twice.
    if (reason === null || (reason === 'unknownCommitResult' && plan.unknownCommit === 'commitAgain')) throw failure;
    plan.onRetry?.(reason);
    if (reason === 'unknownCommitResult') mayHaveCommitted = true;
    if (attemptNo >= plan.attemptsMax || Date.now() >= plan.deadlineMs)
      return { kind: 'spent', error: failure, mayHaveCommitted };
    await sleep(plan.pauseMs(attemptNo));
  }
}

/** One transaction: the body, then its commit or abort. */
async function attemptOnce<T>(
  session: ClientSession,
  plan: AttemptPlan,
  body: (session: ClientSession) => Promise<Attempted<T>>,
  reasonOf: (error: unknown) => TransactionRetryReason | null,
): Promise<T> {
  session.startTransaction(plan.transaction);
  const attempted = await body(session);
  if (!attempted.commit) {
    if (session.inTransaction()) await session.abortTransaction();
    return attempted.value;
  }
  for (let commits = 1; ; commits += 1) {
    try {
      await session.commitTransaction();
      return attempted.value;
    } catch (error) {
      const again =
        plan.unknownCommit === 'commitAgain' && reasonOf(error) === 'unknownCommitResult' && commits < plan.attemptsMax;
      if (!again) throw error;
    }
  }
}

/** Runs `work` on a fresh session and ends the session after it, whatever happens. */
export async function withSession<T>(
  client: { startSession(): ClientSession },
  work: (session: ClientSession) => Promise<T>,
): Promise<T> {
  const session = client.startSession();
  try {
    return await work(session);
  } finally {
    await session.endSession();
  }
}
