// The projection's lease holder alive but unable to write (issue 24): process A holds the lease and
// keeps running, while every write it sends fails as if it had lost the primary (failCommand for
// its appName only: inserts, updates, findAndModify and commits time out). Its reads still work, so
// it still sees the stream. Process B must take the lease once A's runs out and project what A
// cannot (P1 keeps going); when A can write again it must not take the lease back from B or write a
// second payout: every withdrawal has exactly one.
import { startEmulator, type RunningEmulator } from '@precondition/mongo-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYOUT_LEASE_NAME, projectionLeases } from '../../src/payouts/index.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { failCommand } from '../support/failPoints.ts';
import { connectTestDb, testMongoEngine, testMongoUri, type TestDb } from '../support/mongo.ts';
import { waitFor } from '../support/waiting.ts';
import {
  awaitAllProjected,
  expectExactlyOnePayoutEach,
  fundedAccount,
  ledgerOn,
  withdrawMany,
  withProjection,
} from './support/payouts.ts';

/** Short, so the takeover comes soon: the holder renews every 500 ms, a lapsed lease is taken within 100 ms. */
const LEASE = { leaseDurationMs: 2_000, leaseRenewIntervalMs: 500, leaseAcquireIntervalMs: 100 } as const;
/** What B's takeover may take after A's writes start failing: A's lease running out, plus a generous margin for a loaded machine. */
const TAKEOVER_BOUND_MS = LEASE.leaseDurationMs + 8_000;
/** mongod's MaxTimeMSExpired (error_codes.yml): a write that timed out, neither retryable nor a topology change. */
const MAX_TIME_MS_EXPIRED = 50;
const WRITES = ['insert', 'update', 'delete', 'findAndModify', 'commitTransaction'];

// failCommand is one fail point per engine: this file has an engine of its own on the emulator, so
// that no other file's fail point replaces A's while it runs.
let ownEngine: RunningEmulator | undefined;
let test: TestDb;
const apps: TestApp[] = [];
beforeAll(async () => {
  if (testMongoEngine().kind === 'emulator') ownEngine = await startEmulator({ port: 0, replSetName: 'rs0' });
  test = await connectTestDb('payout_stuck_holder', {}, ownEngine?.uri ?? testMongoUri());
});
afterAll(async () => {
  for (const app of apps) await app.close().catch(() => undefined);
  await test?.close();
  await ownEngine?.stop();
});

const lease = () => projectionLeases(test.db).findOne({ _id: PAYOUT_LEASE_NAME });

async function appHolding(holder: string): Promise<TestApp> {
  const app = await startTestApp({ mongoUri: test.uri, dbName: test.dbName, ...withProjection({ holder, ...LEASE }) });
  apps.push(app);
  return app;
}

describe('a projection lease holder that is alive but cannot write', () => {
  it('loses the lease to a process that can, which projects on; nothing is missed or paid twice, and the lease does not flip back', async () => {
    const ledger = ledgerOn(test.db);
    await fundedAccount(ledger, 'stuck-acct');
    const a = await appHolding('stuck-a');
    await waitFor(async () => (await lease())?.holder === 'stuck-a' || undefined, 'A to hold the lease');
    const b = await appHolding('stuck-b');
    await withdrawMany(ledger, 'stuck-acct', 'stuck-1', 5);
    await awaitAllProjected(test.db, 5);
    expect((await lease())?.holder).toBe('stuck-a');

    const appName = a.client.options.appName!;
    const writesWork = await failCommand(test.client, appName, 'alwaysOn', {
      failCommands: WRITES,
      errorCode: MAX_TIME_MS_EXPIRED,
    });
    const stuckAt = Date.now();
    try {
      await withdrawMany(ledger, 'stuck-acct', 'stuck-2', 10);
      const taken = await waitFor(
        async () => {
          const doc = await lease();
          return doc?.holder === 'stuck-b' ? doc : undefined;
        },
        'B to take the lease from A, which cannot renew it',
        TAKEOVER_BOUND_MS,
      );
      const takeoverMs = Date.now() - stuckAt;
      await awaitAllProjected(test.db, 15);
      console.log(
        `[stuck holder] B took the lease (version ${taken.version}) ${takeoverMs} ms after A's writes began to fail (lease ${LEASE.leaseDurationMs} ms); all 15 withdrawals projected`,
      );
      expect(b.services.payoutProjection.status.state).toBe('projecting');
    } finally {
      await writesWork();
    }

    // A writes again: B keeps the lease, A waits, and the next withdrawals are projected once.
    await withdrawMany(ledger, 'stuck-acct', 'stuck-3', 5);
    expectExactlyOnePayoutEach(await awaitAllProjected(test.db, 20));
    await waitFor(
      () => a.services.payoutProjection.status.state === 'standby' || undefined,
      'A to stand by once it can write again',
    );
    expect((await lease())?.holder).toBe('stuck-b');
  });
});
