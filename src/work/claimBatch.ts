import { performance } from 'node:perf_hooks';
import type { ObjectId } from 'mongodb';
import type { WorkDeps } from './workDeps.ts';
import type { ClaimWorkItemsInput } from './inputs.ts';
import { ClaimIndex, PENDING_CLAIM_ORDER, WorkStatus, type WorkItemDoc } from './model.ts';
import { WorkLimits } from './limits.ts';
import * as pipelines from './pipelines.ts';
import { applied } from './conditionalWrite.ts';
import type { ClaimBatchResult } from './results.ts';

// claimWorkItems: up to `max` items in one call. Candidates are read first (index walks, at most
// `max` per kind), then each is claimed by the very precondition of a single claim by id: its
// status (due PENDING, or PROCESSING with an expired lease, on $$NOW) and the version read. A
// candidate another claimer took meanwhile matches nothing: a lost race, counted in
// claim_conflict_total like any ConflictLost, and replaced by a fresh read (bounded rounds).

interface Candidate {
  _id: ObjectId;
  kind: string;
  version: number;
}

const CANDIDATE_FIELDS = { _id: 1, kind: 1, version: 1 } as const;

export async function claimWorkItems(ctx: WorkDeps, input: ClaimWorkItemsInput): Promise<ClaimBatchResult> {
  const startedMs = performance.now();
  const kinds = [...new Set(input.kinds)];
  const items: WorkItemDoc[] = [];
  let conflicts = 0;
  for (let round = 0; round < WorkLimits.claimBatchRoundsMax && items.length < input.max; round++) {
    const candidates = await fairCandidates(ctx, kinds, input.max - items.length);
    if (candidates.length === 0) break;
    const outcomes = await Promise.all(candidates.map((candidate) => claimCandidate(ctx, candidate, input)));
    let lostThisRound = 0;
    for (const outcome of outcomes) {
      if (outcome.kind === 'claimed') items.push(outcome.item);
      else if (outcome.kind === 'lost') lostThisRound++;
    }
    conflicts += lostThisRound;
    // Nothing lost: what was read was all there is (dead letters aside, which a next call sees).
    if (lostThisRound === 0) break;
  }
  const result: ClaimBatchResult =
    items.length === 0 && conflicts === 0 ? { kind: 'nothingToClaim', kinds } : { kind: 'claimWorkItemsSuccess', items, conflicts };
  ctx.telemetry.claimDuration((performance.now() - startedMs) / 1000, result.kind);
  return result;
}

/**
 * W6, fairness: up to `need` candidates of each kind (stalled items first, then due PENDING ones
 * by priority and age), dealt one kind at a time in turn, so every kind with claimable items gets
 * an equal share of the batch. The kind dealt first rotates from call to call (a counter of this
 * service), so that batches of one alternate between kinds too.
 */
async function fairCandidates(ctx: WorkDeps, kinds: readonly string[], need: number): Promise<Candidate[]> {
  const start = ctx.fairness.next(kinds.length);
  const ordered = kinds.map((_, i) => kinds[(start + i) % kinds.length]!);
  const perKind = await Promise.all(ordered.map((kind) => candidatesOfKind(ctx, kind, need)));
  const dealt: Candidate[] = [];
  for (let i = 0; dealt.length < need && perKind.some((list) => i < list.length); i++) {
    for (const list of perKind) {
      if (i < list.length && dealt.length < need) dealt.push(list[i]!);
    }
  }
  return dealt;
}

/** Two index walks on the kind's own ranges (`status_kind_leaseExpiresAt`, `status_kind_priority_availableAt`), each stopping after `need`. */
async function candidatesOfKind(ctx: WorkDeps, kind: string, need: number): Promise<Candidate[]> {
  const expired = await ctx.collection
    .find(ctx.preconditions.claimNextExpired([kind]), { projection: CANDIDATE_FIELDS, hint: { ...ClaimIndex.expiredOfKinds } })
    .sort({ leaseExpiresAt: 1 })
    .limit(need)
    .toArray();
  if (expired.length >= need) return expired;
  const pending = await ctx.collection
    .find(ctx.preconditions.claimNextPending([kind]), { projection: CANDIDATE_FIELDS, hint: { ...ClaimIndex.pendingOfKinds } })
    .sort({ ...PENDING_CLAIM_ORDER })
    .limit(need - expired.length)
    .toArray();
  return [...expired, ...pending];
}

type CandidateOutcome = { kind: 'claimed'; item: WorkItemDoc } | { kind: 'lost' } | { kind: 'deadLettered' };

/** The single claim's write: status, due-ness on $$NOW and the version read are all in the filter. */
async function claimCandidate(ctx: WorkDeps, candidate: Candidate, input: ClaimWorkItemsInput): Promise<CandidateOutcome> {
  const item = await ctx.collection.findOneAndUpdate(
    ctx.preconditions.claimById(candidate._id, candidate.version),
    pipelines.claim(input.workerId, input.leaseSeconds * 1000),
    { returnDocument: 'after' },
  );
  if (item === null) {
    ctx.telemetry.conflict('claim', candidate.kind);
    ctx.telemetry.trace({
      operation: 'claim',
      outcome: 'conflictLost',
      workItemId: candidate._id.toHexString(),
      workerId: input.workerId,
      readStatus: null,
      writeStatus: null,
      version: candidate.version,
    });
    return { kind: 'lost' };
  }
  applied(ctx, 'claim', item, input.workerId);
  return item.status === WorkStatus.FAILED ? { kind: 'deadLettered' } : { kind: 'claimed', item };
}
