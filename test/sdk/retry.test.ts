// Proves the retry schedule: full jitter under an exponential ceiling capped at maxDelayMs, a
// server's retry-after (seconds or HTTP date) as the least wait, and the client really waiting it.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClient } from '../../packages/sdk/src/index.ts';
import { backoffMs, retryAfterMs, retryPolicy } from '../../packages/sdk/src/retry.ts';
import { recordingFetch } from './support/fetches.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('backoff', () => {
  it('draws each wait from [0, min(maxDelayMs, baseDelayMs * 2^(failures-1))]', () => {
    const highest = retryPolicy({ baseDelayMs: 100, maxDelayMs: 1_000, random: () => 0.999_999 });
    expect([1, 2, 3, 4, 5, 6].map((failures) => Math.round(backoffMs(highest, failures) / 10) * 10)).toEqual([
      100, 200, 400, 800, 1_000, 1_000,
    ]);
    const lowest = retryPolicy({ random: () => 0 });
    expect([1, 2, 3].map((failures) => backoffMs(lowest, failures))).toEqual([0, 0, 0]);
    const half = retryPolicy({ baseDelayMs: 100, random: () => 0.5 });
    expect(backoffMs(half, 3)).toBe(200);
  });

  it('waits at least what retry-after asks, in seconds or as an HTTP date', () => {
    const policy = retryPolicy({ random: () => 0 });
    expect(backoffMs(policy, 1, 2_000)).toBe(2_000);
    expect(retryAfterMs('3')).toBe(3_000);
    expect(retryAfterMs(new Date(1_000_000 + 5_000).toUTCString(), 1_000_000)).toBe(5_000);
    expect(retryAfterMs(null)).toBe(0);
    expect(retryAfterMs('soon')).toBe(0);
  });

  it('refuses a policy without a first attempt', () => {
    expect(() => retryPolicy({ maxAttempts: 0 })).toThrow(RangeError);
  });
});

describe('the client', () => {
  it('sends the next attempt only once retry-after has passed', async () => {
    vi.useFakeTimers();
    const { fetch, bodies } = recordingFetch([{ status: 429, retryAfter: '2' }, { status: 'network' }]);
    const client = createClient({
      url: 'http://127.0.0.1:1/graphql',
      apiKey: 'k',
      fetch,
      retry: { maxAttempts: 2, random: () => 0 },
    });
    const settled = client.health().catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(bodies).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(bodies).toHaveLength(2);
    expect(await settled).toMatchObject({ code: 'NETWORK_ERROR', attempts: 2 });
  });
});
