// @module-tag processes
// The payout catch-up (reconciliation after history loss, src/payouts/catchUp.ts) through the
// BullMQ sink, against a real redis-server: a second walk over withdrawals whose jobs were added
// and then removed from the queue adds only the withdrawals that never had a job. It asks the
// sink which entries are added (their MongoDB records), never the queue. The meta-test walks with
// the job id alone and adds the removed jobs a second time.
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { Long, type Db } from 'mongodb';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createStreamsTelemetry } from '../../src/fanout/index.ts';
import { collectionNames } from '../../src/ledger/index.ts';
import { catchUpPayouts } from '../../src/payouts/catchUp.ts';
import { createPayoutQueueTelemetry, payoutJobId, type PayoutSink } from '../../src/payouts/index.ts';
import { mongoPayoutJobRecords, type PayoutJobRecords } from '../../src/payouts/payoutJobs.ts';
import { ensureWalkIndexes, journalForWalk } from '../../src/payouts/withdrawalWalk.ts';
import { createBullmqPayoutSinkForTest } from '../../src/testing/index.ts';
import { connectTestDb } from '../support/mongo.ts';
import { startTestRedis, type TestRedis } from '../support/redis.ts';
import { noPayoutJobRecords, queueEventCounts } from './support/bullmq.ts';

const silent = pino({ level: 'silent' });

async function seedWithdrawals(db: Db, prefix: string, count: number, start: Date): Promise<string[]> {
  const docs = Array.from({ length: count }, (_, i) => ({
    _id: `ledger:${prefix}-${String(i).padStart(4, '0')}:debit`,
    requestId: `${prefix}-${i}`,
    accountId: `${prefix}-acct`,
    currency: 'EUR',
    kind: 'withdrawal',
    amount: Long.fromNumber(i + 1),
    balanceAfter: Long.fromNumber(0),
    versionAfter: Long.fromNumber(i + 1),
    counterpartyAccountId: null,
    createdAt: new Date(start.getTime() + i),
  }));
  await db.collection(collectionNames.entries).insertMany(docs as never[]);
  return docs.map((doc) => doc._id);
}

/** One full walk from the beginning, as a reconciliation without a watermark makes it. */
async function walk(db: Db, sink: PayoutSink): Promise<number | null> {
  return catchUpPayouts(
    {
      entries: journalForWalk(db),
      sink,
      writePayout: sink.writePayout,
      saveProgress: async () => true,
      limits: { batchMax: 7, pagesPerSliceMax: 100, pauseMs: 1 },
      signal: new AbortController().signal,
      logger: silent,
      telemetry: createStreamsTelemetry(new Registry()),
    },
    { reason: 'HISTORY_LOST', startToken: { _data: '00' }, after: null, from: null },
  );
}

describe('the payout catch-up through the BullMQ sink (real redis-server)', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startTestRedis();
  });
  afterAll(async () => {
    await redis?.stop({ remove: true });
  });

  async function scenario(tag: string, records: (db: Db) => PayoutJobRecords) {
    const test = await connectTestDb(tag);
    onTestFinished(() => test.close());
    await ensureWalkIndexes(test.db);
    const sink = createBullmqPayoutSinkForTest(
      {
        db: test.db,
        redisUrl: redis.url,
        queueName: tag,
        logger: silent,
        telemetry: createPayoutQueueTelemetry(new Registry()),
      },
      records(test.db),
    );
    await sink.start();
    onTestFinished(() => sink.close());
    const client = new Redis(redis.url);
    const queue = new Queue(tag, { connection: client });
    onTestFinished(async () => {
      await queue.close();
      await client.quit();
    });
    const first = await seedWithdrawals(test.db, `${tag}-a`, 20, new Date(Date.UTC(2026, 6, 1)));
    expect(await walk(test.db, sink)).toBe(20);
    // The jobs are gone from the queue (worked and removed, or cleaned), and history was lost again after more withdrawals.
    await queue.drain();
    expect(await queue.getJob(payoutJobId(first[0]!))).toBeUndefined();
    const second = await seedWithdrawals(test.db, `${tag}-b`, 9, new Date(Date.UTC(2026, 6, 2)));
    const createdAgain = await walk(test.db, sink);
    return { withdrawals: [...first, ...second], createdAgain, events: await queueEventCounts(client, tag) };
  }

  it('adds only the withdrawals that never had a job, however many jobs the queue removed', async () => {
    const { withdrawals, createdAgain, events } = await scenario('catchup-bullmq', mongoPayoutJobRecords);
    expect(createdAgain).toBe(9);
    expect([...events.added.keys()].sort()).toEqual(withdrawals.map(payoutJobId).sort());
    expect([...events.added.values()].filter((n) => n !== 1)).toEqual([]);
  });

  it('meta: with the job id alone the second walk adds the removed jobs again', async () => {
    const { createdAgain, events } = await scenario('catchup-bullmq-meta', () => noPayoutJobRecords());
    expect(createdAgain).toBe(29);
    expect([...events.added.values()].some((n) => n > 1)).toBe(true);
  });
});
