// @module-tag processes
// P1 with PAYOUT_QUEUE=bullmq, against a real redis-server: exactly one BullMQ job per applied
// withdrawal through a SIGKILL of the projection's process inside a batch (its jobs added, their
// MongoDB records not yet marked, its token not stored) and a replay from an earlier token after
// the completed jobs were removed from the queue, which is when BullMQ would take the same job id
// again. Adds are counted from the queue's own event stream (one `added` event per job Redis
// created); the BullMQ payout worker (workers/payouts/bullmq.ts) pays each job at the test
// provider, which counts calls per key. The meta-test runs the same scenario with the job id alone (no MongoDB
// record) and shows the count then finds second jobs.
import { startEmulator, type RunningEmulator } from '@precondition/mongo-emulator';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import type { Db } from 'mongodb';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStreamsTelemetry } from '../../src/fanout/index.ts';
import { collectionNames } from '../../src/ledger/index.ts';
import {
  createPayoutProjection,
  createPayoutQueueTelemetry,
  PAYOUT_LEASE_NAME,
  payoutJobId,
  payoutJobs,
  projectionLeases,
} from '../../src/payouts/index.ts';
import { mongoPayoutJobRecords } from '../../src/payouts/payoutJobs.ts';
import { createBullmqPayoutSinkForTest } from '../../src/testing/index.ts';
import { createWorkService, createWorkTelemetry } from '../../src/work/index.ts';
import { startBullmqPayoutWorker } from '../../workers/payouts/bullmq.ts';
import { startTestPayoutProvider } from '../support/payoutProvider.ts';
import { connectTestDb, testMongoEngine, testMongoUri, type TestDb } from '../support/mongo.ts';
import { startTestRedis, type TestRedis } from '../support/redis.ts';
import { waitFor } from '../support/waiting.ts';
import { noPayoutJobRecords, queueEventCounts, startProjectionChild, totalOf } from './support/bullmq.ts';
import { fundedAccount, ledgerOn, metricValue, withdrawMany } from './support/payouts.ts';

const silent = pino({ level: 'silent' });
const BATCH = 20;

// The replay rewinds to a token stored early in the scenario: on the emulator, an engine of its
// own keeps that token in its oplog (test/payouts/p1Payouts.test.ts says why).
let ownEngine: RunningEmulator | undefined;
let redis: TestRedis;
beforeAll(async () => {
  redis = await startTestRedis();
  if (testMongoEngine().kind === 'emulator') ownEngine = await startEmulator({ port: 0, replSetName: 'rs0' });
});
afterAll(async () => {
  await ownEngine?.stop();
  await redis?.stop({ remove: true });
});
const engineUri = () => ownEngine?.uri ?? testMongoUri();

/** The payout worker of `npm run worker:payouts -- --queue bullmq`, in process, paying at the test provider. */
async function startConsumer(queueName: string) {
  const provider = await startTestPayoutProvider();
  const running = startBullmqPayoutWorker({
    redisUrl: redis.url,
    queueName,
    providerUrl: provider.url,
    concurrency: 4,
    providerTimeoutMs: 5_000,
    shutdownGraceMs: 5_000,
    lockDurationMs: 30_000,
    stalledIntervalMs: 30_000,
    maxStalledCount: 2,
    logLevel: 'silent',
  });
  return {
    provider,
    async close() {
      await running.close();
      await provider.stop();
    },
  };
}

async function lastCreatedAt(db: Db, requestPrefix: string): Promise<Date> {
  const [last] = await db
    .collection(collectionNames.entries)
    .find({ kind: 'withdrawal', requestId: { $regex: `^${requestPrefix}-` } })
    .sort({ createdAt: -1 })
    .limit(1)
    .toArray();
  return last!['createdAt'] as Date;
}

/** How long the projection child may take to store its position (it shares the machine with the run). */
const PROJECTION_WAIT_MS = 45_000;
/** Each scenario waits for the projection a few times. */
const SCENARIO_TIMEOUT_MS = 180_000;

/** The stored token once the projection's watermark reached the last withdrawal of `requestPrefix`. */
async function tokenAfter(db: Db, requestPrefix: string) {
  const last = await lastCreatedAt(db, requestPrefix);
  return waitFor(
    async () => {
      const lease = await projectionLeases(db).findOne({ _id: PAYOUT_LEASE_NAME });
      return lease?.watermark && lease.watermark >= last && lease.resumeToken ? lease.resumeToken : undefined;
      // Once a second or so when quiet; a full run's processes group has seen it take over 15 s.
    },
    `the projection to store its position after ${requestPrefix}`,
    PROJECTION_WAIT_MS,
  );
}

