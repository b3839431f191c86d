import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Document, ObjectId, Sort } from 'mongodb';
import { conflictReason } from './conflictReason.ts';
import type { WorkDeps } from './workDeps.ts';
import type { ClaimWorkItemInput } from './inputs.ts';
import { ClaimIndex, PENDING_CLAIM_ORDER, WorkStatus } from './model.ts';
import { WorkLimits } from './limits.ts';
import { claimWrite } from './claimWrite.ts';
import { claimBatch, groupsWaiting } from './claimBatch.ts';
import { applied, refused } from './conditionalWrite.ts';
import type { ClaimResult } from './results.ts';

// A claim is one findOneAndUpdate whose filter holds the expected status (and version, when
// given): of N concurrent claimers of one item exactly one matches, the rest get ConflictLost.

export async function claimWorkItem(ctx: WorkDeps, input: ClaimWorkItemInput): Promise<ClaimResult> {
  const startedMs = performance.now();
  // One per call, written with its claim: a rerun after a lost reply finds its own (claimWrite.ts).
  const claimId = randomUUID();
  const result =
    input.id === undefined ? await claimNext(ctx, input, claimId) : await claimById(ctx, input, input.id, claimId);
  ctx.telemetry.claimDuration((performance.now() - startedMs) / 1000, result.kind);
  return result;
}

async function claimById(
  ctx: WorkDeps,
  input: ClaimWorkItemInput,
  id: ObjectId,
  claimId: string,
): Promise<ClaimResult> {
  const [limited, groupLimited] = await Promise.all([ctx.limitedKinds(), ctx.groupLimitedKinds()]);
  const write = await claimWrite(ctx, {
    filter: ctx.preconditions.claimById(id, input.expectedVersion),
    id,
    claimId,
    workerId: input.workerId,
    leaseMs: input.leaseSeconds * 1000,
    limited,
    groupLimited,
  });
  if (write.kind === 'noMatch') return refused(ctx, 'claim', id, input.workerId, { version: input.expectedVersion });
  // W5 (W9): its kind (its group) runs as many items as it may; the item is left as it was.
  if (write.kind === 'kindFull' || write.kind === 'groupFull')
    return { kind: 'nothingToClaim', kinds: [write.itemKind] };
  const item = write.item;
  applied(ctx, 'claim', item, input.workerId);
  // Its lease had expired once too often: this write dead-lettered it instead (pipelines.claim).
  if (item.status === WorkStatus.FAILED)
    return { kind: 'conflictLost', operation: 'claim', current: item, ...conflictReason('claim', item, {}) };
  return { kind: 'claimSuccess', item };
}

/**
 * The oldest available item of `kinds`: first a stalled one (lease expired, oldest expiry
 * first), else a due PENDING one (highest `priority`, then oldest `availableAt` first). Each is an index walk that stops
 * at the first match: on `{status, kind, <sort field>}` when kinds are given (one range per kind,
 * merged in sort order, so a backlog of other kinds is never read), else on `{status, <sort
 * field>}`. The hint keeps a planner from preferring `kind_status`, which constrains as many
 * fields but needs a blocking sort, or the status-led index, which for given kinds would walk
 * every older item of other kinds. The server re-evaluates the filter on the document it
 * modifies, so two claimers never take the same item.
 */
async function claimNext(ctx: WorkDeps, input: ClaimWorkItemInput, claimId: string): Promise<ClaimResult> {
  const ofKinds = input.kinds !== undefined && input.kinds.length > 0;
  // W9: when grouped items of these kinds wait, one claim is claimWorkItems' batch of one, dealt in
  // turns across the groups; a batch that took nothing (lost races, full groups, dead letters)
  // falls through to the walks below, which answer as before.
  if (ofKinds && (await groupsWaiting(ctx, input.kinds!))) {
    const batch = await claimBatch(
      ctx,
      { kinds: input.kinds!, workerId: input.workerId, max: 1, leaseSeconds: input.leaseSeconds },
      claimId,
    );
    if (batch.kind === 'claimWorkItemsSuccess' && batch.items[0] !== undefined)
      return { kind: 'claimSuccess', item: batch.items[0] };
  }
  const walks: { filter: ReturnType<WorkDeps['preconditions']['claimNextPending']>; sort: Sort; hint: Document }[] = [
    {
      filter: ctx.preconditions.claimNextExpired(input.kinds),
      sort: { leaseExpiresAt: 1 },
      hint: { ...(ofKinds ? ClaimIndex.expiredOfKinds : ClaimIndex.expired) },
    },
    {
      filter: ctx.preconditions.claimNextPending(input.kinds),
      sort: { ...PENDING_CLAIM_ORDER },
      hint: { ...(ofKinds ? ClaimIndex.pendingOfKinds : ClaimIndex.pending) },
    },
  ];
  const [limited, groupLimited] = await Promise.all([ctx.limitedKinds(), ctx.groupLimitedKinds()]);
  // W5: kinds found at their limit are left out of the rest of this claim's walks (W9: groups too).
  const full: string[] = [];
  const fullGroups: { kind: string; group: string }[] = [];
  for (const { filter, sort, hint } of walks) {
    // A stalled item out of attempts is dead-lettered by the write that finds it; look further,
    // up to a bound, so that one claim never does unbounded work (nor a walk past full kinds).
    for (let skipped = 0; skipped < WorkLimits.deadLettersPerClaimMax; ) {
      const notFull = [
        filter,
        ...(full.length === 0 ? [] : [{ kind: { $nin: [...full] } }]),
        ...(fullGroups.length === 0 ? [] : [{ $nor: fullGroups.map(({ kind, group }) => ({ kind, group })) }]),
      ];
      const write = await claimWrite(ctx, {
        filter: notFull.length === 1 ? filter : { $and: notFull },
        sort,
        hint,
        claimId,
        workerId: input.workerId,
        leaseMs: input.leaseSeconds * 1000,
        limited,
        groupLimited,
      });
      if (write.kind === 'noMatch') break;
      skipped++;
      if (write.kind === 'kindFull') {
        full.push(write.itemKind);
        continue;
      }
      if (write.kind === 'groupFull') {
        fullGroups.push({ kind: write.itemKind, group: write.group });
        continue;
      }
      applied(ctx, 'claim', write.item, input.workerId);
      if (write.kind === 'claimed') return { kind: 'claimSuccess', item: write.item };
    }
  }
  return { kind: 'nothingToClaim', kinds: input.kinds ?? [] };
}
