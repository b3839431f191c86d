// @module-tag processes
// `npm run worker:payouts -- --queue bullmq` as a process, against a real redis-server and the test
// provider: W7 on BullMQ. A worker SIGKILLed while the provider holds its answers leaves its jobs
// locked; once their locks run out, another worker's stalled-job check moves them back to waiting
// and it calls the provider again under the same key per entry, which answers with the payout it
// already made: one payout per entry. A job that the payout projection did not add (its id is not
// its entry's) is failed without a payout. The sink (src/payouts) and the worker (workers/, which
// may not import src/) spell the job id and the taken-marks hash each on their own: they agree.
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYOUT_JOB_NAME, payoutJobId, payoutJobOptions, takenMarksKey } from '../../src/payouts/index.ts';
import { payoutJobIdOf, takenMarksKey as workerTakenMarksKey } from '../../workers/payouts/bullmq.ts';
import { spawnNode, type MainProcess } from '../support/app.ts';
import { startTestPayoutProvider, type TestPayoutProvider } from '../support/payoutProvider.ts';
import { startTestRedis, type TestRedis } from '../support/redis.ts';
import { waitFor } from '../support/waiting.ts';
import { workerScriptArgs } from './support/payoutRun.ts';

const QUEUE = 'worker-payouts';

describe('the sink and the BullMQ worker', () => {
  it('derive the same job id from an entry, one-to-one and without a colon, and name the same taken-marks hash', () => {
    const entries = [
      'ledger:req-1:debit',
      'ledger:a:b:c:debit',
      'ledger:100%:debit',
      'ledger:é ü/#?:debit',
      'ledger:a%3Ab:debit',
    ];
    for (const entryId of entries) {
      expect(payoutJobIdOf(entryId)).toBe(payoutJobId(entryId));
      expect(payoutJobId(entryId)).not.toContain(':');
      expect(decodeURIComponent(payoutJobId(entryId))).toBe(`payout:${entryId}`);
    }
    expect(new Set(entries.map(payoutJobId)).size).toBe(entries.length);
    expect(workerTakenMarksKey(QUEUE)).toBe(takenMarksKey(QUEUE));
  });
});

describe('npm run worker:payouts -- --queue bullmq (real redis-server)', () => {
  let redis: TestRedis;
  let provider: TestPayoutProvider;
  const workers: MainProcess[] = [];
  beforeAll(async () => {
    redis = await startTestRedis();
    // The first call for each key is answered only after 4 s: the worker that made it is killed meanwhile.
    provider = await startTestPayoutProvider({ delayMs: (call) => (call.attempt === 1 ? 4_000 : 0) });
  });
  afterAll(async () => {
    for (const worker of workers) if (worker.child.exitCode === null) worker.child.kill('SIGKILL');
    await Promise.all(workers.map((worker) => worker.exited));
    await provider?.stop();
    await redis?.stop({ remove: true });
  });

  const startWorker = async (env: Record<string, string> = {}) => {
    const worker = spawnNode([...workerScriptArgs(), '--queue', 'bullmq'], {
      REDIS_URL: redis.url,
      PAYOUT_QUEUE_NAME: QUEUE,
      PAYOUT_PROVIDER_URL: provider.url,
      PAYOUT_WORKER_LOCK_MS: '1000',
      PAYOUT_WORKER_STALLED_INTERVAL_MS: '1000',
      ...env,
    });
    workers.push(worker);
    await worker.waitFor(/payout worker started/);
    return worker;
  };

  it('refuses to start without REDIS_URL, or with an unknown --queue, naming what is wrong', async () => {
    const noRedis = spawnNode([...workerScriptArgs(), '--queue', 'bullmq'], { PAYOUT_PROVIDER_URL: provider.url });
    expect((await noRedis.exited).code).toBe(2);
    expect(noRedis.stderr()).toMatch(/REDIS_URL: required with --queue bullmq/);
    const unknown = spawnNode([...workerScriptArgs(), '--queue', 'kafka'], {});
    expect((await unknown.exited).code).toBe(2);
    expect(unknown.stderr()).toMatch(/--queue expects work-items or bullmq, not kafka/);
  });

  it('pays each entry once through a worker killed mid-call: its stalled jobs run again under the same key', async () => {
    const client = new Redis(redis.url);
    const queue = new Queue(QUEUE, { connection: client });
    try {
      const first = await startWorker();
      const entries = ['ledger:w-1:debit', 'ledger:w-2:debit', 'ledger:w-3:debit'];
      await queue.addBulk(
        entries.map((entryId, i) => ({
          name: PAYOUT_JOB_NAME,
          data: { entryId, accountId: 'acct-1', amount: 100 + i, currency: 'EUR' },
          opts: payoutJobOptions(entryId),
        })),
      );
      // Not the projection's: the id is not its entry's.
      await queue.add(
        PAYOUT_JOB_NAME,
        { entryId: 'ledger:w-9:debit', accountId: 'acct-1', amount: 5, currency: 'EUR' },
        { jobId: 'stray-job', attempts: 3 },
      );
      await waitFor(
        () => provider.snapshot().calls >= entries.length || undefined,
        'the first worker to call the provider for every entry',
      );
      first.child.kill('SIGKILL');
      await first.exited;
      await startWorker();
      const results = await waitFor(
        async () => {
          const jobs = await Promise.all(entries.map((entryId) => queue.getJob(payoutJobId(entryId))));
          return jobs.every((job) => job?.finishedOn && job.returnvalue) ? jobs.map((job) => job!) : undefined;
        },
        'every job to complete on the second worker',
        20_000,
      );
      const paid = provider.payoutsByEntry();
      expect([...paid.keys()].sort()).toEqual(entries);
      expect([...paid.values()].map((payouts) => payouts.length)).toEqual([1, 1, 1]);
      // The second worker's calls were answered by key, with the first payout's id.
      expect(provider.snapshot()).toMatchObject({ paid: 3, duplicates: 3, refusals: 0 });
      expect(results.map((job) => job.returnvalue)).toEqual(
        entries.map((entryId) => ({ providerId: paid.get(entryId)![0]!.id, key: `payout:${entryId}` })),
      );
      // Each entry was marked taken before its first call (the sink's evidence after a crash).
      expect(Object.keys(await client.hgetall(takenMarksKey(QUEUE))).sort()).toEqual(entries);
      const stray = await waitFor(async () => {
        const job = await queue.getJob('stray-job');
        return job?.failedReason ? job : undefined;
      }, 'the stray job to fail');
      expect(stray.failedReason).toMatch(/not added by the payout projection/);
      expect(stray.attemptsMade).toBe(1); // unrecoverable: not retried
      expect(paid.has('ledger:w-9:debit')).toBe(false);
    } finally {
      await queue.close();
      await client.quit();
    }
  });
});
