// The one backoff of the app: a delay that doubles per failure up to a cap, with a random part so
// that callers who failed together do not retry together. The ledger's money-move retries use
// "full jitter" (anywhere from 0 to the capped delay), the change streams' reopens "equal jitter"
// (at least half of it). The work items' retry delay is this formula too, evaluated by the
// database inside the completion's update pipeline (src/work/pipelines.ts), without jitter.

/** The capped exponential delay after the n-th failure in a row (n ≥ 1): baseMs, 2·baseMs, 4·baseMs, … at most maxMs. */
export function exponentialBackoffMs(failure: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, failure - 1));
}

/**
 * `delayMs` less a random share of its `jitter` part (0 < jitter ≤ 1): jitter 1 is full jitter
 * (uniform over [0, delayMs]), 0.5 equal jitter (uniform over [delayMs / 2, delayMs]).
 */
export function jitteredMs(delayMs: number, jitter: number, random: () => number = Math.random): number {
  return delayMs * (1 - jitter) + random() * delayMs * jitter;
}
