// When and how long to wait before sending the same request again. Exponential backoff with full
// jitter (a random wait in [0, min(cap, base * 2^(attempt-1))]) keeps many clients that failed
// together from retrying together; attempts and total time are both bounded.

export interface RetryOptions {
  /** Attempts in all, the first included. Default 5; 1 turns retries off. */
  maxAttempts?: number;
  /** No retry starts later than this after the first attempt began. Default 30 000. */
  maxElapsedMs?: number;
  /** The first retry's backoff ceiling. Default 100. */
  baseDelayMs?: number;
  /** No backoff ceiling above this (a server's retry-after may ask for more). Default 5 000. */
  maxDelayMs?: number;
  /** [0, 1); replace to make the jitter deterministic. Default Math.random. */
  random?: () => number;
}

export type RetryPolicy = Required<RetryOptions>;

export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 5,
  maxElapsedMs: 30_000,
  baseDelayMs: 100,
  maxDelayMs: 5_000,
  random: Math.random,
};

/**
 * Subscriptions resume for as long as the consumer listens: a server restart or a network outage
 * of any length ends in a resumed stream, not an error. Each reconnection waits with the same
 * jittered backoff (capped at 5 s), and a good connection starts a new streak. Give
 * `subscriptionRetry: { maxAttempts, maxElapsedMs }` to give up instead.
 */
export const DEFAULT_SUBSCRIPTION_RETRY: RetryPolicy = {
  maxAttempts: Number.POSITIVE_INFINITY,
  maxElapsedMs: Number.POSITIVE_INFINITY,
  baseDelayMs: 100,
  maxDelayMs: 5_000,
  random: Math.random,
};

export function retryPolicy(
  options: RetryOptions = {},
  defaults: RetryPolicy = DEFAULT_RETRY,
  name = 'retry',
): RetryPolicy {
  const policy = { ...defaults, ...options };
  if (!(policy.maxAttempts >= 1))
    throw new RangeError(`${name}.maxAttempts must be at least 1 (got ${String(options.maxAttempts)})`);
  if (!(policy.maxElapsedMs >= 0))
    throw new RangeError(`${name}.maxElapsedMs must be 0 or more (got ${String(options.maxElapsedMs)})`);
  return policy;
}

/** The wait before attempt `failures + 1`, given `failures` failed attempts so far. */
export function backoffMs(policy: RetryPolicy, failures: number, retryAfterMs = 0): number {
  const ceilingMs = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (failures - 1));
  return Math.max(retryAfterMs, Math.floor(policy.random() * ceilingMs));
}

/** Retry-After as seconds or an HTTP date, in ms from now; 0 when absent or unreadable. */
export function retryAfterMs(header: string | null, nowMs = Date.now()): number {
  if (!header) return 0;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? 0 : Math.max(0, at - nowMs);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
