import { ObjectId } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWorkHarness, type WorkHarness } from './support/harness.ts';
import { expectOneWinner, raceOneClaim } from './support/scenarios.ts';

// W1 at the service: 32 services on 32 separate MongoClients claim one item in the same tick.
// Exactly one conditional write can match; the other 31 are ConflictLost and counted.

let h: WorkHarness;
beforeAll(async () => {
  h = await openWorkHarness('claimRace');
});
afterAll(async () => {
  await h.close();
});

describe('W1: one winner per claim race', () => {
  it('gives 32 concurrent claimers of one item one ClaimSuccess and 31 counted ConflictLost', async () => {
    const workers = await h.services(32);
    const race = await raceOneClaim(h.service, workers, () => h.conflicts(), 'race-1');
    expectOneWinner(race);
  });

  it('refuses a claim at a stale expectedVersion even when the item is claimable', async () => {
    const created = await h.service.create({ kind: 'RACE', payload: null, idempotencyKey: 'stale', maxAttempts: 3 });
    if (created.kind !== 'createWorkItemSuccess') throw new Error(created.kind);
    const stale = await h.service.claim({ workerId: 'x', id: created.item._id, expectedVersion: 7, leaseSeconds: 30 });
    expect(stale.kind).toBe('conflictLost');
    const fresh = await h.service.claim({ workerId: 'x', id: created.item._id, expectedVersion: 1, leaseSeconds: 30 });
    expect(fresh).toMatchObject({
      kind: 'claimSuccess',
      item: { status: 'PROCESSING', previousStatus: 'PENDING', version: 2 },
    });
  });

  it('answers WorkItemNotFound for an id that does not exist, and NothingToClaim for an empty kind', async () => {
    const missing = await h.service.claim({ workerId: 'x', id: new ObjectId(), leaseSeconds: 30 });
    expect(missing.kind).toBe('workItemNotFound');
    const none = await h.service.claim({ workerId: 'x', kinds: ['NO_SUCH_KIND'], leaseSeconds: 30 });
    expect(none).toEqual({ kind: 'nothingToClaim', kinds: ['NO_SUCH_KIND'] });
  });
});
