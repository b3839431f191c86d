import type { WorkDeps } from './workDeps.ts';
import type { RequeueWorkItemInput } from './inputs.ts';
import * as pipelines from './pipelines.ts';
import { applied, refused } from './conditionalWrite.ts';
import type { RequeueResult } from './results.ts';

/** An operator sends a dead-lettered item back to PENDING, at the version they looked at. */
export async function requeueWorkItem(ctx: WorkDeps, input: RequeueWorkItemInput): Promise<RequeueResult> {
  const item = await ctx.collection.findOneAndUpdate(ctx.preconditions.requeue(input.id, input.version), pipelines.requeue(), {
    returnDocument: 'after',
  });
  if (item === null) return refused(ctx, 'requeue', input.id, null);
  applied(ctx, 'requeue', item, null);
  return { kind: 'requeueSuccess', item };
}
