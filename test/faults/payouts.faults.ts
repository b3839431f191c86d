// W7's long form (`npm run test:faults`): the payout run of test/workers/payoutsExactlyOnce.test.ts
// with more of everything: PAYOUT_FAULT_ROUNDS rounds (default 16) of 20 withdrawals each,
// alternately a worker SIGKILLed mid-call (and replaced) and one paused past its lease, three
// worker processes at a time.
import { MongoClient } from 'mongodb';
import { expect, it } from 'vitest';
import { startAppProcess } from '../support/app.ts';
import { testMongoUri } from '../support/mongo.ts';
import { expectPaidExactlyOnce, runPayouts, type Disruption } from '../workers/support/payoutRun.ts';

const ROUNDS = Number(process.env['PAYOUT_FAULT_ROUNDS'] ?? 16);

it('pays every applied withdrawal exactly once through many kills and pauses mid-call', async () => {
  const dbName = `faults_payouts_${Date.now().toString(36)}`;
  const api = await startAppProcess({
    mongoUri: testMongoUri(),
    dbName,
    env: { RATE_LIMITS: 'off' },
    startTimeoutMs: 90_000,
  });
  const client = await MongoClient.connect(testMongoUri());
  try {
    const rounds = Array.from({ length: ROUNDS }, (_, i): Disruption => (i % 2 === 0 ? 'kill' : 'pause'));
    const outcome = await runPayouts({
      api,
      db: client.db(dbName),
      rounds,
      withdrawalsPerWave: 20,
      workers: 3,
      concurrency: 4,
      leaseSeconds: 2,
      holdMs: 1_000,
      settleTimeoutMs: 60_000,
    });
    console.log(`[W7 long] ${JSON.stringify(outcome.figures)}`);
    expectPaidExactlyOnce(outcome, expect);
    expect(outcome.figures.kills + outcome.figures.pauses).toBe(ROUNDS);
    expect(outcome.figures.provider.duplicates).toBeGreaterThanOrEqual(ROUNDS);
    expect(outcome.figures.provider.refusals).toBe(0);
  } finally {
    await api.stop();
    await client
      .db(dbName)
      .dropDatabase()
      .catch(() => undefined);
    await client.close();
  }
});
