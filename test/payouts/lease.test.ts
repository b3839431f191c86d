// Fencing of the projection lease: a holder whose lease expired and was taken over can neither
// renew it nor move the stored position; expiry is judged by the database server's clock, so the
// tests wait on the lease document (expired by $$NOW), never on a sleep of their own.
import type { Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as shared from '../../src/db/lease.ts';
import {
  acquireProjectionLease,
  projectionLeases,
  renewProjectionLease,
  storeResumeToken,
} from '../../src/payouts/lease.ts';
import { connectTestDb, type TestDb } from '../support/mongo.ts';
import { waitFor } from '../support/waiting.ts';

const token = (hex: string) => ({ _data: hex });

/** Resolves once the server's clock has passed the lease's expiry (either lease API's collection). */
async function leaseExpired(
  leases: { countDocuments(filter: Document): Promise<number> },
  name: string,
): Promise<void> {
  const expired = async () =>
    (await leases.countDocuments({ _id: name, $expr: { $lte: ['$expiresAt', '$$NOW'] } })) === 1;
  await waitFor(expired, `lease ${name} to expire`, 10_000);
}

describe('projection lease', () => {
  let test: TestDb;
  beforeAll(async () => {
    test = await connectTestDb('streams_lease_fencing');
  });
  afterAll(async () => {
    await test?.close();
  });

  it('lets one of many concurrent claimers win', async () => {
    const leases = projectionLeases(test.db);
    const claims = await Promise.all(
      Array.from({ length: 10 }, (_, i) => acquireProjectionLease(leases, 'race', `holder-${i}`, 10_000)),
    );
    expect(claims.filter((claim) => claim !== null)).toHaveLength(1);
  });

  it('refuses a stale holder once another took the expired lease over', async () => {
    const leases = projectionLeases(test.db);
    const stale = await acquireProjectionLease(leases, 'fenced', 'old', 60_000);
    expect(stale?.lease.version).toBe(1);
    expect(await storeResumeToken(leases, stale!.lease, token('aa'))).toBe(true);
    expect(await acquireProjectionLease(leases, 'fenced', 'new', 10_000)).toBeNull(); // not expired yet
    // The old holder stalls past its lease: its expiry moves to the server's now (a long lease, cut
    // short, so the check above cannot race the clock; the next test lets a short one run out).
    await leases.updateOne({ _id: 'fenced' }, [{ $set: { expiresAt: '$$NOW' } }]);
    await leaseExpired(leases, 'fenced');
    const fresh = await acquireProjectionLease(leases, 'fenced', 'new', 10_000);
    expect(fresh).toMatchObject({ lease: { name: 'fenced', holder: 'new', version: 2 }, resumeToken: token('aa') });
    expect(await storeResumeToken(leases, stale!.lease, token('bb'))).toBe(false);
    expect(await renewProjectionLease(leases, stale!.lease, 10_000, token('bb'))).toBe(false);
    await shared.releaseLease(leases, stale!.lease); // a no-op for a stale holder
    expect(await leases.findOne({ _id: 'fenced' })).toMatchObject({
      holder: 'new',
      version: 2,
      resumeToken: token('aa'),
    });
    expect(await storeResumeToken(leases, fresh!.lease, token('cc'))).toBe(true);
  });

  it('refuses an expired holder even before anyone else takes over', async () => {
    const leases = projectionLeases(test.db);
    const held = await acquireProjectionLease(leases, 'expired', 'me', 100);
    await leaseExpired(leases, 'expired');
    expect(await storeResumeToken(leases, held!.lease, token('dd'))).toBe(false);
  });

  it('shared helper: reads the database clock while renewing, stores beside the lease only while held', async () => {
    const leases = shared.leaseCollection<shared.LeaseDoc & { cursor?: string }>(test.db, 'shared_leases');
    const held = await shared.acquireLease(leases, 'job', 'me', 150);
    expect(held?.lease).toEqual({ name: 'job', holder: 'me', version: 1 });
    const now = await shared.renewLeaseReadingNow(leases, held!.lease, 150);
    const doc = await leases.findOne({ _id: 'job' });
    expect(now).toEqual(new Date(doc!.expiresAt.getTime() - 150));
    expect(await shared.storeUnderLease(leases, held!.lease, { cursor: '$not-an-operator' })).toBe(true);
    expect((await leases.findOne({ _id: 'job' }))?.cursor).toBe('$not-an-operator');
    await leaseExpired(leases, 'job');
    expect(await shared.renewLeaseReadingNow(leases, held!.lease, 150)).toBeNull();
    expect(await shared.storeUnderLease(leases, held!.lease, { cursor: 'late' })).toBe(false);
    const next = await shared.acquireLease(leases, 'job', 'you', 10_000);
    expect(next?.doc).toMatchObject({ holder: 'you', version: 2, cursor: '$not-an-operator' });
  });
});

describe('the shared lease helper on mongod', () => {
  let test: TestDb;
  const commands: Document[] = [];
  beforeAll(async () => {
    test = await connectTestDb('lease_no_expr_upsert', { monitorCommands: true });
    test.client.on('commandStarted', (event) => commands.push(event.command));
  });
  afterAll(async () => {
    await test?.close();
  });

  it('never sends $expr in the query of an upsert, which mongod refuses (QueryFeatureNotAllowed), and still lets one claimer win', async () => {
    const leases = shared.leaseCollection<shared.LeaseDoc>(test.db, 'leases');
    const claims = await Promise.all(
      Array.from({ length: 6 }, (_, i) => shared.acquireLease(leases, 'upsert', `holder-${i}`, 10_000)),
    );
    expect(claims.filter((claim) => claim !== null)).toHaveLength(1);
    const upserts = commands.flatMap((command) =>
      command['findAndModify'] !== undefined && command['upsert'] === true
        ? [command['query'] as Document]
        : command['update'] !== undefined
          ? (command['updates'] as Document[]).filter((u) => u['upsert'] === true).map((u) => u['q'] as Document)
          : [],
    );
    expect(upserts.length).toBeGreaterThan(0);
    // The emulator accepts `$expr` there, so only the command itself can tell (src/db/lease.ts).
    expect(upserts.filter((query) => JSON.stringify(query).includes('$expr'))).toEqual([]);
  });
});
