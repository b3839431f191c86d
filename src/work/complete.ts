import { acrossElections } from '../db/elections.ts';
import type { WorkDeps } from './workDeps.ts';
import type { WorkItemDoc } from './model.ts';
import type { CompleteWorkItemInput, CompleteWorkItemsInput } from './inputs.ts';
import * as pipelines from './pipelines.ts';
import { applied, refused } from './conditionalWrite.ts';
import type { CompleteResult } from './results.ts';
import { sameJson } from './sameJson.ts';
import { releasePlaces } from './kindLimits.ts';
import { releaseGroupPlaces } from './groupLimits.ts';

/**
 * Completion by the lease holder at its version, keyed by `(id, workerId, version)`. When the
 * write matches nothing, the item's `lastCompletion` tells a replay of this very completion
 * (same outcome and result: DuplicateReplayed) from a fenced-off or conflicting one (ConflictLost).
 */
export async function completeWorkItem(ctx: WorkDeps, input: CompleteWorkItemInput): Promise<CompleteResult> {
  const answer = await completeWrite(ctx, input);
  if (answer.kind === 'completeSuccess') await releaseItemPlaces(ctx, [answer.item]);
  return answer;
}

/**
 * A batch of completions: each item is the single completion's write, under its own fence (W3)
 * and its own key (W4), sent side by side and each rerun through elections on its own, so one
 * item's stale lease or lost race never touches another's. What a batch shares is the release of
 * the places its completed items held (W5, W9): one write per collection instead of one per item.
 */
export async function completeWorkItems(ctx: WorkDeps, input: CompleteWorkItemsInput): Promise<CompleteResult[]> {
  // Every item settles before the call answers or fails: none is left rerunning behind an error.
  const answers = await allSettledOrThrow(input.items.map((item) => acrossElections(() => completeWrite(ctx, item))));
  const freed = answers.flatMap((answer) => (answer.kind === 'completeSuccess' ? [answer.item] : []));
  // Rerun as a whole: a $pull of places already pulled pulls nothing.
  await acrossElections(() => releaseItemPlaces(ctx, freed));
  return answers;
}

/** W5 and W9: a place is free once its item no longer runs. A crash before this leaves the place held until the lease it carries expires: late, never too early. */
async function releaseItemPlaces(ctx: WorkDeps, items: readonly WorkItemDoc[]): Promise<void> {
  await Promise.all([releasePlaces(ctx.kindLimits, items), releaseGroupPlaces(ctx.groupPlaces, items)]);
}

/** The fenced write of one completion, and its answer when it matched nothing. */
async function completeWrite(ctx: WorkDeps, input: CompleteWorkItemInput): Promise<CompleteResult> {
  const result = input.result ?? null;
  const item = await ctx.collection.findOneAndUpdate(
    ctx.preconditions.heldBy(input.id, input.workerId, input.version),
    pipelines.complete(input.workerId, input.version, input.outcome, result, ctx.retryBackoffBaseMs),
    { returnDocument: 'after' },
  );
  if (item !== null) {
    applied(ctx, 'complete', item, input.workerId);
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
    original: {
      kind: 'completeSuccess',
      item: current.completionOutcome ? { ...current.completionOutcome, _id: current._id } : current,
    },
  };
}

/** Promise.all that waits for every promise before rethrowing the first failure. */
async function allSettledOrThrow<T>(promises: Array<Promise<T>>): Promise<T[]> {
  const settled = await Promise.allSettled(promises);
  const failed = settled.find((outcome) => outcome.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((outcome) => (outcome as PromiseFulfilledResult<T>).value);
}
