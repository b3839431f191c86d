// @module-tag processes
// W7 with real processes: every applied withdrawal is paid once at the provider, through payout
// worker processes SIGKILLed mid-call and paused past their lease (test/workers/support/payoutRun.ts
// says how), and the provider's reference is recorded on each DONE item. A meta-test runs the same
// scenario with a worker that mints its provider key per attempt, and the check goes red. The
// short form (three disruptions); `npm run test:faults` runs the long one (test/faults/payouts.faults.ts).
import { MongoClient, type Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppProcess, type AppProcess } from '../support/app.ts';
import { testMongoUri } from '../support/mongo.ts';
import { workItems } from '../../src/work/index.ts';
import { spawnNode } from '../support/app.ts';
import { startTestPayoutProvider } from '../support/payoutProvider.ts';
import { waitFor } from '../support/waiting.ts';
import {
  expectPaidExactlyOnce,
  openFundedAccount,
  runPayouts,
  withdrawOnce,
  workerScriptArgs,
  type PayoutRunOptions,
} from './support/payoutRun.ts';

let api: AppProcess;
let client: MongoClient;
let db: Db;
const dbName = `workers_payouts_${Date.now().toString(36)}`;

beforeAll(async () => {
  api = await startAppProcess({
    mongoUri: testMongoUri(),
    dbName,
    env: { RATE_LIMITS: 'off' },
    startTimeoutMs: 90_000,
  });
  client = await MongoClient.connect(testMongoUri());
  db = client.db(dbName);
}, 120_000);
afterAll(async () => {
  await api?.stop();
  await db?.dropDatabase().catch(() => undefined);
  await client?.close();
}, 60_000);

const base = (): Omit<PayoutRunOptions, 'rounds'> => ({
  api,
  db,
  withdrawalsPerWave: 8,
  workers: 3,
  concurrency: 4,
  leaseSeconds: 2,
  holdMs: 1_000,
  settleTimeoutMs: 30_000,
});

describe('payout workers (W7, real processes)', () => {
  it('pays every applied withdrawal exactly once through kills and leases taken over mid-call', async () => {
    const outcome = await runPayouts({ ...base(), rounds: ['kill', 'pause', 'kill'] });
    console.log(`[W7] ${JSON.stringify(outcome.figures)}`);
    expectPaidExactlyOnce(outcome, expect);
    // Each disruption took a lease over mid-call, and the retry was answered by its key.
    expect(outcome.figures.kills).toBe(2);
    expect(outcome.figures.pauses).toBe(1);
    expect(outcome.figures.leaseTakeovers).toBeGreaterThanOrEqual(3);
    expect(outcome.figures.provider.duplicates).toBeGreaterThanOrEqual(3);
    expect(outcome.figures.provider.refusals).toBe(0);
    expect(outcome.figures.provider.paid).toBe(outcome.figures.withdrawals);
  }, 120_000);

  it('meta: a worker whose provider key is minted per attempt pays an entry twice, and the check goes red', async () => {
    const args = workerScriptArgs().map((arg) =>
      arg === 'workers/payouts/main.ts' ? 'test/workers/support/perAttemptKeyWorker.ts' : arg,
    );
    const outcome = await runPayouts({
      ...base(),
      workers: 2,
      withdrawalsPerWave: 4,
      rounds: ['kill'],
      workerArgs: args,
    });
    console.log(`[W7 mutant] ${JSON.stringify(outcome.figures)}`);
    expect(() => expectPaidExactlyOnce(outcome, expect)).toThrow(/entries paid more than once/);
  }, 120_000);

  it('on SIGTERM stops, lets the payout in hand finish and record its id, and exits 0', async () => {
    const provider = await startTestPayoutProvider({ delayMs: (call) => (call.outcome === 'paid' ? 1_500 : 0) });
    try {
      const worker = spawnNode(workerScriptArgs(), {
        API_URL: api.url,
        API_KEY: api.keys.worker,
        PAYOUT_PROVIDER_URL: provider.url,
        PAYOUT_WORKER_LEASE_SECONDS: '5',
        PAYOUT_WORKER_SHUTDOWN_GRACE_MS: '20000',
      });
      await worker.waitFor(/payout worker started/, 60_000);
      await openFundedAccount(api, 'payout-sigterm');
      const { entryId } = await withdrawOnce(api, 'payout-sigterm', 4_200, 'payout-sigterm-w1');
      await waitFor(
        () => provider.snapshot().held.some((call) => call.entryId === entryId),
        'the worker to be mid-call',
        30_000,
      );
      worker.child.kill('SIGTERM');
      expect(await worker.exited).toEqual({ code: 0, signal: null });
      expect(worker.stdout()).toMatch(/"payout worker stopped"/);
      const [payout] = provider.payoutsByEntry().get(entryId)!;
      const item = await workItems(db).findOne({ 'payload.entryId': entryId });
      expect(item).toMatchObject({ status: 'DONE', result: { providerId: payout!.id, key: `payout:${entryId}` } });
      expect(provider.snapshot()).toMatchObject({ calls: 1, paid: 1 });
    } finally {
      await provider.stop();
    }
  }, 120_000);
});