async function queueIdle(queue: Queue): Promise<boolean> {
  const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
  return Object.values(counts).every((n) => n === 0);
}

async function scenario(test: TestDb, records: 'mongo' | 'none', queueName: string) {
  const { db } = test;
  const ledger = ledgerOn(db);
  await fundedAccount(ledger, `${queueName}-acct`);
  const admin = new Redis(redis.url);
  const queue = new Queue(queueName, { connection: admin });
  const consumer = await startConsumer(queueName);
  const child = await startProjectionChild({
    mongoUri: test.uri,
    dbName: test.dbName,
    redisUrl: redis.url,
    queueName,
    holdAfterEntries: 5 + BATCH,
    ...(records === 'none' ? { records } : {}),
  });
  const registry = new Registry();
  const sink = createBullmqPayoutSinkForTest(
    { db, redisUrl: redis.url, queueName, logger: silent, telemetry: createPayoutQueueTelemetry(registry) },
    records === 'mongo' ? mongoPayoutJobRecords(db) : noPayoutJobRecords(),
  );
  const successor = createPayoutProjection(
    {
      db,
      logger: silent,
      telemetry: createStreamsTelemetry(registry),
      work: createWorkService({ db, telemetry: createWorkTelemetry(registry, silent) }),
      sink,
    },
    { holder: 'successor', leaseAcquireIntervalMs: 100 },
  );
  try {
    // The child's stream is open (its first catch-up, over nothing, stored its start): the
    // withdrawals below reach it as events, each stamping the watermark stored with the token.
    await waitFor(async () => {
      const lease = await projectionLeases(db).findOne({ _id: PAYOUT_LEASE_NAME });
      return (lease?.holder === 'doomed-child' && lease.resumeToken !== null && !lease.catchUp) || undefined;
    }, 'the child to hold the lease with its stream open');
    // 1. A few withdrawals; the token stored after them is where the replay will start.
    await withdrawMany(ledger, `${queueName}-acct`, `${queueName}-w0`, 5);
    const early = await tokenAfter(db, `${queueName}-w0`);
    // 2. A batch projected, added, handled by the consumer.
    await withdrawMany(ledger, `${queueName}-acct`, `${queueName}-w1`, BATCH);
    await tokenAfter(db, `${queueName}-w1`);
    // 3. The next batch: the child adds its jobs, then holds before marking them; SIGKILL there.
    await withdrawMany(ledger, `${queueName}-acct`, `${queueName}-w2`, BATCH);
    const window = await child.holding();
    await child.kill();
    // 4. The consumer handles every job added so far, and the completed jobs are removed (retention).
    await waitFor(
      async () => (await queueIdle(queue)) || undefined,
      'the consumer to handle every job added before the kill',
    );
    await queue.clean(0, 10_000, 'completed');
    expect(await queue.getJobCounts('completed')).toEqual({ completed: 0 });
    // 5. More withdrawals while nobody projects; then the replay from the early token.
    await withdrawMany(ledger, `${queueName}-acct`, `${queueName}-w3`, BATCH);
    await projectionLeases(db).updateOne(
      { _id: PAYOUT_LEASE_NAME },
      { $set: { resumeToken: early, expiresAt: new Date(0) } },
    );
    await sink.start();
    successor.start();
    const withdrawals = (
      await db
        .collection(collectionNames.entries)
        .find({ kind: 'withdrawal' }, { projection: { _id: 1 } })
        .toArray()
    ).map((entry) => String(entry._id));
    expect(withdrawals).toHaveLength(5 + 3 * BATCH);
    // Everything after the early token handled again (w1, w2, w3: 60 events), every job handled, the queue idle.
    await waitFor(
      async () => (await metricValue(registry, 'payout_projection_events_total')) >= 3 * BATCH || undefined,
      'the replay of every event after the early token',
      30_000,
    );
    await waitFor(
      async () => {
        const paid = consumer.provider.payoutsByEntry();
        return (withdrawals.every((id) => paid.has(id)) && (await queueIdle(queue))) || undefined;
      },
      'every withdrawal to be paid',
      30_000,
    );
    const events = await queueEventCounts(admin, queueName);
    const snapshot = consumer.provider.snapshot();
    return {
      withdrawals,
      window,
      events,
      /** Provider calls per entry: one job handled once each makes one call each. */
      calls: new Map(snapshot.payouts.map((payout) => [payout.entryId, payout.calls])),
      payouts: consumer.provider.payoutsByEntry(),
      provider: { calls: snapshot.calls, paid: snapshot.paid, duplicates: snapshot.duplicates },
      replayed: await metricValue(registry, 'payout_projection_events_total', { outcome: 'replayed' }),
      skipped: {
        recorded: await metricValue(registry, 'payout_queue_adds_skipped_total', { reason: 'recorded' }),
        taken: await metricValue(registry, 'payout_queue_adds_skipped_total', { reason: 'taken' }),
      },
      addedBySuccessor: await metricValue(registry, 'payout_queue_jobs_added_total'),
    };
  } finally {
    await child.kill();
    await successor.stop();
    await sink.close();
    await consumer.close();
    await queue.close();
    await admin.quit();
  }
}

