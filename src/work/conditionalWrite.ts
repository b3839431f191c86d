import type { ObjectId } from 'mongodb';
import { conflictReason, type Presented } from './conflictReason.ts';
import type { WorkDeps } from './workDeps.ts';
import { WorkStatus, type WorkItemDoc } from './model.ts';
import type { ConflictLost, WorkItemNotFound, WorkOperation } from './results.ts';
import { appliedTrace } from './telemetry.ts';
import { annotateActiveSpan, linkActiveSpan } from '../observability/tracing.ts';

// The two ends of every conditional write: it went through, or it matched nothing.

/** Counts and (for claims, completions and requeues) logs a transition the write applied. */
export function applied(ctx: WorkDeps, operation: WorkOperation, item: WorkItemDoc, workerId: string | null): void {
  if (operation === 'heartbeat') return;
  ctx.telemetry.transition(item.previousStatus, item.status);
  if (operation === 'claim' && item.status === WorkStatus.PROCESSING) ctx.telemetry.started(item.kind);
  if (operation === 'complete') ctx.telemetry.completed(item.kind);
  ctx.telemetry.trace(appliedTrace(operation, item, workerId));
  // The request's span (when traced) says what the write expected and what it wrote: every
  // transition bumps the version by one, so the write matched `version - 1`.
  annotateActiveSpan({
    workItemId: item._id.toHexString(),
    'work.operation': operation,
    'work.outcome': 'applied',
    'work.expected.status': item.previousStatus,
    'work.expected.version': item.version - 1,
    'work.written.status': item.status,
    'work.written.version': item.version,
  });
  linkActiveSpan(item.traceparent, 'work item created by');
}

/**
 * The write matched nothing: either the item does not exist, or its state is not the one the
 * caller expected, which is a lost race (counted). The read only explains; it decides nothing.
 */
export async function refused(
  ctx: WorkDeps,
  operation: WorkOperation,
  id: ObjectId,
  workerId: string | null,
  presented: Presented,
  current?: WorkItemDoc | null,
): Promise<ConflictLost | WorkItemNotFound> {
  const found = current === undefined ? await ctx.collection.findOne({ _id: id }) : current;
  const base = { operation, workItemId: id.toHexString(), workerId, writeStatus: null };
  if (found === null) {
    ctx.telemetry.trace({ ...base, outcome: 'workItemNotFound', readStatus: null, version: null });
    return { kind: 'workItemNotFound', id: id.toHexString() };
  }
  ctx.telemetry.conflict(operation, found.kind);
  ctx.telemetry.trace({ ...base, outcome: 'conflictLost', readStatus: found.status, version: found.version });
  // A lost race: what the caller expected, and what the item held instead; nothing was written.
  annotateActiveSpan({
    workItemId: base.workItemId,
    'work.operation': operation,
    'work.outcome': 'conflictLost',
    'work.expected.version': presented.version ?? null,
    'work.found.status': found.status,
    'work.found.version': found.version,
  });
  linkActiveSpan(found.traceparent, 'work item created by');
  return {
    kind: 'conflictLost',
    operation,
    current: found,
    ...conflictReason(operation, found, { ...presented, workerId }),
  };
}
