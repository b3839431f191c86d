import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/waiting.ts';
import { openWorkHarness, type WorkHarness } from './support/harness.ts';

// Failures retry after a backoff while attempts are left, then dead-letter as FAILED; only an
// operator's requeue (at the version they saw) sends a FAILED item back to PENDING.

let h: WorkHarness;
beforeAll(async () => {
  h = await openWorkHarness('retry', { retryBackoffBaseMs: 0 });
});
afterAll(async () => {
  await h.close();
});

async function claimAndFail(id: import('mongodb').ObjectId) {
  const claimed = await h.service.claim({ workerId: 'w', id, leaseSeconds: 30 });
  if (claimed.kind !== 'claimSuccess') throw new Error(`claim: ${claimed.kind}`);
  const failed = await h.service.complete({
    id,
    workerId: 'w',
    version: claimed.item.version,
    outcome: 'FAILED',
    result: { error: 'boom' },
  });
  if (failed.kind !== 'completeSuccess') throw new Error(`complete: ${failed.kind}`);
  return failed.item;
}

describe('retries and the dead letter', () => {
  it('retries while attempts are left, dead-letters at maxAttempts, and requeues only at the seen version', async () => {
    const created = await h.service.create({ kind: 'FLAKY', payload: null, idempotencyKey: 'r-1', maxAttempts: 2 });
    if (created.kind !== 'createWorkItemSuccess') throw new Error(created.kind);
    const id = created.item._id;

    expect(await claimAndFail(id)).toMatchObject({
      status: 'PENDING',
      previousStatus: 'PROCESSING',
      attempts: 1,
      lockedBy: null,
    });
    const dead = await claimAndFail(id);
    expect(dead).toMatchObject({ status: 'FAILED', previousStatus: 'PROCESSING', attempts: 2, version: 5 });
    expect((await h.service.claim({ workerId: 'w', id, leaseSeconds: 30 })).kind).toBe('conflictLost');

    expect((await h.service.requeue({ id, version: dead.version - 1 })).kind).toBe('conflictLost');
    const requeued = await h.service.requeue({ id, version: dead.version });
    expect(requeued).toMatchObject({
      kind: 'requeueSuccess',
      item: { status: 'PENDING', previousStatus: 'FAILED', attempts: 0, version: 6 },
    });
    expect((await h.service.requeue({ id, version: dead.version })).kind).toBe('conflictLost');
  });

  it('keeps a failed item out of reach until its backoff has passed, by the server clock', async () => {
    const [slow] = await h.services(1, { retryBackoffBaseMs: 60_000 });
    const created = await slow!.create({ kind: 'BACKOFF', payload: null, idempotencyKey: 'r-2', maxAttempts: 3 });
    if (created.kind !== 'createWorkItemSuccess') throw new Error(created.kind);
    const claimed = await slow!.claim({ workerId: 'w', id: created.item._id, leaseSeconds: 30 });
    if (claimed.kind !== 'claimSuccess') throw new Error(claimed.kind);
    const failed = await slow!.complete({
      id: created.item._id,
      workerId: 'w',
      version: claimed.item.version,
      outcome: 'FAILED',
      result: null,
    });
    if (failed.kind !== 'completeSuccess') throw new Error(failed.kind);
    const backoffMs = failed.item.availableAt.getTime() - failed.item.updatedAt.getTime();
    expect(Math.abs(backoffMs - 60_000)).toBeLessThan(100);
    expect((await slow!.claim({ workerId: 'w', kinds: ['BACKOFF'], leaseSeconds: 30 })).kind).toBe('nothingToClaim');
    expect((await slow!.claim({ workerId: 'w', id: created.item._id, leaseSeconds: 30 })).kind).toBe('conflictLost');
  });

  it('extends the lease on heartbeat without bumping the version', async () => {
    const created = await h.service.create({ kind: 'LONG', payload: null, idempotencyKey: 'r-3', maxAttempts: 1 });
    if (created.kind !== 'createWorkItemSuccess') throw new Error(created.kind);
    const claimed = await h.service.claim({ workerId: 'w', id: created.item._id, leaseSeconds: 5 });
    if (claimed.kind !== 'claimSuccess') throw new Error(claimed.kind);
    // The heartbeat must come at a later server time than the claim for its expiry to be later:
    // wait until the server's clock has moved past the claim's own $$NOW (expiry minus the lease).
    const pastClaimTime = () =>
      h.db.db
        .collection('workItems')
        .countDocuments({
          _id: created.item._id,
          $expr: { $gt: ['$$NOW', { $subtract: ['$leaseExpiresAt', 5_000] }] },
        });
    await eventually(async () => expect(await pastClaimTime()).toBe(1), { timeout: 10_000, interval: 5 });
    const beat = await h.service.heartbeat({ id: created.item._id, workerId: 'w', version: claimed.item.version });
    if (beat.kind !== 'heartbeatSuccess') throw new Error(beat.kind);
    expect(beat.item.version).toBe(claimed.item.version);
    expect(beat.item.history).toHaveLength(claimed.item.history.length);
    expect(beat.item.leaseExpiresAt!.getTime()).toBeGreaterThan(claimed.item.leaseExpiresAt!.getTime());
    expect(
      (await h.service.heartbeat({ id: created.item._id, workerId: 'intruder', version: claimed.item.version })).kind,
    ).toBe('conflictLost');
  });
});
