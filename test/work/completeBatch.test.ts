import type { ObjectId } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkItemDoc, WorkService } from '../../src/work/index.ts';
import { setKindLimits } from '../../src/work/kindLimits.ts';
import { workItems } from '../../src/work/model.ts';
import { dropFence } from './support/dropFence.ts';
import { openWorkHarness, type WorkHarness } from './support/harness.ts';

// completeWorkItems and heartbeatWorkItems (issue 43): a batch is many single calls in one
// request, never one decision for all. Each item keeps its own fence (W3) and its own key (W4):
// an item whose lease was taken over is refused while the others in the same batch apply, and
// the mutant with the fence dropped (support/dropFence.ts) completes over the new holder.

let h: WorkHarness;
beforeAll(async () => {
  h = await openWorkHarness('completeBatch');
  await setKindLimits(h.db.db, { BATCH_LIMITED: 2 });
});
afterAll(async () => {
  await h.close();
});

/** `count` new items of `kind`, each claimed by `workerId` (by id). */
async function claimedItems(
  service: WorkService,
  kind: string,
  key: string,
  count: number,
  workerId = 'A',
): Promise<WorkItemDoc[]> {
  const items: WorkItemDoc[] = [];
  for (let i = 0; i < count; i++) {
    const created = await service.create({ kind, payload: { key, i }, idempotencyKey: `${key}-${i}`, maxAttempts: 5 });
    if (created.kind !== 'createWorkItemSuccess') throw new Error(created.kind);
    const claim = await service.claim({ workerId, id: created.item._id, leaseSeconds: 30 });
    if (claim.kind !== 'claimSuccess') throw new Error(claim.kind);
    items.push(claim.item);
  }
  return items;
}

/** Ends the lease on the database clock, so that another worker may claim the item by id. */
async function expireLease(id: ObjectId): Promise<void> {
  await workItems(h.db.db).updateOne({ _id: id }, { $set: { leaseExpiresAt: new Date(0) } });
}

const done = (item: WorkItemDoc, workerId = 'A', result: unknown = { by: workerId }) => ({
  id: item._id,
  workerId,
  version: item.version,
  outcome: 'DONE' as const,
  result,
});

async function takenOverBatch(service: WorkService, key: string) {
  const items = await claimedItems(h.service, 'BATCH', key, 4);
  await expireLease(items[1]!._id);
  const takeover = await h.service.claim({ workerId: 'B', id: items[1]!._id, leaseSeconds: 60 });
  if (takeover.kind !== 'claimSuccess') throw new Error(takeover.kind);
  const beats = await service.heartbeatMany({
    items: items.map((item) => ({ id: item._id, workerId: 'A', version: item.version })),
  });
  const answers = await service.completeMany({ items: items.map((item) => done(item)) });
  return {
    items,
    beats: beats.map((b) => b.kind),
    answers: answers.map((a) => a.kind),
    stale: await h.service.get(items[1]!._id),
    takeover: takeover.item,
  };
}

