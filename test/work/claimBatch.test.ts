import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWorkHarness, type WorkHarness } from './support/harness.ts';
import type { WorkService } from '../../src/work/index.ts';

// claimWorkItems at the service: every item of a batch is taken by the single claim's
// status-and-version precondition (W1 across batches), losers are counted, runAt is judged on the
// database clock, priority orders a kind's due items, and kinds share batches fairly (W6).

let h: WorkHarness;
beforeAll(async () => {
  h = await openWorkHarness('claimBatch');
});
afterAll(async () => {
  await h.close();
});

async function createMany(
  service: WorkService,
  kind: string,
  count: number,
  extra: { priority?: number; runAt?: Date } = {},
): Promise<void> {
  for (let i = 0; i < count; i++) {
    const created = await service.create({
      kind,
      payload: { i },
      idempotencyKey: `${kind}-${i}-${extra.priority ?? 0}`,
      maxAttempts: 3,
      ...extra,
    });
    if (created.kind !== 'createWorkItemSuccess') throw new Error(created.kind);
  }
}

/** Claims with `service` until the kinds have nothing left; the ids claimed and the conflicts answered. */
async function drain(
  service: WorkService,
  kinds: string[],
  workerId: string,
  max: number,
): Promise<{ ids: string[]; conflicts: number }> {
  const ids: string[] = [];
  let conflicts = 0;
  for (;;) {
    const result = await service.claimMany({ kinds, workerId, max, leaseSeconds: 60 });
    if (result.kind === 'nothingToClaim') return { ids, conflicts };
    for (const item of result.items) {
      expect(item).toMatchObject({ status: 'PROCESSING', lockedBy: workerId });
      ids.push(item._id.toHexString());
    }
    conflicts += result.conflicts;
  }
}

describe('claimWorkItems', () => {
  it('gives each of 24 items to exactly one of 8 concurrent batch claimers, and counts every lost candidate', async () => {
    await createMany(h.service, 'BATCH', 24);
    const workers = await h.services(8);
    const before = await h.conflicts();
    const runs = await Promise.all(workers.map((w, i) => drain(w, ['BATCH'], `w${i}`, 4)));
    const ids = runs.flatMap((run) => run.ids);
    expect(ids).toHaveLength(24);
    expect(new Set(ids).size).toBe(24);
    const answered = runs.reduce((sum, run) => sum + run.conflicts, 0);
    expect(await h.conflicts()).toBe(before + answered);
  });

  it('answers NothingToClaim for kinds with nothing due', async () => {
    expect(await h.service.claimMany({ kinds: ['EMPTY'], workerId: 'w', max: 4, leaseSeconds: 30 })).toEqual({
      kind: 'nothingToClaim',
      kinds: ['EMPTY'],
    });
  });

  it("takes a kind's due items highest priority first, then oldest first", async () => {
    await createMany(h.service, 'PRIO', 2, { priority: 0 });
    await createMany(h.service, 'PRIO', 2, { priority: 5 });
    await createMany(h.service, 'PRIO', 1, { priority: -3 });
    const batch = await h.service.claimMany({ kinds: ['PRIO'], workerId: 'w', max: 16, leaseSeconds: 30 });
    if (batch.kind !== 'claimWorkItemsSuccess') throw new Error(batch.kind);
    expect(batch.items.map((item) => item.priority)).toEqual([5, 5, 0, 0, -3]);
    await createMany(h.service, 'PRIO1', 1, { priority: 1 });
    await createMany(h.service, 'PRIO1', 1, { priority: 9 });
    const first = await h.service.claim({ workerId: 'w', kinds: ['PRIO1'], leaseSeconds: 30 });
    expect(first).toMatchObject({ kind: 'claimSuccess', item: { priority: 9 } });
  });

  it('does not hand out an item before its runAt, judged by the database clock', async () => {
    const runAt = new Date(Date.now() + 1_500);
    await createMany(h.service, 'LATER', 1, { runAt });
    await createMany(h.service, 'FAR', 1, { runAt: new Date(Date.now() + 3_600_000) });
    expect((await h.service.claimMany({ kinds: ['LATER', 'FAR'], workerId: 'w', max: 4, leaseSeconds: 30 })).kind).toBe(
      'nothingToClaim',
    );
    expect((await h.service.claim({ workerId: 'w', kinds: ['LATER'], leaseSeconds: 30 })).kind).toBe('nothingToClaim');
    let claimed: Awaited<ReturnType<WorkService['claimMany']>> | undefined;
    await expect
      .poll(
        async () =>
          (claimed = await h.service.claimMany({ kinds: ['LATER', 'FAR'], workerId: 'w', max: 4, leaseSeconds: 30 }))
            .kind,
        { timeout: 5_000, interval: 100 },
      )
      .toBe('claimWorkItemsSuccess');
    if (claimed?.kind !== 'claimWorkItemsSuccess') throw new Error('unreachable');
    expect(claimed.items.map((item) => item.kind)).toEqual(['LATER']);
    // The claim's own $$NOW (the history entry it wrote) is at or after runAt.
    expect(claimed.items[0]!.history.at(-1)!.at.getTime()).toBeGreaterThanOrEqual(runAt.getTime());
    expect(claimed.items[0]!.runAt).toEqual(runAt);
  });

  it('W6: shares claims equally between two backlogged kinds, in batches of 1 and of 4', async () => {
    await createMany(h.service, 'FAIR_A', 16);
    await createMany(h.service, 'FAIR_B', 16);
    const counts = { FAIR_A: 0, FAIR_B: 0 } as Record<string, number>;
    for (let i = 0; i < 10; i++) {
      const one = await h.service.claimMany({ kinds: ['FAIR_A', 'FAIR_B'], workerId: 'w', max: 1, leaseSeconds: 30 });
      if (one.kind !== 'claimWorkItemsSuccess') throw new Error(one.kind);
      for (const item of one.items) counts[item.kind]! += 1;
    }
    for (let i = 0; i < 5; i++) {
      const four = await h.service.claimMany({ kinds: ['FAIR_A', 'FAIR_B'], workerId: 'w', max: 4, leaseSeconds: 30 });
      if (four.kind !== 'claimWorkItemsSuccess') throw new Error(four.kind);
      for (const item of four.items) counts[item.kind]! += 1;
    }
    expect(counts.FAIR_A! + counts.FAIR_B!).toBe(30);
    // W6: neither kind more than twice the other's share; the rotation in fact splits it evenly.
    expect(counts.FAIR_A! / counts.FAIR_B!).toBeGreaterThanOrEqual(0.5);
    expect(counts.FAIR_A! / counts.FAIR_B!).toBeLessThanOrEqual(2);
    expect(counts).toEqual({ FAIR_A: 15, FAIR_B: 15 });
  });

  // Last: it drops an index of this file's database.
  it('walks only its indexes: without the kind-led claim index the batch claim is refused, not a scan', async () => {
    await createMany(h.service, 'NOINDEX', 1);
    await h.db.db.collection('workItems').dropIndex('status_kind_priority_availableAt');
    await expect(
      h.service.claimMany({ kinds: ['NOINDEX'], workerId: 'w', max: 1, leaseSeconds: 30 }),
    ).rejects.toMatchObject({ codeName: 'BadValue' });
  });
});
