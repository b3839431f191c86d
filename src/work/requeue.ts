import { randomUUID } from 'node:crypto';
import { acrossElections } from '../db/elections.ts';
import type { WorkDeps } from './workDeps.ts';
import type { RequeueWorkItemInput } from './inputs.ts';
import * as pipelines from './pipelines.ts';
import { applied, refused } from './conditionalWrite.ts';
import type { RequeueResult } from './results.ts';

/**
 * An operator sends a dead-lettered item back to PENDING, at the version they looked at. Rerun
 * through elections (src/db/elections.ts); a rerun of a requeue that applied before its reply was
 * lost matches nothing, and the item's `requeueId`, this call's, tells that requeue from another's (R5).
 */
export async function requeueWorkItem(ctx: WorkDeps, input: RequeueWorkItemInput): Promise<RequeueResult> {
  const requeueId = randomUUID();
  const item = await acrossElections(() =>
    ctx.collection.findOneAndUpdate(ctx.preconditions.requeue(input.id, input.version), pipelines.requeue(requeueId), {
      returnDocument: 'after',
    }),
  );
  if (item !== null) {
    applied(ctx, 'requeue', item, null);
    return { kind: 'requeueSuccess', item };
  }
  const current = await acrossElections(() => ctx.collection.findOne({ _id: input.id }));
  if (current?.requeueId === requeueId) return { kind: 'requeueSuccess', item: current };
  return refused(ctx, 'requeue', input.id, null, { version: input.version }, current);
}