describe('W3 per item: a stale lease in a batch', () => {
  it('is refused on its own while the other items of the same batch apply, heartbeats and completions alike', async () => {
    const { items, beats, answers, stale, takeover } = await takenOverBatch(h.service, 'w3-batch');
    expect(beats).toEqual(['heartbeatSuccess', 'conflictLost', 'heartbeatSuccess', 'heartbeatSuccess']);
    expect(answers).toEqual(['completeSuccess', 'conflictLost', 'completeSuccess', 'completeSuccess']);
    expect(stale).toMatchObject({ status: 'PROCESSING', lockedBy: 'B', version: takeover.version, result: null });
    for (const item of [items[0]!, items[2]!, items[3]!])
      expect(await h.service.get(item._id)).toMatchObject({ status: 'DONE', result: { by: 'A' } });
    // The new holder's completion is untouched by the batch.
    expect((await h.service.complete(done(takeover, 'B'))).kind).toBe('completeSuccess');
  });

  it('meta: with the fence dropped, the stale completion writes over the new holder (the test above goes red)', async () => {
    const [mutant] = await h.services(1, {}, dropFence);
    const { answers, stale } = await takenOverBatch(mutant!, 'w3-batch-mutant');
    expect(answers).toEqual(['completeSuccess', 'completeSuccess', 'completeSuccess', 'completeSuccess']);
    expect(stale).toMatchObject({ status: 'DONE', lockedBy: null, result: { by: 'A' } });
  });

  it('lets exactly one of each late completion and its takeover apply when a batch races the takeovers', async () => {
    const [a, b] = await h.services(2);
    const items = await claimedItems(a!, 'BATCH_RACE', 'w3-batch-race', 8);
    for (const item of items) await expireLease(item._id);
    const [answers, ...claims] = await Promise.all([
      a!.completeMany({ items: items.map((item) => done(item)) }),
      ...items.map((item) => b!.claim({ workerId: 'B', id: item._id, leaseSeconds: 60 })),
    ]);
    for (const [i, item] of items.entries()) {
      const completion = (answers as Awaited<ReturnType<WorkService['completeMany']>>)[i]!.kind;
      const claim = (claims[i] as { kind: string }).kind;
      const after = await h.service.get(item._id);
      // Whichever write came second matched nothing.
      if (completion === 'completeSuccess')
        expect({ claim, after: { status: after?.status, lockedBy: after?.lockedBy } }).toEqual({
          claim: 'conflictLost',
          after: { status: 'DONE', lockedBy: null },
        });
      else
        expect({ completion, claim, after: { status: after?.status, lockedBy: after?.lockedBy } }).toEqual({
          completion: 'conflictLost',
          claim: 'claimSuccess',
          after: { status: 'PROCESSING', lockedBy: 'B' },
        });
    }
  });
});

describe('W4 per item: completing twice', () => {
  it('answers each item of a repeated batch on its own: the same result replays, another result is refused, a new item applies', async () => {
    const items = await claimedItems(h.service, 'BATCH', 'w4-batch', 3);
    const first = await h.service.completeMany({ items: [done(items[0]!), done(items[1]!)] });
    expect(first.map((a) => a.kind)).toEqual(['completeSuccess', 'completeSuccess']);
    const again = await h.service.completeMany({
      items: [done(items[0]!), done(items[1]!, 'A', { by: 'someone else' }), done(items[2]!)],
    });
    expect(again.map((a) => a.kind)).toEqual(['duplicateReplayed', 'conflictLost', 'completeSuccess']);
    expect(again[0]).toMatchObject({
      original: { kind: 'completeSuccess', item: { status: 'DONE', version: items[0]!.version + 1 } },
    });
    const stored = await h.service.get(items[1]!._id);
    expect(stored).toMatchObject({ status: 'DONE', result: { by: 'A' } });
    expect(stored!.history.filter((step: { to: string }) => step.to === 'DONE')).toHaveLength(1);
  });
});

describe("W5: a batch frees its items' places", () => {
  it('gives back the places of a limited kind in one batch, so the next claims take them', async () => {
    for (let i = 0; i < 4; i++)
      await h.service.create({ kind: 'BATCH_LIMITED', payload: null, idempotencyKey: `w5-batch-${i}`, maxAttempts: 3 });
    const first = await h.service.claimMany({ kinds: ['BATCH_LIMITED'], workerId: 'A', max: 4, leaseSeconds: 30 });
    if (first.kind !== 'claimWorkItemsSuccess') throw new Error(first.kind);
    expect(first.items).toHaveLength(2);
    expect(
      (await h.service.claimMany({ kinds: ['BATCH_LIMITED'], workerId: 'B', max: 4, leaseSeconds: 30 })).kind,
    ).toBe('nothingToClaim');
    const answers = await h.service.completeMany({ items: first.items.map((item) => done(item)) });
    expect(answers.map((a) => a.kind)).toEqual(['completeSuccess', 'completeSuccess']);
    const next = await h.service.claimMany({ kinds: ['BATCH_LIMITED'], workerId: 'B', max: 4, leaseSeconds: 30 });
    expect(next.kind === 'claimWorkItemsSuccess' && next.items).toHaveLength(2);
  });
});
