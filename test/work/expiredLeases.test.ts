import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ObjectId } from 'mongodb';
import { workItems } from '../../src/work/index.ts';
import { openWorkHarness, type WorkHarness } from './support/harness.ts';

// An expired lease counts an attempt, and an item whose lease expires `maxAttempts` times is
// dead-lettered (FAILED) by the claim that finds it, never reclaimed again: before this, attempts
// climbed past maxAttempts forever. Leases are expired by moving `leaseExpiresAt` into the past,
// so the test waits on no clock. Also: DuplicateReplayed.original is the outcome as first
// decided, not the item as it is at replay time.

let h: WorkHarness;
beforeAll(async () => {
  h = await openWorkHarness('expiredLeases', { retryBackoffBaseMs: 0 });
});
afterAll(async () => {
  await h.close();
});

async function expireLease(id: ObjectId): Promise<void> {
  await workItems(h.db.db).updateOne({ _id: id }, { $set: { leaseExpiresAt: new Date(0) } });
}

async function createItem(key: string, kind: string, maxAttempts: number) {
  const created = await h.service.create({ kind, payload: { key }, idempotencyKey: key, maxAttempts });
  if (created.kind !== 'createWorkItemSuccess') throw new Error(created.kind);
  return created.item;
}

describe('expired leases', () => {
  it('counts each expired lease as an attempt and dead-letters the item after maxAttempts expiries', async () => {
    const item = await createItem('expire-1', 'EXPIRE1', 2);
    const first = await h.service.claim({ workerId: 'a', kinds: ['EXPIRE1'], leaseSeconds: 30 });
    expect(first).toMatchObject({ kind: 'claimSuccess', item: { attempts: 1 } });
    await expireLease(item._id);
    const second = await h.service.claim({ workerId: 'b', kinds: ['EXPIRE1'], leaseSeconds: 30 });
    expect(second).toMatchObject({ kind: 'claimSuccess', item: { attempts: 2, lockedBy: 'b' } });
    await expireLease(item._id);

    // The second expiry used the last attempt: the next claim dead-letters it and finds nothing else.
    const third = await h.service.claim({ workerId: 'c', kinds: ['EXPIRE1'], leaseSeconds: 30 });
    expect(third.kind).toBe('nothingToClaim');
    const after = await h.service.get(item._id);
    expect(after).toMatchObject({
      status: 'FAILED',
      previousStatus: 'PROCESSING',
      attempts: 2,
      lockedBy: null,
      leaseExpiresAt: null,
    });
    expect(after?.history.at(-1)).toMatchObject({ from: 'PROCESSING', to: 'FAILED', workerId: null });

    // A dead letter stays put until an operator requeues it.
    expect((await h.service.claim({ workerId: 'd', kinds: ['EXPIRE1'], leaseSeconds: 30 })).kind).toBe(
      'nothingToClaim',
    );
    expect((await h.service.claim({ workerId: 'd', id: item._id, leaseSeconds: 30 })).kind).toBe('conflictLost');
    const requeued = await h.service.requeue({ id: item._id, version: after!.version });
    expect(requeued).toMatchObject({ kind: 'requeueSuccess', item: { status: 'PENDING', attempts: 0 } });
  });

  it('answers a claim by id of an exhausted stalled item with ConflictLost showing it FAILED', async () => {
    const item = await createItem('expire-2', 'EXPIRE2', 1);
    expect((await h.service.claim({ workerId: 'a', id: item._id, leaseSeconds: 30 })).kind).toBe('claimSuccess');
    await expireLease(item._id);
    const reclaim = await h.service.claim({ workerId: 'b', id: item._id, leaseSeconds: 30 });
    expect(reclaim).toMatchObject({
      kind: 'conflictLost',
      operation: 'claim',
      current: { status: 'FAILED', attempts: 1 },
    });
  });

  it('dead-letters exhausted items on the way to a claimable one, and 8 racing claimers dead-letter each once', async () => {
    const exhausted = await Promise.all([1, 2, 3].map((i) => createItem(`expire-3-${i}`, 'EXPIRE3', 1)));
    for (const item of exhausted) {
      expect((await h.service.claim({ workerId: 'a', id: item._id, leaseSeconds: 30 })).kind).toBe('claimSuccess');
      await expireLease(item._id);
    }
    const fresh = await createItem('expire-3-fresh', 'EXPIRE3', 1);
    const claimers = await h.services(8);
    const results = await Promise.all(
      claimers.map((service, i) => service.claim({ workerId: `w${i}`, kinds: ['EXPIRE3'], leaseSeconds: 30 })),
    );
    const claimed = results.filter((result) => result.kind === 'claimSuccess');
    expect(claimed).toHaveLength(1);
    expect(claimed[0]).toMatchObject({ item: { _id: fresh._id } });
    for (const item of exhausted) {
      const after = await h.service.get(item._id);
      expect(after?.status).toBe('FAILED');
      expect(after?.history.filter((entry) => entry.to === 'FAILED')).toHaveLength(1);
    }
  });
});

