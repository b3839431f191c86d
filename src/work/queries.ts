import type { Filter, ObjectId } from 'mongodb';
import type { WorkContext } from './context.ts';
import { Limits, WorkStatus, type WorkItemDoc } from './model.ts';

// Read side of the work service: one item, a page of items, and the queue's shape.

export async function getWorkItem(ctx: WorkContext, id: ObjectId): Promise<WorkItemDoc | null> {
  return ctx.collection.findOne({ _id: id });
}

export interface WorkItemPageQuery {
  status?: WorkStatus | undefined;
  kind?: string | undefined;
  first: number;
  /** The `_id` of the last item of the previous page. */
  after?: ObjectId | undefined;
}

export interface WorkItemPage {
  items: WorkItemDoc[];
  hasNextPage: boolean;
}

/** Keyset pagination on `_id`, so a page never shifts when items change status meanwhile. */
export async function listWorkItems(ctx: WorkContext, query: WorkItemPageQuery): Promise<WorkItemPage> {
  if (query.first < 1 || query.first > Limits.pageSizeMax) {
    throw new RangeError(`first must be between 1 and ${Limits.pageSizeMax}, got ${query.first}`);
  }
  const filter: Filter<WorkItemDoc> = {
    ...(query.status === undefined ? {} : { status: query.status }),
    ...(query.kind === undefined ? {} : { kind: query.kind }),
    ...(query.after === undefined ? {} : { _id: { $gt: query.after } }),
  };
  const found = await ctx.collection.find(filter).sort({ _id: 1 }).limit(query.first + 1).toArray();
  return { items: found.slice(0, query.first), hasNextPage: found.length > query.first };
}

export interface WorkQueueStats {
  counts: { status: WorkStatus; kind: string; count: number }[];
  /** How long the oldest due PENDING item has waited, by the server's clock; null when none. */
  oldestPendingAgeMs: number | null;
  conflictsSinceStart: number;
}

/** Distinct (status, kind) pairs reported; more than this is a misuse of `kind`. */
const STATS_GROUPS_MAX = 1_000;

export async function workQueueStats(ctx: WorkContext): Promise<WorkQueueStats> {
  const [counts, oldest, conflictsSinceStart] = await Promise.all([
    ctx.collection
      .aggregate<{ _id: { status: WorkStatus; kind: string }; count: number }>([
        { $group: { _id: { status: '$status', kind: '$kind' }, count: { $sum: 1 } } },
        { $sort: { '_id.status': 1, '_id.kind': 1 } },
        { $limit: STATS_GROUPS_MAX },
      ])
      .toArray(),
    ctx.collection
      .aggregate<{ ageMs: number }>([
        { $match: { status: WorkStatus.PENDING, $expr: { $lte: ['$availableAt', '$$NOW'] } } },
        { $sort: { availableAt: 1 } },
        { $limit: 1 },
        { $project: { _id: 0, ageMs: { $subtract: ['$$NOW', '$availableAt'] } } },
      ])
      .toArray(),
    ctx.telemetry.conflictsSinceStart(),
  ]);
  return {
    counts: counts.map((c) => ({ status: c._id.status, kind: c._id.kind, count: c.count })),
    oldestPendingAgeMs: oldest[0] === undefined ? null : Number(oldest[0].ageMs),
    conflictsSinceStart,
  };
}
