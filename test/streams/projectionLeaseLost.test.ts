// Proves that a projecting process whose lease another process took over stops projecting at
// the next event (its token write is refused), leaves the new holder's position untouched, and
// goes to standby: the lease ends the stream the projection follows, whatever the stream does.
import { Long, type Db } from 'mongodb';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { collectionNames } from '../../src/ledger/index.ts';
import { projectionLeases } from '../../src/streams/projection/lease.ts';
import { PAYOUT_LEASE_NAME, PayoutProjection } from '../../src/streams/projection/PayoutProjection.ts';
import { ensureWalkIndexes } from '../../src/streams/projection/withdrawalWalk.ts';
import { ensureWorkItemIndexes, workItems } from '../../src/work/index.ts';
import { connectTestDb, type TestDb } from '../support/mongo.ts';

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

const payoutFor = (db: Db, id: string) => workItems(db).countDocuments({ kind: 'PAYOUT', 'payload.entryId': `${id}:debit` });

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
    const projection = new PayoutProjection(db, pino({ level: 'silent' }), new Registry(), {
      holder: 'first',
      leaseAcquireIntervalMs: 100,
      leaseDurationMs: 600_000,
      leaseRenewIntervalMs: 600_000,
    });
    projection.start();
    try {
      await withdrawal(db, 'before');
      await vi.waitFor(async () => expect(await payoutFor(db, 'before')).toBe(1), WAIT);
      await vi.waitFor(async () => expect(await leases.findOne({ _id: PAYOUT_LEASE_NAME })).toMatchObject({ holder: 'first', catchUp: null }), WAIT);
      expect(projection.status.state).toBe('projecting');

      // Another process takes the lease over (as after a stall past the expiry): a new holder and version.
      const taken = await leases.findOneAndUpdate(
        { _id: PAYOUT_LEASE_NAME, holder: 'first' },
        [{ $set: { holder: 'usurper', version: { $add: ['$version', 1] }, expiresAt: { $add: ['$$NOW', 600_000] } } }],
        { returnDocument: 'after' },
      );
      expect(taken).toMatchObject({ holder: 'usurper' });

      await withdrawal(db, 'after');
      await vi.waitFor(() => expect(projection.status.state).toBe('standby'), WAIT);
      // Its payout may exist (written before the refused token write; the new holder's replay is a
      // no-op), but the position stays the new holder's.
      expect(await leases.findOne({ _id: PAYOUT_LEASE_NAME })).toMatchObject({ holder: 'usurper', version: taken!['version'], resumeToken: taken!['resumeToken'] });
    } finally {
      await projection.stop();
    }
    expect(projection.status.state).toBe('stopped');
  });
});