describe('DuplicateReplayed.original is the first outcome as recorded then', () => {
  it('for createWorkItem: the item as created, though it was claimed and completed since', async () => {
    const input = { kind: 'SNAP1', payload: { n: 1 }, idempotencyKey: 'snap-1', maxAttempts: 3 };
    const created = await h.service.create(input);
    if (created.kind !== 'createWorkItemSuccess') throw new Error(created.kind);
    const claimed = await h.service.claim({ workerId: 'w', id: created.item._id, leaseSeconds: 30 });
    if (claimed.kind !== 'claimSuccess') throw new Error(claimed.kind);
    await h.service.complete({
      id: created.item._id,
      workerId: 'w',
      version: claimed.item.version,
      outcome: 'DONE',
      result: { ok: true },
    });

    const replay = await h.service.create(input);
    expect(replay.kind).toBe('duplicateReplayed');
    if (replay.kind !== 'duplicateReplayed') return;
    expect(replay.original.item).toMatchObject({
      _id: created.item._id,
      status: 'PENDING',
      version: 1,
      attempts: 0,
      lockedBy: null,
      result: null,
    });
    expect(replay.original.item.createdAt).toEqual(created.item.createdAt);
  });

  it('for completeWorkItem: the item as that completion left it, though it was requeued and claimed since', async () => {
    const created = await h.service.create({ kind: 'SNAP2', payload: null, idempotencyKey: 'snap-2', maxAttempts: 1 });
    if (created.kind !== 'createWorkItemSuccess') throw new Error(created.kind);
    const claimed = await h.service.claim({ workerId: 'w', id: created.item._id, leaseSeconds: 30 });
    if (claimed.kind !== 'claimSuccess') throw new Error(claimed.kind);
    const completion = {
      id: created.item._id,
      workerId: 'w',
      version: claimed.item.version,
      outcome: 'FAILED' as const,
      result: { reason: 'x' },
    };
    const first = await h.service.complete(completion);
    expect(first).toMatchObject({ kind: 'completeSuccess', item: { status: 'FAILED' } });
    if (first.kind !== 'completeSuccess') return;
    // Later history: an operator requeues it.
    expect((await h.service.requeue({ id: created.item._id, version: first.item.version })).kind).toBe(
      'requeueSuccess',
    );

    const replay = await h.service.complete(completion);
    expect(replay.kind).toBe('duplicateReplayed');
    if (replay.kind !== 'duplicateReplayed') return;
    const { createOutcome: _c, completionOutcome: _o, ...firstItem } = first.item;
    expect(replay.original.item).toMatchObject({ ...firstItem, history: first.item.history });
    expect(replay.original.item.status).toBe('FAILED');
    expect((await h.service.get(created.item._id))?.status).toBe('PENDING');
  });

  it('for completeWorkItem DONE after a failed attempt: the DONE item itself, never the failed attempt it replaced', async () => {
    const created = await h.service.create({ kind: 'SNAP3', payload: null, idempotencyKey: 'snap-3', maxAttempts: 2 });
    if (created.kind !== 'createWorkItemSuccess') throw new Error(created.kind);
    const firstClaim = await h.service.claim({ workerId: 'w', id: created.item._id, leaseSeconds: 30 });
    if (firstClaim.kind !== 'claimSuccess') throw new Error(firstClaim.kind);
    const failed = await h.service.complete({
      id: created.item._id,
      workerId: 'w',
      version: firstClaim.item.version,
      outcome: 'FAILED',
      result: { reason: 'x' },
    });
    expect(failed).toMatchObject({ kind: 'completeSuccess', item: { status: 'PENDING' } });
    // Due after its backoff: made due now, as the clock would.
    await workItems(h.db.db).updateOne({ _id: created.item._id }, { $set: { availableAt: new Date(0) } });
    const secondClaim = await h.service.claim({ workerId: 'v', id: created.item._id, leaseSeconds: 30 });
    if (secondClaim.kind !== 'claimSuccess') throw new Error(secondClaim.kind);
    const completion = {
      id: created.item._id,
      workerId: 'v',
      version: secondClaim.item.version,
      outcome: 'DONE' as const,
      result: { ok: 1 },
    };
    const done = await h.service.complete(completion);
    if (done.kind !== 'completeSuccess') throw new Error(done.kind);

    const replay = await h.service.complete(completion);
    if (replay.kind !== 'duplicateReplayed') throw new Error(replay.kind);
    expect(replay.original.item).toMatchObject({
      status: 'DONE',
      version: done.item.version,
      result: { ok: 1 },
      lastCompletion: { workerId: 'v', outcome: 'DONE' },
    });
    expect(await workItems(h.db.db).findOne({ _id: created.item._id })).not.toHaveProperty('completionOutcome');
  });
});

