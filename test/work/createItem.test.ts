import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWorkHarness, type WorkHarness } from './support/harness.ts';

// Creation is idempotent on the caller's key: the same key and parameters replay the original,
// other parameters are refused, and a client key never collides with the projection's keys.

let h: WorkHarness;
beforeAll(async () => {
  h = await openWorkHarness('createItem');
});
afterAll(async () => {
  await h.close();
});

describe('createWorkItem', () => {
  it('creates a PENDING item at version 1 with its creation in the stored history', async () => {
    const created = await h.service.create({
      kind: 'EMAIL',
      payload: { to: 'a' },
      idempotencyKey: 'c-1',
      maxAttempts: 4,
    });
    expect(created).toMatchObject({
      kind: 'createWorkItemSuccess',
      item: {
        status: 'PENDING',
        previousStatus: null,
        version: 1,
        attempts: 0,
        maxAttempts: 4,
        idempotencyKey: 'client:c-1',
      },
    });
    if (created.kind !== 'createWorkItemSuccess') return;
    expect(created.item.history).toMatchObject([{ from: null, to: 'PENDING', version: 1 }]);
  });

  it('replays the same key and parameters as DuplicateReplayed and refuses other parameters', async () => {
    const input = { kind: 'EMAIL', payload: { to: 'b', cc: ['c'] }, idempotencyKey: 'c-2', maxAttempts: 4 };
    const first = await h.service.create(input);
    if (first.kind !== 'createWorkItemSuccess') throw new Error(first.kind);
    const again = await h.service.create({ ...input, payload: { cc: ['c'], to: 'b' } });
    expect(again).toMatchObject({
      kind: 'duplicateReplayed',
      requestId: 'c-2',
      original: { item: { _id: first.item._id } },
    });
    expect((await h.service.create({ ...input, payload: { to: 'z' } })).kind).toBe('idempotencyKeyReused');
    expect((await h.service.create({ ...input, maxAttempts: 9 })).kind).toBe('idempotencyKeyReused');
    expect(await h.db.db.collection('workItems').countDocuments({ idempotencyKey: 'client:c-2' })).toBe(1);
  });

  it('creates exactly one item when 16 clients send the same key at once', async () => {
    const workers = await h.services(16);
    const input = { kind: 'EMAIL', payload: { n: 1 }, idempotencyKey: 'c-3', maxAttempts: 2 };
    const results = await Promise.all(workers.map((worker) => worker.create(input)));
    expect(results.filter((r) => r.kind === 'createWorkItemSuccess')).toHaveLength(1);
    expect(results.filter((r) => r.kind === 'duplicateReplayed')).toHaveLength(15);
  });

  it('keeps client keys and payout keys apart, and makes one payout item per entry however often replayed', async () => {
    const client = await h.service.create({ kind: 'PAYOUT', payload: null, idempotencyKey: 'entry-9', maxAttempts: 5 });
    const payouts = await Promise.all(
      [1, 2, 3].map(() => h.service.createPayout({ entryId: 'entry-9', payload: { amount: 5 } })),
    );
    expect(client.kind).toBe('createWorkItemSuccess');
    expect(payouts.filter((p) => p.created)).toHaveLength(1);
    expect(payouts[0]!.item).toMatchObject({
      idempotencyKey: 'payout:entry-9',
      kind: 'PAYOUT',
      payload: { amount: 5 },
    });
    expect(await h.db.db.collection('workItems').countDocuments({ kind: 'PAYOUT' })).toBe(2);
  });
});
