import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWorkHarness, type WorkHarness } from './support/harness.ts';

// W4: a completion is keyed by (id, workerId, version). Replaying it with the same outcome and
// result answers DuplicateReplayed with the original success; any other result is ConflictLost.

let h: WorkHarness;
beforeAll(async () => {
  h = await openWorkHarness('completeReplay');
});
afterAll(async () => {
  await h.close();
});

async function claimedItem(key: string) {
  const created = await h.service.create({ kind: 'REPLAY', payload: { key }, idempotencyKey: key, maxAttempts: 3 });
  if (created.kind !== 'createWorkItemSuccess') throw new Error(created.kind);
  const claimed = await h.service.claim({ workerId: 'w', id: created.item._id, leaseSeconds: 30 });
  if (claimed.kind !== 'claimSuccess') throw new Error(claimed.kind);
  return claimed.item;
}

describe('W4: replayed completions', () => {
  it('answers DuplicateReplayed for the same result and ConflictLost for another, changing nothing', async () => {
    const item = await claimedItem('w4-1');
    const done = {
      id: item._id,
      workerId: 'w',
      version: item.version,
      outcome: 'DONE' as const,
      result: { paid: 12, ref: 'x' },
    };
    const first = await h.service.complete(done);
    expect(first).toMatchObject({ kind: 'completeSuccess', item: { status: 'DONE', version: item.version + 1 } });

    const replay = await h.service.complete({ ...done, result: { ref: 'x', paid: 12 } });
    expect(replay).toMatchObject({
      kind: 'duplicateReplayed',
      requestId: `${item._id.toHexString()}:w:${item.version}`,
      original: { kind: 'completeSuccess', item: { status: 'DONE', version: item.version + 1 } },
    });

    const conflictsBefore = await h.conflicts();
    const other = await h.service.complete({ ...done, result: { paid: 13, ref: 'x' } });
    expect(other.kind).toBe('conflictLost');
    expect(await h.conflicts()).toBe(conflictsBefore + 1);

    const after = await h.service.get(item._id);
    expect(after).toMatchObject({ status: 'DONE', version: item.version + 1, result: { paid: 12, ref: 'x' } });
  });

  it('treats the same result with another outcome as a conflict', async () => {
    const item = await claimedItem('w4-2');
    const done = { id: item._id, workerId: 'w', version: item.version, outcome: 'DONE' as const, result: null };
    expect((await h.service.complete(done)).kind).toBe('completeSuccess');
    expect((await h.service.complete({ ...done, outcome: 'FAILED' })).kind).toBe('conflictLost');
  });

  it('replays concurrently: one completion applies, every other same-result replay is DuplicateReplayed', async () => {
    const item = await claimedItem('w4-3');
    const done = { id: item._id, workerId: 'w', version: item.version, outcome: 'DONE' as const, result: { ok: true } };
    const workers = await h.services(8);
    const results = await Promise.all(workers.map((worker) => worker.complete(done)));
    const kinds = results.map((r) => r.kind).sort();
    expect(kinds).toEqual(['completeSuccess', ...Array<string>(7).fill('duplicateReplayed')]);
  });
});
