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
  group?: string;
}

const CANDIDATE_FIELDS = { _id: 1, kind: 1, version: 1, group: 1 } as const;

/** A kind's slot in the rotation of groups (W9): a group, or null for its items without one. */
type Slot = string | null;

export async function claimWorkItems(ctx: WorkDeps, input: ClaimWorkItemsInput): Promise<ClaimBatchResult> {
  const startedMs = performance.now();
  const result = await claimBatch(ctx, input);
  ctx.telemetry.claimDuration((performance.now() - startedMs) / 1000, result.kind);
  return result;
}

/** claimWorkItems without its timing: claimWorkItem's turns across groups take this path too (claim.ts). */
export async function claimBatch(
  ctx: WorkDeps,
  input: ClaimWorkItemsInput,
  claimId: string = randomUUID(),
): Promise<ClaimBatchResult> {
  const kinds = [...new Set(input.kinds)];
  const items: WorkItemDoc[] = [];
  let conflicts = 0;
  const [limited, groupLimited] = await Promise.all([ctx.limitedKinds(), ctx.groupLimitedKinds()]);
  const limits: Limits = { limited, groupLimited };
  // `claimId`: one per call, written with each of its claims: a rerun after a lost reply finds its own (claimWrite.ts).
  // W5: a kind found at its limit is not read again in this call; W9: nor a group found at its.
  const full = new Set<string>();
  const fullGroups = new Map<string, Set<string>>();
  for (let round = 0; round < WorkLimits.claimBatchRoundsMax && items.length < input.max; round++) {
    const open = kinds.filter((kind) => !full.has(kind));
    const candidates = await fairCandidates(ctx, open, input.max - items.length, limited, fullGroups);
    if (candidates.length === 0) break;
    const outcomes = await claimAll(ctx, candidates, input, limits, claimId);
    let lostThisRound = 0;
    let groupsFilled = 0;
    for (const outcome of outcomes) {
      if (outcome.kind === 'claimed') items.push(outcome.item);
      else if (outcome.kind === 'lost') lostThisRound++;
      else if (outcome.kind === 'kindFull') full.add(outcome.itemKind);
      else if (outcome.kind === 'groupFull') {
        fullGroups.set(outcome.itemKind, (fullGroups.get(outcome.itemKind) ?? new Set()).add(outcome.group));
        groupsFilled++;
      }
    }
    conflicts += lostThisRound;
    // Nothing lost and no group found full: what was read was all there is (dead letters aside,
    // which a next call sees). A full group's places go to the other groups' items, read next round.
    if (lostThisRound === 0 && groupsFilled === 0) break;
  }
  return items.length === 0 && conflicts === 0
    ? { kind: 'nothingToClaim', kinds }
    : { kind: 'claimWorkItemsSuccess', items, conflicts };
}

/** Whether any of `kinds` has a due item with a group waiting: one seek on `status_kind_group_priority_availableAt`. */
export async function groupsWaiting(ctx: WorkDeps, kinds: readonly string[]): Promise<boolean> {
  const found = await ctx.collection.findOne(
    { ...ctx.preconditions.claimNextPending(kinds), group: { $gt: '' } },
    { projection: { _id: 1 }, hint: { ...ClaimIndex.pendingOfGroups } },
  );
  return found !== null;
}

/**
 * W6, fairness: up to `need` candidates of each kind (stalled items first, then due PENDING ones
 * by priority and age), dealt one kind at a time in turn, so every kind with claimable items gets
 * an equal share of the batch. The kind dealt first rotates from call to call (a counter of this
 * service), so that batches of one alternate between kinds too.
 */
async function fairCandidates(
  ctx: WorkDeps,
  kinds: readonly string[],
  need: number,
  limited: ReadonlyMap<string, number>,
  fullGroups: ReadonlyMap<string, ReadonlySet<string>>,
): Promise<Candidate[]> {
  if (kinds.length === 0) return [];
  const start = ctx.fairness.next(kinds.length);
  const ordered = kinds.map((_, i) => kinds[(start + i) % kinds.length]!);
  // A limited kind can never take more than its limit at once: no use reading more candidates.
  const perKind = await Promise.all(
    ordered.map((kind) => candidatesOfKind(ctx, kind, Math.min(need, limited.get(kind) ?? need), fullGroups.get(kind))),
  );
  return dealInTurn(perKind, need);
}