describe('claims, as mutation testing found them untested at the service level', () => {
  it('dead-letters at most 16 exhausted items in one claim', async () => {
    const items = [];
    for (let i = 0; i < 20; i++) items.push(await createItem(`bound-${i}`, 'BOUND', 1));
    for (const item of items) {
      expect((await h.service.claim({ workerId: 'a', id: item._id, leaseSeconds: 30 })).kind).toBe('claimSuccess');
      await expireLease(item._id);
    }
    expect((await h.service.claim({ workerId: 'b', kinds: ['BOUND'], leaseSeconds: 30 })).kind).toBe('nothingToClaim');
    const statuses = await Promise.all(items.map(async (item) => (await h.service.get(item._id))?.status));
    expect(statuses.filter((status) => status === 'FAILED')).toHaveLength(16);
    expect(statuses.filter((status) => status === 'PROCESSING')).toHaveLength(4);
  });

  it('takes the oldest due item first, stalled before pending, and any kind when kinds is empty or absent', async () => {
    const older = await createItem('order-1', 'ORDER', 3);
    const newer = await createItem('order-2', 'ORDER', 3);
    await workItems(h.db.db).updateOne({ _id: older._id }, { $set: { availableAt: new Date(Date.now() - 60_000) } });
    expect(await h.service.claim({ workerId: 'a', kinds: ['ORDER'], leaseSeconds: 30 })).toMatchObject({
      kind: 'claimSuccess',
      item: { _id: older._id },
    });
    await expireLease(older._id);
    // The stalled one comes back before the due newer one.
    expect(await h.service.claim({ workerId: 'b', kinds: ['ORDER'], leaseSeconds: 30 })).toMatchObject({
      kind: 'claimSuccess',
      item: { _id: older._id },
    });
    expect(await h.service.claim({ workerId: 'c', kinds: ['ORDER'], leaseSeconds: 30 })).toMatchObject({
      kind: 'claimSuccess',
      item: { _id: newer._id },
    });
    const any = await createItem('order-any', 'ORDER_ANY', 3);
    await workItems(h.db.db).updateMany(
      { status: 'PENDING', _id: { $ne: any._id } },
      { $set: { availableAt: new Date(Date.now() + 3_600_000) } },
    );
    expect(await h.service.claim({ workerId: 'd', kinds: [], leaseSeconds: 30 })).toMatchObject({
      kind: 'claimSuccess',
      item: { _id: any._id },
    });
    const another = await createItem('order-any-2', 'ORDER_ANY2', 3);
    expect(await h.service.claim({ workerId: 'e', leaseSeconds: 30 })).toMatchObject({
      kind: 'claimSuccess',
      item: { _id: another._id },
    });
  });

  it('leases for exactly leaseSeconds, by the server clock', async () => {
    const item = await createItem('lease-1', 'LEASE', 3);
    const claimed = await h.service.claim({ workerId: 'a', id: item._id, leaseSeconds: 45 });
    if (claimed.kind !== 'claimSuccess') throw new Error(claimed.kind);
    expect(claimed.item.leaseExpiresAt!.getTime() - claimed.item.updatedAt.getTime()).toBe(45_000);
    expect(claimed.item.leaseDurationMs).toBe(45_000);
  });

  it('answers ConflictLost, not DuplicateReplayed, to the same completion from another worker or version', async () => {
    const item = await createItem('replay-other-1', 'REPLAYOTHER', 3);
    const claimed = await h.service.claim({ workerId: 'w', id: item._id, leaseSeconds: 30 });
    if (claimed.kind !== 'claimSuccess') throw new Error(claimed.kind);
    const done = {
      id: item._id,
      workerId: 'w',
      version: claimed.item.version,
      outcome: 'DONE' as const,
      result: { r: 1 },
    };
    expect((await h.service.complete(done)).kind).toBe('completeSuccess');
    expect((await h.service.complete(done)).kind).toBe('duplicateReplayed');
    expect((await h.service.complete({ ...done, workerId: 'x' })).kind).toBe('conflictLost');
    expect((await h.service.complete({ ...done, version: done.version + 1 })).kind).toBe('conflictLost');
  });
});
