// @module-tag processes
// PAYOUT_QUEUE=bullmq through the app as `npm start` builds it, against a real redis-server that is
// stopped and started again while withdrawals go on: the projection waits (its adds fail, it backs
// off and replays from its stored position; /readyz shows Redis down), then catches up once Redis
// is back, and every withdrawal has exactly one job in the queue: nothing lost, nothing twice. The
// server keeps an append-only file, as a production Redis under BullMQ does, so a restart keeps
// the jobs added before it.
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectionNames } from '../../src/ledger/index.ts';
import { payoutJobId, payoutJobs } from '../../src/payouts/index.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { startTestRedis, type TestRedis } from '../support/redis.ts';
import { waitFor } from '../support/waiting.ts';
import { queueEventCounts } from './support/bullmq.ts';
import { fundedAccount, ledgerOn, metricValue, withdrawMany } from './support/payouts.ts';

const QUEUE = 'restart-payouts';
const ROUND = 10;

interface ReadyzBody {
  payoutProjection: { state: string } | null;
  payoutSink: {
    kind: string;
    queueName: string | null;
    dependency: { name: string; ok: boolean; error: string | null } | null;
  };
}

describe('PAYOUT_QUEUE=bullmq while Redis stops and starts again (real redis-server)', () => {
  let redis: TestRedis;
  let app: TestApp;
  beforeAll(async () => {
    redis = await startTestRedis({ durable: true });
    app = await startTestApp({
      env: { PAYOUT_QUEUE: 'bullmq', REDIS_URL: redis.url, PAYOUT_QUEUE_NAME: QUEUE, SEED_DEMO: '0' },
      payoutProjection: { leaseAcquireIntervalMs: 100 },
    });
  });
  afterAll(async () => {
    await app?.close();
    await redis?.stop({ remove: true });
  });

  const readyz = async (): Promise<ReadyzBody> =>
    (await fetch(app.url.replace(/\/graphql$/, '/readyz'))).json() as Promise<ReadyzBody>;
  const addedRecords = () => payoutJobs(app.db).countDocuments({ state: 'added' });

  it('waits while Redis is down, shows it on /readyz, and catches up with one job per withdrawal', async () => {
    // The console's view of the sink, and /readyz's, with Redis up.
    const state = await app.gql('{ payoutProjectionState { sink queueName } }', {}, { key: 'ops' });
    expect(state.data).toEqual({ payoutProjectionState: { sink: 'bullmq', queueName: QUEUE } });
    await waitFor(async () => (await readyz()).payoutSink.dependency?.ok || undefined, '/readyz to show Redis up');
    expect((await readyz()).payoutSink).toMatchObject({
      kind: 'bullmq',
      queueName: QUEUE,
      dependency: { name: 'redis', ok: true },
    });

    const ledger = ledgerOn(app.db);
    await fundedAccount(ledger, 'restart-acct');
    await withdrawMany(ledger, 'restart-acct', 'before', ROUND);
    await waitFor(async () => (await addedRecords()) === ROUND || undefined, 'the first withdrawals to be added');

    // Redis goes away, and withdrawals go on. Stopped first: withdrawals sent while it was still
    // shutting down could be added before it went (on a loaded machine they were, and no add failed).
    await redis.stop();
    await withdrawMany(ledger, 'restart-acct', 'during', ROUND);
    const down = await waitFor(async () => {
      const body = await readyz();
      return body.payoutSink.dependency?.ok === false ? body : undefined;
    }, '/readyz to show Redis down');
    expect(down.payoutSink.dependency?.error).toBeTruthy();
    // The projection tried, failed, and waits: nothing of the outage's withdrawals is marked added.
    await waitFor(
      async () => (await metricValue(app.registry, 'payout_queue_add_failures_total')) > 0 || undefined,
      'an add to fail',
    );
    await waitFor(
      async () => app.services.payoutProjection.status.state === 'retrying' || undefined,
      'the projection to be retrying',
    );
    expect(await addedRecords()).toBe(ROUND);

    // Back, and more withdrawals.
    await redis.start();
    await withdrawMany(ledger, 'restart-acct', 'after', ROUND);
    await waitFor(
      async () => (await addedRecords()) === 3 * ROUND || undefined,
      'every withdrawal to be added',
      30_000,
    );
    await waitFor(
      async () => (await readyz()).payoutSink.dependency?.ok || undefined,
      '/readyz to show Redis up again',
    );

    // Every withdrawal has its job in the queue (no worker runs here, so none was removed), created once.
    const withdrawals = (
      await app.db
        .collection(collectionNames.entries)
        .find({ kind: 'withdrawal' }, { projection: { _id: 1 } })
        .toArray()
    ).map((entry) => String(entry._id));
    expect(withdrawals).toHaveLength(3 * ROUND);
    const client = new Redis(redis.url);
    const queue = new Queue(QUEUE, { connection: client });
    try {
      const jobs = await Promise.all(withdrawals.map((id) => queue.getJob(payoutJobId(id))));
      expect(jobs.filter((job) => job === undefined)).toEqual([]);
      expect(jobs.map((job) => job!.data)).toEqual(
        withdrawals.map((id) => expect.objectContaining({ entryId: id, currency: 'EUR' })),
      );
      const { added } = await queueEventCounts(client, QUEUE);
      expect([...added.keys()].sort()).toEqual(withdrawals.map(payoutJobId).sort());
      expect([...added.values()].filter((n) => n !== 1)).toEqual([]);
    } finally {
      await queue.close();
      await client.quit();
    }
    console.log(
      `redis restart: ${withdrawals.length} withdrawals, ${await metricValue(app.registry, 'payout_queue_jobs_added_total')} jobs added, ` +
        `${await metricValue(app.registry, 'payout_queue_add_failures_total')} adds failed while Redis was down`,
    );
  });
});

describe('PAYOUT_QUEUE=bullmq when Redis is down at start-up (real redis-server)', () => {
  it('starts serving anyway, waits, and adds every withdrawal once Redis is up', async () => {
    const redis = await startTestRedis();
    await redis.stop();
    const app = await startTestApp({
      env: { PAYOUT_QUEUE: 'bullmq', REDIS_URL: redis.url, PAYOUT_QUEUE_NAME: 'late-redis', SEED_DEMO: '0' },
      payoutProjection: { leaseAcquireIntervalMs: 100 },
    });
    try {
      const ledger = ledgerOn(app.db);
      await fundedAccount(ledger, 'late-acct');
      await withdrawMany(ledger, 'late-acct', 'late', ROUND);
      const readyz = await fetch(app.url.replace(/\/graphql$/, '/readyz'));
      expect(((await readyz.json()) as ReadyzBody).payoutSink.dependency).toMatchObject({ name: 'redis', ok: false });
      expect(await payoutJobs(app.db).countDocuments({ state: 'added' })).toBe(0);
      await redis.start();
      await waitFor(
        async () => (await payoutJobs(app.db).countDocuments({ state: 'added' })) === ROUND || undefined,
        'every withdrawal to be added once Redis is up',
        30_000,
      );
      const client = new Redis(redis.url);
      try {
        const { added } = await queueEventCounts(client, 'late-redis');
        expect([...added.values()]).toEqual(Array.from({ length: ROUND }, () => 1));
      } finally {
        await client.quit();
      }
    } finally {
      await app.close();
      await redis.stop({ remove: true });
    }
  });
});