/** One from each list in turn, then the second of each, ..., up to `need`. */
function dealInTurn<T>(lists: readonly T[][], need: number): T[] {
  const dealt: T[] = [];
  for (let i = 0; dealt.length < need && lists.some((list) => i < list.length); i++) {
    for (const list of lists) {
      if (i < list.length && dealt.length < need) dealt.push(list[i]!);
    }
  }
  return dealt;
}

/**
 * Stalled items first (`status_kind_leaseExpiresAt`), then due PENDING ones: the kind's own range
 * of `status_kind_priority_availableAt` when none of its waiting items has a group (one seek on
 * `status_kind_group_priority_availableAt` tells), else in turns across its groups (W9).
 */
async function candidatesOfKind(
  ctx: WorkDeps,
  kind: string,
  need: number,
  fullGroups: ReadonlySet<string> | undefined,
): Promise<Candidate[]> {
  const expired = await ctx.collection
    .find(ctx.preconditions.claimNextExpired([kind]), {
      projection: CANDIDATE_FIELDS,
      hint: { ...ClaimIndex.expiredOfKinds },
    })
    .sort({ leaseExpiresAt: 1 })
    .limit(need)
    .toArray();
  if (expired.length >= need) return expired;
  const firstGroup = await headAfter(ctx, kind, '', fullGroups);
  const pending =
    firstGroup === null && (fullGroups === undefined || fullGroups.size === 0)
      ? await ctx.collection
          .find(ctx.preconditions.claimNextPending([kind]), {
            projection: CANDIDATE_FIELDS,
            hint: { ...ClaimIndex.pendingOfKinds },
          })
          .sort({ ...PENDING_CLAIM_ORDER })
          .limit(need - expired.length)
          .toArray()
      : await inGroupTurns(ctx, kind, need - expired.length, firstGroup, fullGroups);
  return [...expired, ...pending];
}

const GROUP_ORDER = { group: 1, ...PENDING_CLAIM_ORDER } as const;

/** The head (highest priority, oldest) of the first group after `after` with a due item: one seek. */
async function headAfter(
  ctx: WorkDeps,
  kind: string,
  after: string,
  fullGroups: ReadonlySet<string> | undefined,
): Promise<Candidate | null> {
  const group =
    fullGroups === undefined || fullGroups.size === 0 ? { $gt: after } : { $gt: after, $nin: [...fullGroups] };
  return ctx.collection.findOne(
    { ...ctx.preconditions.claimNextPending([kind]), group },
    { projection: CANDIDATE_FIELDS, sort: GROUP_ORDER, hint: { ...ClaimIndex.pendingOfGroups } },
  );
}

/** Up to `need` due items of one slot (a group, or the items without one), in claim order. */
async function itemsOfSlot(ctx: WorkDeps, kind: string, slot: Slot, need: number): Promise<Candidate[]> {
  return ctx.collection
    .find(
      { ...ctx.preconditions.claimNextPending([kind]), group: slot as string },
      { projection: CANDIDATE_FIELDS, hint: { ...ClaimIndex.pendingOfGroups } },
    )
    .sort(GROUP_ORDER)
    .limit(need)
    .toArray();
}

/**
 * W9: the kind's waiting items dealt across its slots (its items without a group, then its groups
 * in name order, then round again), starting after the slot this process dealt last, so that a
 * group of 10 waiting behind a group of 1,000 gets every other claim. The next slot is one seek on
 * `status_kind_group_priority_availableAt` (its head), so a call costs at most `need` + 1 seeks,
 * and, when fewer slots than `need` wait, one read per slot for the rest: bounded by the batch,
 * never by the number of groups or items.
 */
