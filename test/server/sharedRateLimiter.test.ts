// The shared bucket's rules, against the database: a process spends a reserve locally and asks
// the database once per reserve (not once per operation); a batch larger than the bucket goes
// through a full bucket and leaves it in debt, as one process's bucket does; and while the
// database cannot be reached the process limits on its own bucket and counts the fallback.
import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_LIMITS_DEFAULT } from '../../src/config.ts';
import { createLogger } from '../../src/observability/logger.ts';
import { SharedRateLimiter } from '../../src/server/sharedRateLimit.ts';
import { createGraphqlTelemetry } from '../../src/server/telemetry.ts';
import { connectTestDb, type TestDb } from '../support/mongo.ts';

let test: TestDb;
const logger = createLogger({ level: 'silent' });
beforeAll(async () => {
  test = await connectTestDb('shared_rate_limiter', { monitorCommands: true });
});
afterAll(async () => {
  await test?.close();
});

const key = () => `k-${randomBytes(4).toString('hex')}`;

describe('SharedRateLimiter', () => {
  it('asks the database once per reserve: 200 operations at 5,000/s cost 2 round trips', async () => {
    const limiter = new SharedRateLimiter(RATE_LIMITS_DEFAULT, test.db, createGraphqlTelemetry(new Registry()), logger);
    expect(limiter.reserveTokens('service')).toBe(100);
    const k = key();
    const t0 = performance.now();
    let roundTrips = 0;
    const count = (event: { commandName: string }) => void (event.commandName === 'findAndModify' && roundTrips++);
    test.client.on('commandStarted', count);
    try {
      for (let i = 0; i < 200; i++) expect(await limiter.take(k, 'service')).toBeNull();
    } finally {
      test.client.off('commandStarted', count);
    }
    expect(roundTrips).toBe(2);
    // The shared bucket gave out what the process spent and holds (less what refilled meanwhile).
    const bucket = await test.db.collection('rate_limit_buckets').findOne({ _id: k as never });
    const refilled = ((performance.now() - t0) / 1000) * 5_000;
    expect(Number(bucket!['tokens'])).toBeLessThanOrEqual(10_000 - 200 + refilled);
  });

  it('serves a burst of concurrent operations with a few round trips, and admits no more than the bucket holds', async () => {
    const limiter = new SharedRateLimiter(
      { ...RATE_LIMITS_DEFAULT, ops: { perSecond: 0.01, burst: 10 } },
      test.db,
      createGraphqlTelemetry(new Registry()),
      logger,
    );
    let roundTrips = 0;
    const count = (event: { commandName: string }) => void (event.commandName === 'findAndModify' && roundTrips++);
    test.client.on('commandStarted', count);
    try {
      const fast = key();
      const answers = await Promise.all(Array.from({ length: 1_000 }, () => limiter.take(fast, 'service')));
      expect(answers.every((answer) => answer === null)).toBe(true);
      expect(roundTrips).toBeLessThanOrEqual(3);
      const slow = key();
      const limited = await Promise.all(Array.from({ length: 30 }, () => limiter.take(slow, 'ops')));
      expect(limited.filter((answer) => answer === null)).toHaveLength(10);
      expect(limited.filter((answer) => answer !== null).every((answer) => answer! >= 90)).toBe(true);
    } finally {
      test.client.off('commandStarted', count);
    }
  });

  it('lets a batch larger than the whole bucket through a full bucket, leaving it in debt', async () => {
    const limiter = new SharedRateLimiter(
      { ...RATE_LIMITS_DEFAULT, ops: { perSecond: 1, burst: 50 } },
      test.db,
      createGraphqlTelemetry(new Registry()),
      logger,
    );
    const k = key();
    expect(await limiter.take(k, 'ops', 100)).toBeNull();
    // 50 tokens of debt: the next operation waits about 51 s.
    const wait = await limiter.take(k, 'ops', 1);
    expect(wait).toBeGreaterThanOrEqual(49);
    expect(wait).toBeLessThanOrEqual(51);
  });

  it('falls back on its own bucket while the database is unreachable, and counts it', async () => {
    const registry = new Registry();
    const closed = new MongoClient(test.uri, { serverSelectionTimeoutMS: 200 });
    const limiter = new SharedRateLimiter(
      { ...RATE_LIMITS_DEFAULT, ops: { perSecond: 0.01, burst: 2 } },
      closed.db('unreachable'),
      createGraphqlTelemetry(registry),
      logger,
    );
    await closed.close();
    const k = key();
    expect([await limiter.take(k, 'ops'), await limiter.take(k, 'ops')]).toEqual([null, null]);
    expect(await limiter.take(k, 'ops')).toBeGreaterThan(0);
    expect(await registry.getSingleMetricAsString('graphql_rate_limit_fallbacks_total')).toMatch(
      /graphql_rate_limit_fallbacks_total 3$/m,
    );
  });
});
