import { ObjectId, type Filter } from 'mongodb';
import type { ReadOptions } from '../db/readOptions.ts';
import type { WorkDeps } from './workDeps.ts';
import { KeyNamespace, WORK_STATUSES, WorkStatus, namespacedKey, type WorkItemDoc } from './model.ts';
import { ReadLimits, WorkLimits } from './limits.ts';
import { limitsOf } from './kindLimits.ts';
import { groupLimitsOf } from './groupLimits.ts';

// Read side of the work service: one item, a page of items, and the queue's shape. Every list
// and count names the index it walks (a hint), so a missing index is a refused query, never a
// silent collection scan; `session` carries a causally consistent session (read-your-writes).

/** The indexes the reads walk (created with the claim's, see WORK_ITEM_INDEXES). */
export const ReadIndex = Object.freeze({
  key: 'idempotencyKey_unique',
  byStatus: 'status_id',
  byKindStatus: 'kind_status_id',
  kindStatus: 'kind_status',
  pending: 'status_availableAt',
  pendingOfKind: 'status_kind_priority_availableAt',
  pendingOfGroups: 'status_kind_group_priority_availableAt',
  recent: 'updatedAt_id',
});

export async function getWorkItem(ctx: WorkDeps, id: ObjectId, options: ReadOptions = {}): Promise<WorkItemDoc | null> {
  return ctx.collection.findOne({ _id: id }, { session: options.session });
}

/**
 * The item a client created under `idempotencyKey` (its own key, not namespaced); failing that, a
 * scheduled item named by its whole key (`schedule:<name>:<period start ISO>`, as stored).
 */
export async function workItemByKey(
  ctx: WorkDeps,
  idempotencyKey: string,
  options: ReadOptions = {},
): Promise<WorkItemDoc | null> {
  const own = await ctx.collection.findOne(
    { idempotencyKey: namespacedKey(KeyNamespace.CLIENT, idempotencyKey) },
    { hint: ReadIndex.key, session: options.session },
  );
  if (own !== null || !idempotencyKey.startsWith(`${KeyNamespace.SCHEDULE}:`)) return own;
  return ctx.collection.findOne({ idempotencyKey }, { hint: ReadIndex.key, session: options.session });
}

/** The PAYOUT item the projection made for a withdrawal entry, if it has been made. */
export async function payoutFor(
  ctx: WorkDeps,
  entryId: string,
  options: ReadOptions = {},
): Promise<WorkItemDoc | null> {
  return ctx.collection.findOne(
    { idempotencyKey: namespacedKey(KeyNamespace.PAYOUT, entryId) },
    { hint: ReadIndex.key, session: options.session },
  );
}

export interface WorkItemPageQuery {
  status?: WorkStatus | undefined;
  kind?: string | undefined;
  /** Inclusive lower bound of `createdAt`. */
  createdFrom?: Date | undefined;
  /** Exclusive upper bound of `createdAt`. */
  createdTo?: Date | undefined;
  /** A client idempotency key (not namespaced): at most one item. */
  key?: string | undefined;
  first: number;
  /** The `_id` of the last item of the previous page. */
  after?: ObjectId | undefined;
}

export interface WorkItemPage {
  items: WorkItemDoc[];
  hasNextPage: boolean;
  /** Matching items, counted up to `itemsCountMax`; counted only when asked, once. */
  count(): Promise<{ totalCount: number; totalCountCapped: boolean }>;
}

// An upsert's _id is made by the server at creation, so its seconds bound `createdAt` (a second
// of slack on each side); the exact bound is applied to `createdAt` itself.
const idAtOrAfter = (at: Date) => ObjectId.createFromTime(Math.max(0, Math.floor(at.getTime() / 1000) - 1));
const idBefore = (at: Date) => ObjectId.createFromTime(Math.floor(at.getTime() / 1000) + 2);

function itemsFilter(query: Omit<WorkItemPageQuery, 'first' | 'after'>): { filter: Filter<WorkItemDoc>; hint: string } {
  const id: { $gte?: ObjectId; $lt?: ObjectId } = {};
  const createdAt: { $gte?: Date; $lt?: Date } = {};
  if (query.createdFrom) [id.$gte, createdAt.$gte] = [idAtOrAfter(query.createdFrom), query.createdFrom];
  if (query.createdTo) [id.$lt, createdAt.$lt] = [idBefore(query.createdTo), query.createdTo];
  const filter: Filter<WorkItemDoc> = {
    ...(query.key === undefined ? {} : { idempotencyKey: namespacedKey(KeyNamespace.CLIENT, query.key) }),
    ...(query.kind === undefined ? {} : { kind: query.kind }),
    // Always bounded, so the status-led indexes serve "any status" as four merged ranges.
    status: query.status === undefined ? { $in: [...WORK_STATUSES] } : query.status,
    ...(Object.keys(id).length > 0 ? { _id: id } : {}),
    ...(Object.keys(createdAt).length > 0 ? { createdAt } : {}),
  };
  const hint =
    query.key !== undefined ? ReadIndex.key : query.kind !== undefined ? ReadIndex.byKindStatus : ReadIndex.byStatus;
  return { filter, hint };
}

