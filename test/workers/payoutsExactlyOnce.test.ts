// W7 with real processes: every applied withdrawal is paid once at the provider, through payout
// worker processes SIGKILLed mid-call and paused past their lease (test/workers/support/payoutRun.ts
// says how), and the provider's reference is recorded on each DONE item. A meta-test runs the same
// scenario with a worker that mints its provider key per attempt, and the check goes red.
import { MongoClient, type Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppProcess, type AppProcess } from '../support/app.ts';
import { testMongoUri } from '../support/mongo.ts';
import { expectPaidExactlyOnce, runPayouts, workerScriptArgs, type PayoutRunOptions } from './support/payoutRun.ts';

let api: AppProcess;
let client: MongoClient;
let db: Db;
const dbName = `workers_payouts_${Date.now().toString(36)}`;

beforeAll(async () => {
  api = await startAppProcess({ mongoUri: testMongoUri(), dbName, env: { RATE_LIMITS: 'off' }, startTimeoutMs: 90_000 });
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
    const outcome = await runPayouts({ ...base(), rounds: ['kill', 'pause', 'kill', 'pause'] });
    console.log(`[W7] ${JSON.stringify(outcome.figures)}`);
    expectPaidExactlyOnce(outcome, expect);
    // Each disruption took a lease over mid-call, and the retry was answered by its key.
    expect(outcome.figures.kills).toBe(2);
    expect(outcome.figures.pauses).toBe(2);
    expect(outcome.figures.leaseTakeovers).toBeGreaterThanOrEqual(4);
    expect(outcome.figures.provider.duplicates).toBeGreaterThanOrEqual(4);
    expect(outcome.figures.provider.refusals).toBe(0);
    expect(outcome.figures.provider.paid).toBe(outcome.figures.withdrawals);
  }, 120_000);

  it('meta: a worker whose provider key is minted per attempt pays an entry twice, and the check goes red', async () => {
    const args = workerScriptArgs().map((arg) => (arg === 'workers/payouts/main.ts' ? 'test/workers/support/perAttemptKeyWorker.ts' : arg));
    const outcome = await runPayouts({ ...base(), withdrawalsPerWave: 4, rounds: ['kill'], workerArgs: args });
    console.log(`[W7 mutant] ${JSON.stringify(outcome.figures)}`);
    expect(() => expectPaidExactlyOnce(outcome, expect)).toThrow(/entries paid more than once/);
  }, 120_000);
});
