import type { WorkDeps } from './workDeps.ts';
import type { CompleteWorkItemInput } from './inputs.ts';
import * as pipelines from './pipelines.ts';
import { applied, refused } from './conditionalWrite.ts';
import type { CompleteResult } from './results.ts';
import { sameJson } from './sameJson.ts';
import { releasePlace } from './kindLimits.ts';
import { releaseGroupPlace } from './groupLimits.ts';

/**
 * Completion by the lease holder at its version, keyed by `(id, workerId, version)`. When the
 * write matches nothing, the item's `lastCompletion` tells a replay of this very completion
 * (same outcome and result: DuplicateReplayed) from a fenced-off or conflicting one (ConflictLost).
 */
export async function completeWorkItem(ctx: WorkDeps, input: CompleteWorkItemInput): Promise<CompleteResult> {
  const result = input.result ?? null;
  const item = await ctx.collection.findOneAndUpdate(
    ctx.preconditions.heldBy(input.id, input.workerId, input.version),
    pipelines.complete(input.workerId, input.version, input.outcome, result, ctx.retryBackoffBaseMs),
    { returnDocument: 'after' },
  );
  if (item !== null) {
    applied(ctx, 'complete', item, input.workerId);
    // W5: the place is free once the item no longer runs. A crash before this line leaves the
    // place held until the lease it carries expires: late, never too early.
    await releasePlace(ctx.kindLimits, item);
    await releaseGroupPlace(ctx.groupPlaces, item);
    return { kind: 'completeSuccess', item };
  }
  const current = await ctx.collection.findOne({ _id: input.id });
  const prior = current?.lastCompletion;
  const replay =
    current != null &&
    prior != null &&
    prior.workerId === input.workerId &&
    prior.version === input.version &&
    prior.outcome === input.outcome &&
    sameJson(prior.result, result);
  if (!replay) return refused(ctx, 'complete', input.id, input.workerId, { version: input.version }, current);
  return {
    kind: 'duplicateReplayed',
    requestId: `${input.id.toHexString()}:${input.workerId}:${input.version}`,
    firstSeenAt: prior.completedAt,
    // The item as that completion left it (stored by the same write), not as it is now.
    original: { kind: 'completeSuccess', item: current.completionOutcome ? { ...current.completionOutcome, _id: current._id } : current },
  };
}
