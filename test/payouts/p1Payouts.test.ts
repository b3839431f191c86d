// S3 and P1: every applied withdrawal yields exactly one PAYOUT work item, through projection
// restarts (the new holder resumes from the stored token), crashes between the payout and the
// token write (the event is replayed), and a rewound token (events replayed wholesale). Writes
// come from many concurrent withdrawals on the test's own client, so they go on while API
// processes stop and start. The meta-test runs the same scenario with the unique key removed
// (a writer that inserts a new item per call) and shows P1's check then fails.
import { startEmulator, type RunningEmulator } from '@precondition/mongo-emulator';
import type { Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYOUT_LEASE_NAME, projectionLeases, type PayoutWriter } from '../../src/payouts/index.ts';
import { connectTestDb, testMongoEngine, testMongoUri, type TestDb } from '../support/mongo.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import {
  awaitAllProjected,
  crashingAfterWrite,
  expectExactlyOnePayoutEach,
  fundedAccount,
  insertingWriter,
  ledgerOn,
  metricValue,
  payoutsPerWithdrawal,
  upsertingWriter,
  withdrawMany,
  withProjection,
} from './support/payouts.ts';
import { waitFor } from '../support/waiting.ts';

const BATCH = 15;

// The rewind in step 4 needs the oplog to still hold step 1's token. The run's shared emulator
// keeps its last 10,000 entries for every test file at once, which a loaded machine cycles
// through while this scenario runs (the stream then reports history lost and nothing replays),
// so on the emulator this file has an engine of its own. A real mongod's oplog holds far more.
let ownEngine: RunningEmulator | undefined;
beforeAll(async () => {
  if (testMongoEngine().kind === 'emulator') ownEngine = await startEmulator({ port: 0, replSetName: 'rs0' });
});
afterAll(async () => {
  await ownEngine?.stop();
});
const engineUri = () => ownEngine?.uri ?? testMongoUri();

/** The lease's stored token; undefined (not null) until there is one, so that waitFor keeps waiting. */
async function storedToken(db: Db) {
  return (await projectionLeases(db).findOne({ _id: PAYOUT_LEASE_NAME }))?.resumeToken ?? undefined;
}

/**
 * Withdrawals while the projection runs, stops, restarts, crashes and replays; resolves with the
 * counts, and the history-loss reconciliations the three apps counted on their registries.
 */
async function runScenario(test: TestDb, writer: (db: Db) => PayoutWriter) {
  const ledger = ledgerOn(test.db);
  await fundedAccount(ledger, 'p1-acct');
  const started: TestApp[] = [];
  const app = async (options: { crashEvery?: number }) => {
    const each = await startTestApp({
      mongoUri: test.uri,
      dbName: test.dbName,
      ...withProjection(
        { leaseAcquireIntervalMs: 100 },
        options.crashEvery ? crashingAfterWrite(writer(test.db), options.crashEvery) : writer(test.db),
      ),
    });
    started.push(each);
    return each;
  };

  // 1. Project a first batch; keep the token it stored to rewind to later. With no checkpoint yet
  // the projection catches up by a walk, and stores a token only when the stream hands it one (an
  // event, or the lease's renewal): rewinding to "no token" would reconcile, not replay.
  const first = await app({});
  await withdrawMany(ledger, 'p1-acct', 'p1-a', BATCH);
  await awaitAllProjected(test.db, BATCH);
  const earlyToken = await waitFor(() => storedToken(test.db), 'a stored token');

  // 2. Stop the projection while withdrawals are in flight, and keep withdrawing while it is down.
  await Promise.all([withdrawMany(ledger, 'p1-acct', 'p1-b', BATCH), first.close()]);
  await withdrawMany(ledger, 'p1-acct', 'p1-c', BATCH);

  // 3. Restart with a writer that crashes after every third batch of payouts: those events are replayed.
  const second = await app({ crashEvery: 3 });
  await withdrawMany(ledger, 'p1-acct', 'p1-d', BATCH);
  await awaitAllProjected(test.db, 4 * BATCH);
  await second.close();

  // 4. Rewind the stored token: the next holder replays everything since step 1.
  await projectionLeases(test.db).updateOne({ _id: PAYOUT_LEASE_NAME }, { $set: { resumeToken: earlyToken } });
  const third = await app({});
  await withdrawMany(ledger, 'p1-acct', 'p1-e', BATCH);
  await awaitAllProjected(test.db, 5 * BATCH);
  // The stream reads the rewound events before p1-e's: handling more than p1-e's batch means they were handled again.
  await waitFor(
    async () => (await metricValue(third.registry, 'payout_projection_events_total')) > BATCH || undefined,
    'the rewound events to be handled again',
  );
  const replayed = await metricValue(third.registry, 'payout_projection_events_total', { outcome: 'replayed' });
  await third.close();
  const reconciliations = await Promise.all(
    started.map((each) => metricValue(each.registry, 'payout_reconciliations_total', { reason: 'HISTORY_LOST' })),
  );
  return {
    counts: await payoutsPerWithdrawal(test.db),
    replayed,
    historyLostReconciliations: reconciliations.reduce((sum, n) => sum + n, 0),
  };
}

