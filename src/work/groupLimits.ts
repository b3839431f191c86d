import type { ClientSession, Collection, Db, Document, ObjectId } from 'mongodb';
import { cachedLimits, limitsOf, type KindLimitDoc } from './kindLimits.ts';
import type { WorkItemDoc } from './model.ts';

// W9, per-group concurrency limits across every API process, by W5's mechanism (kindLimits.ts):
// a kind with a group limit (WORK_GROUP_LIMITS=KIND=n) has one document per group with running
// items in `work_group_places`, holding its items' places with their leases. A claim of a grouped
// item of such a kind takes a place in its group's document in the claim's own transaction, by an
// update whose filter says "fewer live holders than n"; no place, no claim. Nothing is counted in
// memory: two processes cannot both take a group's last place, one of the two writes conflicts.
//
// A group's document is made the first time one of its items is claimed. Not by an upsert of the
// place-taking write itself: mongod refuses `$expr` in an upsert's query (QueryFeatureNotAllowed,
// "$expr is not allowed in the query predicate for an upsert": src/mongo/db/ops/parsed_update.cpp,
// and its test in jstests/core/expr.js). The emulator accepts it, so only mongod would tell.
// So when the conditional write matches nothing, a plain upsert of the bare document tells a new
// group (it inserts: take the place again) from a full one (it finds the document: no place).

export const WORK_GROUP_LIMITS_COLLECTION = 'work_group_limits';
export const WORK_GROUP_PLACES_COLLECTION = 'work_group_places';

export interface GroupPlaceDoc {
  /** `<kind>:<group>` (a kind never holds a colon). */
  _id: string;
  kind: string;
  group: string;
  running: { itemId: ObjectId; leaseExpiresAt: Date }[];
}

export function groupLimits(db: Db): Collection<KindLimitDoc> {
  return db.collection<KindLimitDoc>(WORK_GROUP_LIMITS_COLLECTION);
}

export function groupPlaces(db: Db): Collection<GroupPlaceDoc> {
  return db.collection<GroupPlaceDoc>(WORK_GROUP_PLACES_COLLECTION);
}

export function groupPlaceId(kind: string, group: string): string {
  return `${kind}:${group}`;
}

/** Holders still counting: a live lease, and not the item being (re)claimed. */
function liveHoldersExcept(itemId: ObjectId): Document {
  return {
    $filter: {
      input: { $ifNull: ['$running', []] },
      cond: { $and: [{ $gt: ['$$this.leaseExpiresAt', '$$NOW'] }, { $ne: ['$$this.itemId', { $literal: itemId }] }] },
    },
  };
}

/**
 * Takes a place in the item's group (just claimed in `session`'s transaction) while fewer than
 * `limit` live items of the group hold one. Returns false when the group is full.
 */
export async function takeGroupPlace(
  places: Collection<GroupPlaceDoc>,
  item: WorkItemDoc,
  group: string,
  limit: number,
  session: ClientSession,
): Promise<boolean> {
  const _id = groupPlaceId(item.kind, group);
  const holder = { itemId: item._id, leaseExpiresAt: item.leaseExpiresAt };
  const take = async () =>
    (
      await places.updateOne(
        { _id, $expr: { $lt: [{ $size: liveHoldersExcept(item._id) }, limit] } },
        [{ $set: { running: { $concatArrays: [liveHoldersExcept(item._id), [{ $literal: holder }]] } } }],
        { session },
      )
    ).matchedCount === 1;
  if (await take()) return true;
  const made = await places.updateOne(
    { _id },
    { $setOnInsert: { kind: item.kind, group, running: [] } },
    { upsert: true, session },
  );
  return made.upsertedCount === 1 && (await take());
}

/** The holder's lease follows its item's (a heartbeat), in the heartbeat's transaction. */
export async function extendGroupPlace(
  places: Collection<GroupPlaceDoc>,
  item: WorkItemDoc,
  group: string,
  session: ClientSession,
): Promise<void> {
  await places.updateOne(
    { _id: groupPlaceId(item.kind, group), 'running.itemId': item._id },
    [
      {
        $set: {
          running: {
            $map: {
              input: '$running',
              in: {
                $cond: [
                  { $eq: ['$$this.itemId', { $literal: item._id }] },
                  { itemId: '$$this.itemId', leaseExpiresAt: { $literal: item.leaseExpiresAt } },
                  '$$this',
                ],
              },
            },
          },
        },
      },
    ],
    { session },
  );
}

/** The item no longer runs (completed): its group's place is free at once. */
export async function releaseGroupPlace(
  places: Collection<GroupPlaceDoc>,
  item: Pick<WorkItemDoc, '_id' | 'kind' | 'group'>,
): Promise<void> {
  if (item.group === undefined) return;
  await places.updateOne(
    { _id: groupPlaceId(item.kind, item.group), 'running.itemId': item._id },
    { $pull: { running: { itemId: item._id } } },
  );
}

/** The group places of several completed items, freed in one write (a batch of completions). */
export async function releaseGroupPlaces(
  places: Collection<GroupPlaceDoc>,
  items: ReadonlyArray<Pick<WorkItemDoc, '_id' | 'kind' | 'group'>>,
): Promise<void> {
  const grouped = items.filter((item) => item.group !== undefined);
  if (grouped.length === 0) return;
  if (grouped.length === 1) return releaseGroupPlace(places, grouped[0]!);
  const ids = grouped.map((item) => item._id);
  const placeIds = [...new Set(grouped.map((item) => groupPlaceId(item.kind, item.group!)))];
  await places.updateMany(
    { _id: { $in: placeIds }, 'running.itemId': { $in: ids } },
    { $pull: { running: { itemId: { $in: ids } } } },
  );
}

/** The configured limits (WORK_GROUP_LIMITS), written at start-up; a kind left out keeps what it had. */
export async function setGroupLimits(db: Db, limits: Readonly<Record<string, number>>): Promise<void> {
  for (const [kind, limit] of Object.entries(limits)) {
    await groupLimits(db).updateOne(
      { _id: kind },
      { $set: { limit }, $setOnInsert: { running: [] } },
      { upsert: true },
    );
  }
}

/** Kinds with a group limit, shared by concurrent calls and read again once `refreshMs` old (kindLimits.ts). */
export const cachedGroupLimits = cachedLimits;
export const groupLimitsOf = limitsOf;