/** One job created per entry, and one provider call per entry (a second job would call again, answered by key). */
function expectOneJobEach(result: Awaited<ReturnType<typeof scenario>>): void {
  const expectedIds = result.withdrawals.map(payoutJobId).sort();
  expect([...result.events.added.keys()].sort()).toEqual(expectedIds);
  expect([...result.events.added.entries()].filter(([, n]) => n !== 1)).toEqual([]);
  expect([...result.calls.entries()].filter(([, n]) => n !== 1)).toEqual([]);
}

/** W7 at the provider: one payout per entry, whatever the queue did. */
function expectOnePayoutEach(result: Awaited<ReturnType<typeof scenario>>): void {
  expect([...result.payouts.keys()].sort()).toEqual([...result.withdrawals].sort());
  expect([...result.payouts.values()].filter((payouts) => payouts.length !== 1)).toEqual([]);
}

describe('P1 with PAYOUT_QUEUE=bullmq (real redis-server)', () => {
  let test: TestDb;
  beforeAll(async () => {
    test = await connectTestDb('payouts_bullmq_kill', {}, engineUri());
  });
  afterAll(async () => {
    await test?.close();
  });

  it(
    'adds one job per withdrawal through a SIGKILL inside an add and a replay after the completed jobs were removed',
    async () => {
      const result = await scenario(test, 'mongo', 'kill-replay');
      console.log(
        `kill-and-replay: ${result.withdrawals.length} withdrawals; ${totalOf(result.events.added)} jobs created; ` +
          `${result.replayed} events replayed; duplicate adds refused: ${result.skipped.recorded} by an added record, ${result.skipped.taken} by a taken mark, ` +
          `${totalOf(result.events.duplicated)} by BullMQ's job id; ${result.addedBySuccessor} adds by the successor; ` +
          `provider: ${result.provider.calls} calls, ${result.provider.paid} payouts, ${result.provider.duplicates} answered by key; killed ${result.window}`,
      );
      expectOneJobEach(result);
      expectOnePayoutEach(result);
      // The replay met every earlier entry's record: w1 (and w2's jobs that were marked) as added,
      // the killed batch's as taken by the consumer; it added only what had never been added.
      expect(result.replayed).toBeGreaterThanOrEqual(2 * BATCH);
      expect(result.skipped.taken).toBeGreaterThan(0);
      expect(result.skipped.recorded).toBeGreaterThanOrEqual(BATCH);
      const left = await payoutJobs(test.db).countDocuments({ state: { $ne: 'added' } });
      expect(left).toBe(0);
    },
    SCENARIO_TIMEOUT_MS,
  );

  it(
    'meta: with the job id alone (no MongoDB record) the same replay adds second jobs, and the check catches it',
    async () => {
      const meta = await connectTestDb('payouts_bullmq_kill_meta', {}, engineUri());
      try {
        const result = await scenario(meta, 'none', 'kill-replay-meta');
        expect(() => expectOneJobEach(result)).toThrow();
        expect([...result.events.added.values()].some((n) => n > 1)).toBe(true);
        // The provider's key per entry still pays each once (W7): the second jobs were answered by key.
        expectOnePayoutEach(result);
        expect(result.provider.duplicates).toBeGreaterThan(0);
      } finally {
        await meta.close();
      }
    },
    SCENARIO_TIMEOUT_MS,
  );
});