/** Keyset pagination on `_id` (creation order), so a page never shifts when items change status meanwhile. */
export async function listWorkItems(
  ctx: WorkDeps,
  query: WorkItemPageQuery,
  options: ReadOptions = {},
): Promise<WorkItemPage> {
  if (query.first < 1 || query.first > WorkLimits.pageSizeMax) {
    throw new RangeError(`first must be between 1 and ${WorkLimits.pageSizeMax}, got ${query.first}`);
  }
  const { filter, hint } = itemsFilter(query);
  const page: Filter<WorkItemDoc> =
    query.after === undefined ? filter : { $and: [filter, { _id: { $gt: query.after } }] };
  const found = await ctx.collection
    .find(page, { hint, session: options.session })
    .sort({ _id: 1 })
    .limit(query.first + 1)
    .toArray();
  let counted: Promise<{ totalCount: number; totalCountCapped: boolean }> | null = null;
  return {
    items: found.slice(0, query.first),
    hasNextPage: found.length > query.first,
    count: () =>
      (counted ??= (async () => {
        // The `count` command: on mongod a limited count over an index is a COUNT_SCAN.
        const total = await ctx.collection.count(filter, {
          hint,
          limit: ReadLimits.itemsCountMax + 1,
          session: options.session,
        });
        return {
          totalCount: Math.min(total, ReadLimits.itemsCountMax),
          totalCountCapped: total > ReadLimits.itemsCountMax,
        };
      })()),
  };
}

export interface WorkQueueStats {
  counts: { status: WorkStatus; kind: string; count: number; capped: boolean }[];
  /** How long the oldest due PENDING item has waited, by the server's clock; null when none. */
  oldestPendingAgeMs: number | null;
  conflictsSinceStart: number;
  /** Per kind: due PENDING (waiting), PENDING before their `availableAt` (delayed), PROCESSING (running), and its W5 limit. */
  kinds: KindStats[];
  /** Per group of each kind with waiting or running items (W9), at most `statsGroupsMax` per kind. */
  groups: GroupStats[];
}

export interface GroupStats {
  kind: string;
  group: string;
  waiting: number;
  running: number;
  capped: boolean;
  /** WORK_GROUP_LIMITS for the kind; null when unlimited. */
  limit: number | null;
}

export interface KindStats {
  kind: string;
  waiting: number;
  delayed: number;
  running: number;
  /** Any of the three counts stopped at `statsCountMax`. */
  capped: boolean;
  /** WORK_KIND_LIMITS for the kind; null when unlimited. */
  limit: number | null;
}

/**
 * The queue's shape from index walks alone, never a `$group` over the collection: the kinds by
 * a skip scan over `kind_status` (one seek per kind), then one limited count per (kind, status)
 * on that index, so a call costs at most kinds × statuses × statsCountMax index keys however
 * many items the collection holds. The oldest due item is the first of `status_availableAt`.
 */
export async function workQueueStats(ctx: WorkDeps, options: ReadOptions = {}): Promise<WorkQueueStats> {
  const [kinds, oldest, conflictsSinceStart, limits, groupLimits] = await Promise.all([
    distinctKinds(ctx, options),
    oldestPendingAgeMs(ctx, options),
    ctx.telemetry.conflictsSinceStart(),
    limitsOf(ctx.kindLimits, options.session),
    groupLimitsOf(ctx.groupLimits, options.session),
  ]);
  const counts = await Promise.all(
    kinds.flatMap((kind) =>
      WORK_STATUSES.map(async (status) => {
        const n = await ctx.collection.count(
          { kind, status },
          { hint: ReadIndex.kindStatus, limit: ReadLimits.statsCountMax + 1, session: options.session },
        );
        return { status, kind, count: Math.min(n, ReadLimits.statsCountMax), capped: n > ReadLimits.statsCountMax };
      }),
    ),
  );
  const perKind = await Promise.all(kinds.map((kind) => kindStats(ctx, kind, limits.get(kind) ?? null, options)));
  const perGroup = (
    await Promise.all(kinds.map((kind) => groupStatsOfKind(ctx, kind, groupLimits.get(kind) ?? null, options)))
  ).flat();
  return {
    counts: counts
      .filter(({ count }) => count > 0)
      .sort((p, q) => p.status.localeCompare(q.status) || p.kind.localeCompare(q.kind)),
    oldestPendingAgeMs: oldest,
    conflictsSinceStart,
    kinds: perKind.filter((k) => k.waiting + k.delayed + k.running > 0),
    groups: perGroup.filter((g) => g.waiting + g.running > 0),
  };
}

