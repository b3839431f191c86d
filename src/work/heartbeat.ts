import type { WorkDeps } from './workDeps.ts';
import type { HeartbeatWorkItemInput } from './inputs.ts';
import * as pipelines from './pipelines.ts';
import { refused } from './conditionalWrite.ts';
import type { HeartbeatResult } from './results.ts';

/**
 * Extends the lease of the holder at its version. A worker whose lease was taken over presents
 * an old version (the fencing token) and matches nothing.
 */
export async function heartbeatWorkItem(ctx: WorkDeps, input: HeartbeatWorkItemInput): Promise<HeartbeatResult> {
  const item = await ctx.collection.findOneAndUpdate(
    ctx.preconditions.heldBy(input.id, input.workerId, input.version),
    pipelines.heartbeat(),
    { returnDocument: 'after' },
  );
  if (item === null) return refused(ctx, 'heartbeat', input.id, input.workerId);
  return { kind: 'heartbeatSuccess', item };
}
