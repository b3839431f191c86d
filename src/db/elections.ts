import { setTimeout as sleep } from 'node:timers/promises';
import { exponentialBackoffMs, jitteredMs } from '../lib/backoff.ts';
import { DbLimits } from './limits.ts';
import { isReplicaSetStateChange } from './mongoErrors.ts';

/**
 * Runs `attempt` again while it fails because the set is between primaries, until `budgetMs` has
 * passed; then the last error goes to the caller. The driver retries a retryable write once by
 * itself, and a set settling after a partition may elect twice within a second, so that one retry
 * can meet the second step-down too. Only for attempts whose rerun is the same write under the
 * same precondition or key: one that may have applied before its reply was lost must answer the
 * rerun as its own outcome (a key, a replay check or a token of the call).
 */
export async function acrossElections<T>(attempt: () => Promise<T>, budgetMs: number = DbLimits.electionRetryBudgetMs): Promise<T> {
  const deadline = Date.now() + budgetMs;
  for (let failures = 1; ; failures += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (!isReplicaSetStateChange(error) || Date.now() >= deadline) throw error;
    }
    // Each attempt already waits in server selection for the new primary: the pause only spreads
    // the callers that failed together.
    await sleep(jitteredMs(exponentialBackoffMs(failures, DbLimits.electionRetryPauseBaseMs, DbLimits.electionRetryPauseMaxMs), 1));
  }
}