/**
 * A kind's groups with PENDING or PROCESSING items, by a skip scan of `status_kind_group_...`
 * (one seek per group and status, at most `statsGroupsMax`), each counted on the same index.
 */
async function groupStatsOfKind(
  ctx: WorkDeps,
  kind: string,
  limit: number | null,
  options: ReadOptions,
): Promise<GroupStats[]> {
  const groups = new Set<string>();
  for (const status of [WorkStatus.PENDING, WorkStatus.PROCESSING]) {
    for (let last = ''; groups.size < ReadLimits.statsGroupsMax; ) {
      const next = await ctx.collection.findOne(
        { status, kind, group: { $gt: last } },
        {
          sort: { group: 1 },
          projection: { _id: 0, group: 1 },
          hint: ReadIndex.pendingOfGroups,
          session: options.session,
        },
      );
      if (next?.group === undefined) break;
      groups.add(next.group);
      last = next.group;
    }
  }
  const countOf = async (filter: Filter<WorkItemDoc>) => {
    const n = await ctx.collection.count(filter, {
      hint: ReadIndex.pendingOfGroups,
      limit: ReadLimits.statsCountMax + 1,
      session: options.session,
    });
    return { n: Math.min(n, ReadLimits.statsCountMax), capped: n > ReadLimits.statsCountMax };
  };
  return Promise.all(
    [...groups].sort().map(async (group) => {
      const [waiting, running] = await Promise.all([
        countOf({ status: WorkStatus.PENDING, kind, group, $expr: { $lte: ['$availableAt', '$$NOW'] } }),
        countOf({ status: WorkStatus.PROCESSING, kind, group }),
      ]);
      return { kind, group, waiting: waiting.n, running: running.n, capped: waiting.capped || running.capped, limit };
    }),
  );
}

/**
 * A kind's waiting and delayed items split on the database clock ($$NOW, as claims judge them),
 * each a limited count on the kind's PENDING range of the claim index; running on `kind_status`.
 */
async function kindStats(ctx: WorkDeps, kind: string, limit: number | null, options: ReadOptions): Promise<KindStats> {
  const countOf = async (filter: Filter<WorkItemDoc>, hint: string) => {
    const n = await ctx.collection.count(filter, {
      hint,
      limit: ReadLimits.statsCountMax + 1,
      session: options.session,
    });
    return { n: Math.min(n, ReadLimits.statsCountMax), capped: n > ReadLimits.statsCountMax };
  };
  const [waiting, delayed, running] = await Promise.all([
    countOf({ status: WorkStatus.PENDING, kind, $expr: { $lte: ['$availableAt', '$$NOW'] } }, ReadIndex.pendingOfKind),
    countOf({ status: WorkStatus.PENDING, kind, $expr: { $gt: ['$availableAt', '$$NOW'] } }, ReadIndex.pendingOfKind),
    countOf({ kind, status: WorkStatus.PROCESSING }, ReadIndex.kindStatus),
  ]);
  return {
    kind,
    waiting: waiting.n,
    delayed: delayed.n,
    running: running.n,
    capped: waiting.capped || delayed.capped || running.capped,
    limit,
  };
}

async function distinctKinds(ctx: WorkDeps, options: ReadOptions): Promise<string[]> {
  const kinds: string[] = [];
  while (kinds.length < ReadLimits.statsKindsMax) {
    const last = kinds.at(-1);
    const next = await ctx.collection.findOne(last === undefined ? {} : { kind: { $gt: last } }, {
      sort: { kind: 1 },
      projection: { _id: 0, kind: 1 },
      hint: ReadIndex.kindStatus,
      session: options.session,
    });
    if (next === null) break;
    kinds.push(next.kind);
  }
  return kinds;
}

async function oldestPendingAgeMs(ctx: WorkDeps, options: ReadOptions): Promise<number | null> {
  // The smallest availableAt among PENDING items: if even it is not due, none is.
  const first = await ctx.collection.findOne(
    { status: WorkStatus.PENDING },
    {
      sort: { availableAt: 1 },
      projection: { _id: 0, ageMs: { $subtract: ['$$NOW', '$availableAt'] } },
      hint: ReadIndex.pending,
      session: options.session,
    },
  );
  const ageMs = first === null ? null : Number((first as unknown as { ageMs: unknown }).ageMs);
  return ageMs === null || !Number.isFinite(ageMs) || ageMs < 0 ? null : ageMs;
}

/** The items changed last, newest first: a walk of `updatedAt_id` that stops after `first`. */
export async function recentWorkItems(ctx: WorkDeps, first: number, options: ReadOptions = {}): Promise<WorkItemDoc[]> {
  return ctx.collection
    .find({}, { hint: ReadIndex.recent, session: options.session })
    .sort({ updatedAt: -1, _id: -1 })
    .limit(first)
    .toArray();
}
