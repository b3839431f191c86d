import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { ObjectId } from 'mongodb';
import type { WorkDeps } from './workDeps.ts';
import type { ClaimWorkItemsInput } from './inputs.ts';
import { ClaimIndex, PENDING_CLAIM_ORDER, type WorkItemDoc } from './model.ts';
import { WorkLimits } from './limits.ts';
import { claimWrite } from './claimWrite.ts';
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
  const limited = await ctx.limitedKinds();
  // One per call, written with each of its claims: a rerun after a lost reply finds its own (claimWrite.ts).
  const claimId = randomUUID();
  // W5: a kind found at its limit is not read again in this call.
  const full = new Set<string>();
  for (let round = 0; round < WorkLimits.claimBatchRoundsMax && items.length < input.max; round++) {
    const open = kinds.filter((kind) => !full.has(kind));
    const candidates = await fairCandidates(ctx, open, input.max - items.length, limited);
    if (candidates.length === 0) break;
    const outcomes = await claimAll(ctx, candidates, input, limited, claimId);
    let lostThisRound = 0;
    for (const outcome of outcomes) {
      if (outcome.kind === 'claimed') items.push(outcome.item);
      else if (outcome.kind === 'lost') lostThisRound++;
      else if (outcome.kind === 'kindFull') full.add(outcome.itemKind);
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
async function fairCandidates(ctx: WorkDeps, kinds: readonly string[], need: number, limited: ReadonlyMap<string, number>): Promise<Candidate[]> {
  if (kinds.length === 0) return [];
  const start = ctx.fairness.next(kinds.length);
  const ordered = kinds.map((_, i) => kinds[(start + i) % kinds.length]!);
  // A limited kind can never take more than its limit at once: no use reading more candidates.
  const perKind = await Promise.all(ordered.map((kind) => candidatesOfKind(ctx, kind, Math.min(need, limited.get(kind) ?? need))));
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

/**
 * Unlimited kinds' candidates are claimed side by side. A limited kind's are claimed one after
 * the other, stopping at the first that finds the kind full: each takes a place in the kind's one
 * document, so side by side they would only conflict with each other.
 */
async function claimAll(ctx: WorkDeps, candidates: Candidate[], input: ClaimWorkItemsInput, limited: ReadonlyMap<string, number>, claimId: string): Promise<CandidateOutcome[]> {
  const free = candidates.filter((c) => !limited.has(c.kind));
  const byLimitedKind = new Map<string, Candidate[]>();
  for (const c of candidates) if (limited.has(c.kind)) byLimitedKind.set(c.kind, [...(byLimitedKind.get(c.kind) ?? []), c]);
  const inTurn = async (list: Candidate[]) => {
    const outcomes: CandidateOutcome[] = [];
    for (const candidate of list) {
      const outcome = await claimCandidate(ctx, candidate, input, limited, claimId);
      outcomes.push(outcome);
      if (outcome.kind === 'kindFull') break;
    }
    return outcomes;
  };
  const [freeOutcomes, ...limitedOutcomes] = await Promise.all([
    Promise.all(free.map((candidate) => claimCandidate(ctx, candidate, input, limited, claimId))),
    ...[...byLimitedKind.values()].map(inTurn),
  ]);
  return [...freeOutcomes!, ...limitedOutcomes.flat()];
}

type CandidateOutcome = { kind: 'claimed'; item: WorkItemDoc } | { kind: 'lost' } | { kind: 'deadLettered' } | { kind: 'kindFull'; itemKind: string };

/** The single claim's write: status, due-ness on $$NOW and the version read are all in the filter. */
async function claimCandidate(ctx: WorkDeps, candidate: Candidate, input: ClaimWorkItemsInput, limited: ReadonlyMap<string, number>, claimId: string): Promise<CandidateOutcome> {
  const write = await claimWrite(ctx, {
    filter: ctx.preconditions.claimById(candidate._id, candidate.version),
    id: candidate._id,
    claimId,
    workerId: input.workerId,
    leaseMs: input.leaseSeconds * 1000,
    limited,
  });
  if (write.kind === 'kindFull') return write;
  if (write.kind === 'noMatch') {
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
  applied(ctx, 'claim', write.item, input.workerId);
  return write.kind === 'deadLettered' ? { kind: 'deadLettered' } : { kind: 'claimed', item: write.item };
}