describe('P1 / S3: exactly one payout per applied withdrawal', () => {
  let test: TestDb;
  beforeAll(async () => {
    test = await connectTestDb('streams_p1', {}, engineUri());
  });
  afterAll(async () => {
    await test?.close();
  });

  it('survives restarts, crashes before the token write and replays with one payout each', async () => {
    const { counts, replayed, historyLostReconciliations } = await runScenario(test, upsertingWriter);
    expectExactlyOnePayoutEach(counts);
    // The rewound events met their payouts' unique keys: replays, not new items.
    expect(replayed).toBeGreaterThan(0);
    // Restarts resumed from the stored token (S3): no history was lost, nothing needed reconciling.
    expect(historyLostReconciliations).toBe(0);
  });

  it('meta: without the unique key the same scenario makes duplicate payouts, and the check catches it', async () => {
    const meta = await connectTestDb('streams_p1_meta', {}, engineUri());
    try {
      const { counts } = await runScenario(meta, insertingWriter);
      expect(() => expectExactlyOnePayoutEach(counts)).toThrow();
      expect([...counts.payouts.values()].some((n) => n > 1)).toBe(true);
    } finally {
      await meta.close();
    }
  });
});

describe('the projection lease', () => {
  it('is held by one of two running processes; the other takes over when the holder stops', async () => {
    const test = await connectTestDb('streams_lease', {}, engineUri());
    const holders = ['lease-app-0', 'lease-app-1'];
    const apps = await Promise.all(
      holders.map((holder) =>
        startTestApp({
          mongoUri: test.uri,
          dbName: test.dbName,
          ...withProjection({ holder, leaseAcquireIntervalMs: 100 }),
        }),
      ),
    );
    try {
      const lease = () => projectionLeases(test.db).findOne({ _id: PAYOUT_LEASE_NAME });
      const firstHolder = await waitFor(async () => (await lease())?.holder, 'a holder');
      const ledger = ledgerOn(test.db);
      await fundedAccount(ledger, 'lease-acct');
      await withdrawMany(ledger, 'lease-acct', 'lease-a', 5);
      await awaitAllProjected(test.db, 5);
      await apps[holders.indexOf(firstHolder)]!.close();
      const next = await waitFor(async () => {
        const doc = await lease();
        return doc && doc.holder !== firstHolder ? doc : undefined;
      }, 'the other process to take the lease');
      expect(next.version).toBeGreaterThan(1);
      await withdrawMany(ledger, 'lease-acct', 'lease-b', 5);
      expectExactlyOnePayoutEach(await awaitAllProjected(test.db, 10));
    } finally {
      for (const app of apps) await app.close();
      await test.close();
    }
  });
});
