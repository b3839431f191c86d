import type { WorkDeps } from './workDeps.ts';
import { WorkStatus, type WorkItemDoc } from './model.ts';
import { ReadLimits } from './limits.ts';
import { ReadIndex } from './queries.ts';

// The work audit, seed 000's second detection method: an item handed out more often than its
// holders completed it was run (at least partly) twice, by a lease takeover or by a lost update
// (two workers that both believed they held it). Read from each item's own stored history,
// which every transition's write appends to itself, over the items changed within a window.

export interface DoubleStart {
  id: string;
  kind: string;
  status: WorkStatus;
  /** Transitions into PROCESSING recorded in the window. */
  starts: number;
  /** Transitions out of PROCESSING by a completion (to DONE, PENDING or FAILED) in the window. */
  completions: number;
}

export interface WorkAuditReport {
  since: Date;
  /** Items changed in the window that were read (at most `auditItemsMax`). */
  itemsRead: number;
  capped: boolean;
  startedMoreThanCompleted: DoubleStart[];
}

/**
 * Items changed since `since` (newest first on `updatedAt_id`), each counted from its history: an
 * item still PROCESSING may be one start ahead (it is running now); any more is a double start.
 */
export async function auditWork(ctx: WorkDeps, since: Date): Promise<WorkAuditReport> {
  const items = await ctx.collection
    .find({ updatedAt: { $gte: since } }, { hint: ReadIndex.recent, projection: { kind: 1, status: 1, history: 1 } })
    .sort({ updatedAt: -1, _id: -1 })
    .limit(ReadLimits.auditItemsMax + 1)
    .toArray();
  const read = items.slice(0, ReadLimits.auditItemsMax);
  const found: DoubleStart[] = [];
  for (const item of read as Pick<WorkItemDoc, '_id' | 'kind' | 'status' | 'history'>[]) {
    const recent = item.history.filter((step) => step.at >= since);
    const starts = recent.filter((step) => step.to === WorkStatus.PROCESSING).length;
    const completions = recent.filter(
      (step) => step.from === WorkStatus.PROCESSING && step.to !== WorkStatus.PROCESSING && step.workerId !== null,
    ).length;
    const running = item.status === WorkStatus.PROCESSING ? 1 : 0;
    if (starts > completions + running)
      found.push({ id: item._id.toHexString(), kind: item.kind, status: item.status, starts, completions });
  }
  return {
    since,
    itemsRead: read.length,
    capped: items.length > ReadLimits.auditItemsMax,
    startedMoreThanCompleted: found,
  };
}
