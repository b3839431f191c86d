// Proves the per-key rate limit: a token bucket per API key sized by its role; an empty bucket
// answers RATE_LIMITED with retryAfterSeconds (HTTP 429, Retry-After) before anything executes;
// other keys are unaffected; refusals are counted; the same limit holds over graphql-ws; and
// RATE_LIMITS is validated. Buckets refill at 0.01/s in the HTTP tests, so a refusal's wait is
// 100 s less the seconds between the requests, whatever the machine's load.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, RATE_LIMITS_DEFAULT } from '../../src/config.ts';
import { RateLimiter } from '../../src/server/rateLimit.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { metricValue } from '../payouts/support/payouts.ts';
import { Registry } from 'prom-client';
import { createGraphqlTelemetry } from '../../src/server/telemetry.ts';

/** The gate's counters on a registry of the test's own. */
const telemetry = createGraphqlTelemetry(new Registry());

describe('RateLimiter', () => {
  it('allows a burst, then refuses until a token refills, per key', () => {
    let now = 0;
    const limiter = new RateLimiter(
      { ...RATE_LIMITS_DEFAULT, worker: { perSecond: 2, burst: 3 } },
      telemetry,
      () => now,
    );
    expect([1, 2, 3].map(() => limiter.take('k1', 'worker'))).toEqual([null, null, null]);
    expect(limiter.take('k1', 'worker')).toBe(1); // half a second to the next token, rounded up
    expect(limiter.take('k2', 'worker')).toBeNull(); // another key has its own bucket
    now += 500;
    expect(limiter.take('k1', 'worker')).toBeNull();
    expect(limiter.take('k1', 'worker')).toBe(1);
    now += 60_000; // refills to the burst, never beyond
    expect([1, 2, 3].map(() => limiter.take('k1', 'worker'))).toEqual([null, null, null]);
    expect(limiter.take('k1', 'worker')).not.toBeNull();
  });

  it('says how long to wait at a slow rate', () => {
    const limiter = new RateLimiter({ ...RATE_LIMITS_DEFAULT, ops: { perSecond: 0.1, burst: 1 } }, telemetry, () => 0);
    expect(limiter.take('k', 'ops')).toBeNull();
    expect(limiter.take('k', 'ops')).toBe(10);
  });
});

describe('RATE_LIMITS', () => {
  it('overrides the defaults role by role, and off turns the limit off', () => {
    expect(loadConfig({ RATE_LIMITS: 'worker=5/10' }).rateLimits).toEqual({
      ...RATE_LIMITS_DEFAULT,
      worker: { perSecond: 5, burst: 10 },
    });
    expect(loadConfig({}).rateLimits).toEqual(RATE_LIMITS_DEFAULT);
    expect(loadConfig({ RATE_LIMITS: 'off' }).rateLimits).toBeNull();
  });

  it.each([
    ['worker=5', 'RATE_LIMITS: entry 1: expected role=perSecond/burst'],
    ['root=5/10', 'RATE_LIMITS: entry 1: expected a role among'],
    ['worker=5/10,ops=0/1', 'RATE_LIMITS: entry 2: expected perSecond > 0 and burst ≥ 1'],
  ])('refuses %s', (value, message) => {
    expect(() => loadConfig({ RATE_LIMITS: value })).toThrow(ConfigError);
    expect(() => loadConfig({ RATE_LIMITS: value })).toThrow(message);
  });
});

describe('rate limit over HTTP and WebSocket', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { RATE_LIMITS: 'service=0.01/1,worker=0.01/2', SEED_DEMO: '0' } });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers RATE_LIMITED with retryAfterSeconds and HTTP 429 once the bucket is empty, executing nothing', async () => {
    const open = (id: string) =>
      fetch(app.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${app.keys.service}` },
        body: JSON.stringify({
          query: `mutation { openAccount(input: { accountId: "${id}", currency: "EUR" }) { __typename } }`,
        }),
      });
    const before = await metricValue(app.registry, 'graphql_rate_limited_total', { role: 'service' });
    const first = await open('rate-1');
    expect(((await first.json()) as any).data.openAccount.__typename).toBe('OpenAccountSuccess');

    const second = await open('rate-2');
    expect(second.status).toBe(429);
    // 100 s to the next token at 0.01/s, less what refilled since the first request: a loaded
    // machine can put a second or more between the two (99 then), never ten.
    const retryAfter = Number(second.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(90);
    expect(retryAfter).toBeLessThanOrEqual(100);
    const body = (await second.json()) as any;
    expect(body.data).toBeUndefined();
    expect(body.errors).toEqual([
      {
        message: `Rate limit of the service role exceeded; retry after ${retryAfter} s.`,
        extensions: expect.objectContaining({ code: 'RATE_LIMITED', retryAfterSeconds: retryAfter }),
      },
    ]);
    expect(await app.db.collection('accounts').countDocuments({ _id: 'rate-2' } as never)).toBe(0);
    expect(await metricValue(app.registry, 'graphql_rate_limited_total', { role: 'service' })).toBe(before + 1);

    // Another key (another role) still has its own tokens.
    expect((await app.gql('{ health { engine } }', {}, { key: 'dashboard' })).errors).toBeUndefined();
  });

  it('counts every operation of a graphql-ws connection against the same key', async () => {
    const ws = app.ws('worker');
    expect((await ws.execute('{ health { engine } }')).errors).toBeUndefined();
    expect((await app.gql('{ health { engine } }', {}, { key: 'worker' })).errors).toBeUndefined();
    const limited = await ws.execute('{ health { engine } }').catch((error: unknown) => error);
    expect(limited).toEqual([
      expect.objectContaining({
        extensions: expect.objectContaining({
          code: 'RATE_LIMITED',
          // At 0.01/s, 100 s less the second or so a loaded machine puts between the calls.
          retryAfterSeconds: expect.toSatisfy((seconds: number) => seconds > 90 && seconds <= 100),
        }),
      }),
    ]);
  });
});
