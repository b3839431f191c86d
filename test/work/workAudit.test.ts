import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWorkHarness, type WorkHarness } from './support/harness.ts';
import { readThenWrite } from './support/readThenWrite.ts';
import type { WorkAuditReport } from '../../src/work/workAudit.ts';
import type { WorkService } from '../../src/work/index.ts';

// Seed 000's second detection method: items started more often than completed. The work audit
// reads it from each item's history, work_started_total and work_completed_total from the
// counters. The meta-test runs seed 000's lost-update race with workers whose every write is a
// find-then-save (read the item under the precondition, then write by _id): the audit and the
// counters must both see an item started twice; with the real conditional writes, neither does.

let h: WorkHarness;
beforeAll(async () => {
  h = await openWorkHarness('workAudit');
});
afterAll(async () => {
  await h.close();
});

async function counter(name: string, kind: string): Promise<number> {
  const metric = h.registry.getSingleMetric(name);
  const values = metric === undefined ? [] : (await metric.get()).values;
  return values.filter((v) => v.labels['kind'] === kind).reduce((sum, v) => sum + v.value, 0);
}

function expectNoDoubleStart(report: WorkAuditReport, kind: string): void {
  expect(report.startedMoreThanCompleted.filter((found) => found.kind === kind)).toEqual([]);
}

/** Eight workers claim one item at once and each then completes it if it thinks it holds it. */
async function race(workers: WorkService[], kind: string, round = 1): Promise<void> {
  const created = await h.service.create({ kind, payload: null, idempotencyKey: `${kind}-${round}`, maxAttempts: 5 });
  if (created.kind !== 'createWorkItemSuccess') throw new Error(created.kind);
  const id = created.item._id;
  await Promise.all(
    workers.map(async (worker, i) => {
      const claimed = await worker.claim({ workerId: `w${i}`, id, leaseSeconds: 30 });
      if (claimed.kind === 'claimSuccess')
        await worker.complete({ id, workerId: `w${i}`, version: claimed.item.version, outcome: 'DONE' });
    }),
  );
}

describe('work audit: items started more often than completed', () => {
  it('finds an item whose lease was taken over (started twice, completed once), and not a clean one', async () => {
    const since = new Date(Date.now() - 1_000);
    const clean = await h.service.create({
      kind: 'AUDIT_CLEAN',
      payload: null,
      idempotencyKey: 'clean',
      maxAttempts: 3,
    });
    const twice = await h.service.create({
      kind: 'AUDIT_TAKEOVER',
      payload: null,
      idempotencyKey: 'twice',
      maxAttempts: 3,
    });
    if (clean.kind !== 'createWorkItemSuccess' || twice.kind !== 'createWorkItemSuccess') throw new Error('setup');
    const a = await h.service.claim({ workerId: 'a', id: clean.item._id, leaseSeconds: 30 });
    if (a.kind !== 'claimSuccess') throw new Error(a.kind);
    await h.service.complete({ id: clean.item._id, workerId: 'a', version: a.item.version, outcome: 'DONE' });
    expect((await h.service.claim({ workerId: 'slow', id: twice.item._id, leaseSeconds: 1 })).kind).toBe(
      'claimSuccess',
    );
    let taken: Awaited<ReturnType<WorkService['claim']>> | undefined;
    await expect
      .poll(async () => (taken = await h.service.claim({ workerId: 'b', id: twice.item._id, leaseSeconds: 30 })).kind, {
        timeout: 5_000,
        interval: 100,
      })
      .toBe('claimSuccess');
    if (taken?.kind !== 'claimSuccess') throw new Error('unreachable');
    await h.service.complete({ id: twice.item._id, workerId: 'b', version: taken.item.version, outcome: 'DONE' });

    const report = await h.service.audit(since);
    expect(report.startedMoreThanCompleted).toEqual([
      { id: twice.item._id.toHexString(), kind: 'AUDIT_TAKEOVER', status: 'DONE', starts: 2, completions: 1 },
    ]);
    expect(await counter('work_started_total', 'AUDIT_TAKEOVER')).toBe(2);
    expect(await counter('work_completed_total', 'AUDIT_TAKEOVER')).toBe(1);
    expect(await counter('work_started_total', 'AUDIT_CLEAN')).toBe(1);
    expect(await counter('work_completed_total', 'AUDIT_CLEAN')).toBe(1);
  });

  it('does not count an item running now as a double start', async () => {
    const since = new Date(Date.now() - 1_000);
    const running = await h.service.create({
      kind: 'AUDIT_RUNNING',
      payload: null,
      idempotencyKey: 'running',
      maxAttempts: 3,
    });
    if (running.kind !== 'createWorkItemSuccess') throw new Error('setup');
    expect((await h.service.claim({ workerId: 'a', id: running.item._id, leaseSeconds: 30 })).kind).toBe(
      'claimSuccess',
    );
    expectNoDoubleStart(await h.service.audit(since), 'AUDIT_RUNNING');
  });

  it("meta: seed 000's race with find-then-save workers is caught by the audit and the counters; the real service passes", async () => {
    const since = new Date(Date.now() - 1_000);
    const real = await h.services(8);
    for (let round = 1; round <= 3; round++) await race(real, 'SEED000_REAL', round);
    expectNoDoubleStart(await h.service.audit(since), 'SEED000_REAL');
    expect(await counter('work_started_total', 'SEED000_REAL')).toBe(
      await counter('work_completed_total', 'SEED000_REAL'),
    );

    // A race needs two reads before either write: on a busy machine a round may serialize, so
    // up to 5 rounds, each on a fresh item, until one overlaps.
    const findThenSave = await h.services(8, {}, readThenWrite);
    let report = await h.service.audit(since);
    for (
      let round = 1;
      round <= 5 && report.startedMoreThanCompleted.every((found) => found.kind !== 'SEED000_FIND_THEN_SAVE');
      round++
    ) {
      await race(findThenSave, 'SEED000_FIND_THEN_SAVE', round);
      report = await h.service.audit(since);
    }
    expect(() => expectNoDoubleStart(report, 'SEED000_FIND_THEN_SAVE')).toThrow();
    expect(await counter('work_started_total', 'SEED000_FIND_THEN_SAVE')).toBeGreaterThan(
      await counter('work_completed_total', 'SEED000_FIND_THEN_SAVE'),
    );
  });
});