async function inGroupTurns(
  ctx: WorkDeps,
  kind: string,
  need: number,
  firstGroup: Candidate | null,
  fullGroups: ReadonlySet<string> | undefined,
): Promise<Candidate[]> {
  const last = ctx.groupTurns.get(kind);
  const heads: Candidate[] = [];
  const ungrouped = async () => (await itemsOfSlot(ctx, kind, null, 1))[0] ?? null;
  const groupsAfter = async (after: string, upTo: string | null) => {
    for (let from = after; heads.length < need; ) {
      const head = from === '' && firstGroup !== null ? firstGroup : await headAfter(ctx, kind, from, fullGroups);
      if (head === null || head.group === undefined || (upTo !== null && head.group > upTo)) return;
      heads.push(head);
      from = head.group;
    }
  };
  if (last === undefined || last === null) {
    // From the start of the round: the items without a group first, unless they were dealt last.
    const none = last === undefined ? await ungrouped() : null;
    if (none !== null) heads.push(none);
    await groupsAfter('', null);
    if (last === null && heads.length < need) {
      const wrapped = await ungrouped();
      if (wrapped !== null) heads.push(wrapped);
    }
  } else {
    await groupsAfter(last, null);
    if (heads.length < need) {
      const none = await ungrouped();
      if (none !== null) heads.push(none);
    }
    if (heads.length < need) await groupsAfter('', last);
  }
  if (heads.length === 0) return [];
  const slotOf = (c: Candidate): Slot => c.group ?? null;
  // Fewer slots than places: each slot gives its share, read in one go, dealt in turn.
  const lists =
    heads.length >= need
      ? heads.map((head) => [head])
      : await Promise.all(heads.map((head) => itemsOfSlot(ctx, kind, slotOf(head), Math.ceil(need / heads.length))));
  const dealt = dealInTurn(lists, need);
  // Empty when other claimers took every slot's items between the seeks and the reads.
  const dealtLast = dealt.at(-1);
  if (dealtLast !== undefined) ctx.groupTurns.set(kind, slotOf(dealtLast));
  return dealt;
}

/**
 * Unlimited kinds' candidates are claimed side by side. A limited kind's are claimed one after
 * the other, stopping at the first that finds the kind full: each takes a place in the kind's one
 * document, so side by side they would only conflict with each other.
 */
async function claimAll(
  ctx: WorkDeps,
  candidates: Candidate[],
  input: ClaimWorkItemsInput,
  limits: Limits,
  claimId: string,
): Promise<CandidateOutcome[]> {
  const { limited, groupLimited } = limits;
  // A limited kind's candidates share its one document; a group-limited kind's grouped ones, their group's.
  const lineOf = (c: Candidate): string | null =>
    limited.has(c.kind) ? c.kind : groupLimited.has(c.kind) && c.group !== undefined ? `${c.kind}:${c.group}` : null;
  const free = candidates.filter((c) => lineOf(c) === null);
  const byLine = new Map<string, Candidate[]>();
  for (const c of candidates) {
    const line = lineOf(c);
    if (line !== null) byLine.set(line, [...(byLine.get(line) ?? []), c]);
  }
  const inTurn = async (list: Candidate[]) => {
    const outcomes: CandidateOutcome[] = [];
    for (const candidate of list) {
      const outcome = await claimCandidate(ctx, candidate, input, limits, claimId);
      outcomes.push(outcome);
      if (outcome.kind === 'kindFull' || outcome.kind === 'groupFull') break;
    }
    return outcomes;
  };
  const [freeOutcomes, ...limitedOutcomes] = await Promise.all([
    Promise.all(free.map((candidate) => claimCandidate(ctx, candidate, input, limits, claimId))),
    ...[...byLine.values()].map(inTurn),
  ]);
  return [...freeOutcomes!, ...limitedOutcomes.flat()];
}

interface Limits {
  limited: ReadonlyMap<string, number>;
  groupLimited: ReadonlyMap<string, number>;
}

type CandidateOutcome =
  | { kind: 'claimed'; item: WorkItemDoc }
  | { kind: 'lost' }
  | { kind: 'deadLettered' }
  | { kind: 'kindFull'; itemKind: string }
  | { kind: 'groupFull'; itemKind: string; group: string };

/** The single claim's write: status, due-ness on $$NOW and the version read are all in the filter. */
async function claimCandidate(
  ctx: WorkDeps,
  candidate: Candidate,
  input: ClaimWorkItemsInput,
  limits: Limits,
  claimId: string,
): Promise<CandidateOutcome> {
  const write = await claimWrite(ctx, {
    filter: ctx.preconditions.claimById(candidate._id, candidate.version),
    id: candidate._id,
    claimId,
    workerId: input.workerId,
    leaseMs: input.leaseSeconds * 1000,
    limited: limits.limited,
    groupLimited: limits.groupLimited,
  });
  if (write.kind === 'kindFull' || write.kind === 'groupFull') return write;
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
