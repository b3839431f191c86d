import { setTimeout as sleep } from 'node:timers/promises';
import { exponentialBackoffMs, jitteredMs } from '../lib/backoff.ts';
import { DbLimits } from './limits.ts';
import { isReplicaSetStateChange } from './mongoErrors.ts';

export interface ElectionRetryOptions {
  /** How long to keep rerunning (default DbLimits.electionRetryBudgetMs, a call's budget). */
  budgetMs?: number;
  /** The pause before the rerun after the n-th failure (default: doubling from 10 to 200 ms, full jitter). */
  pauseMs?: (failures: number) => number;
  /** Told of each failure that will be rerun. */
  onRetry?: (error: unknown) => void;
}

const callPauseMs = (failures: number) =>
  jitteredMs(exponentialBackoffMs(failures, DbLimits.electionRetryPauseBaseMs, DbLimits.electionRetryPauseMaxMs), 1);

/**
 * Runs `attempt` again while it fails because the set is between primaries, until the budget has
 * passed; then the last error goes to the caller. The driver retries a retryable write once by
 * itself, and a set settling after a partition may elect twice within a second, so that one retry
 * can meet the second step-down too. Only for attempts whose rerun is the same write under the
 * same precondition or key: one that may have applied before its reply was lost must answer the
 * rerun as its own outcome (a key, a replay check or a token of the call). Start-up tasks use it
 * too, with a longer budget (src/app/createApp.ts).
 */
export async function acrossElections<T>(attempt: () => Promise<T>, options: ElectionRetryOptions = {}): Promise<T> {
  const deadline = Date.now() + (options.budgetMs ?? DbLimits.electionRetryBudgetMs);
  for (let failures = 1; ; failures += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (!isReplicaSetStateChange(error) || Date.now() >= deadline) throw error;
      options.onRetry?.(error);
    }
    // Each attempt already waits in server selection for the new primary: the pause only spreads
    // the callers that failed together.
    await sleep((options.pauseMs ?? callPauseMs)(failures));
  }
}
