// Proves that the lease, not the stream, decides how long a process projects: a holder whose
// lease another process took over stops at its next event (its token write is refused), leaves
// the new holder's position untouched and stands by; a holder whose stream keeps failing gives
// the lease back after `streamFailuresMax` failures in a row, so that another process may try.
import { startEmulator } from '@precondition/mongo-emulator';
import { Long, MongoClient, type Db } from 'mongodb';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { eventually } from '../support/waiting.ts';
import { collectionNames } from '../../src/ledger/index.ts';
import { ProjectionLimits } from '../../src/payouts/limits.ts';
import { projectionLeases } from '../../src/payouts/lease.ts';
import { createStreamsTelemetry } from '../../src/fanout/index.ts';
import { createPayoutProjection, PAYOUT_LEASE_NAME } from '../../src/payouts/PayoutProjection.ts';
import { ensureWalkIndexes } from '../../src/payouts/withdrawalWalk.ts';
import { createWorkService, createWorkTelemetry, ensureWorkItemIndexes, workItems } from '../../src/work/index.ts';
import { connectTestDb, type TestDb } from '../support/mongo.ts';
import { withFailCommand } from '../support/failPoints.ts';

const WAIT = { timeout: 20_000, interval: 25 };

/** One withdrawal entry written straight to the journal, as the ledger writes it. */
async function withdrawal(db: Db, id: string): Promise<void> {
  await db.collection(collectionNames.entries).insertOne({
    _id: `${id}:debit`,
    requestId: id,
    accountId: 'lease-lost-acct',
    currency: 'EUR',
    kind: 'withdrawal',
    amount: Long.fromNumber(1),
    balanceAfter: Long.fromNumber(0),
    versionAfter: Long.fromNumber(1),
    counterpartyAccountId: null,
    createdAt: new Date(),
  } as never);
}

/** A projection built as the app builds it, on a registry of its own. */
function projectionOn(db: Db, options: Parameters<typeof createPayoutProjection>[1]) {
  const logger = pino({ level: 'silent' });
  const registry = new Registry();
  const work = createWorkService({ db, telemetry: createWorkTelemetry(registry, logger) });
  return createPayoutProjection({ db, logger, telemetry: createStreamsTelemetry(registry), work }, options);
}

const payoutFor = (db: Db, id: string) =>
  workItems(db).countDocuments({ kind: 'PAYOUT', 'payload.entryId': `${id}:debit` });

describe('payout projection whose lease is taken over', () => {
  let test: TestDb;
  beforeAll(async () => {
    test = await connectTestDb('projection_lease_lost');
    await ensureWalkIndexes(test.db);
    await ensureWorkItemIndexes(test.db);
  });
  afterAll(async () => {
    await test?.close();
  });

  it('stops projecting at the next event, stores nothing over the new holder, and stands by', async () => {
    const db = test.db;
    const leases = projectionLeases(db);
    // No renewal within the test: only the refused token write of the next event can end the holding.
    const projection = projectionOn(db, {
      holder: 'first',
      leaseAcquireIntervalMs: 100,
      leaseDurationMs: 600_000,
      leaseRenewIntervalMs: 600_000,
    });
    projection.start();
    try {
      await withdrawal(db, 'before');
      await eventually(async () => expect(await payoutFor(db, 'before')).toBe(1), WAIT);
      await eventually(
        async () =>
          expect(await leases.findOne({ _id: PAYOUT_LEASE_NAME })).toMatchObject({ holder: 'first', catchUp: null }),
        WAIT,
      );
      expect(projection.status.state).toBe('projecting');

      // Another process takes the lease over (as after a stall past the expiry): a new holder and version.
      const taken = await leases.findOneAndUpdate(
        { _id: PAYOUT_LEASE_NAME, holder: 'first' },
        [{ $set: { holder: 'usurper', version: { $add: ['$version', 1] }, expiresAt: { $add: ['$$NOW', 600_000] } } }],
        { returnDocument: 'after' },
      );
      expect(taken).toMatchObject({ holder: 'usurper' });

      await withdrawal(db, 'after');
      await eventually(() => expect(projection.status.state).toBe('standby'), WAIT);
      // Its payout may exist (written before the refused token write; the new holder's replay is a
      // no-op), but the position stays the new holder's.
      expect(await leases.findOne({ _id: PAYOUT_LEASE_NAME })).toMatchObject({
        holder: 'usurper',
        version: taken!['version'],
        resumeToken: taken!['resumeToken'],
      });
    } finally {
      await projection.stop();
    }
    expect(projection.status.state).toBe('stopped');
  });

  it('gives the lease back after repeated stream failures without progress, and takes it again', async () => {
    // failCommand is one fail point per server: on an engine of its own, turning it off cannot
    // disturb another test file's fault.
    const emulator = await startEmulator({ port: 0, replSetName: 'rs0' });
    onTestFinished(() => emulator.stop());
    const client = await MongoClient.connect(emulator.uri, { appName: 'projectionFailingTest' });
    onTestFinished(() => client.close());
    const db = client.db('projection_failing');
    await ensureWalkIndexes(db);
    await ensureWorkItemIndexes(db);
    const leases = projectionLeases(db);
    const projection = projectionOn(db, { holder: 'failing', leaseAcquireIntervalMs: 100 });
    projection.start();
    try {
      await eventually(
        async () =>
          expect(await leases.findOne({ _id: PAYOUT_LEASE_NAME })).toMatchObject({
            holder: 'failing',
            version: 1,
            catchUp: null,
          }),
        WAIT,
      );
      // Every getMore and aggregate of this process's client fails, unlabelled: its stream cannot be (re)opened.
      const unlabelled = { failCommands: ['getMore', 'aggregate'], errorCode: 8, errorLabels: [] };
      await withFailCommand(client, 'projectionFailingTest', 'alwaysOn', unlabelled, async () => {
        await eventually(() => expect(projection.status).toMatchObject({ state: 'retrying' }), WAIT);
        // It released the lease after the failures and took it again: a new version.
        await eventually(
          async () => expect((await leases.findOne({ _id: PAYOUT_LEASE_NAME }))?.['version']).toBeGreaterThanOrEqual(2),
          { ...WAIT, timeout: 60_000 },
        );
        expect(projection.status.consecutiveFailures).toBeGreaterThanOrEqual(ProjectionLimits.streamFailuresMax);
      });
    } finally {
      await projection.stop();
    }
  }, 90_000);
});
