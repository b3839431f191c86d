import type { ClientSession, Collection, Db, Document, ObjectId } from 'mongodb';
import { isDuplicateKey } from '../db/mongoErrors.ts';
import { cachedLimits, limitsOf, type KindLimitDoc } from './kindLimits.ts';
import type { WorkItemDoc } from './model.ts';

// W9, per-group concurrency limits across every API process, by W5's mechanism (kindLimits.ts):
// a kind with a group limit (WORK_GROUP_LIMITS=KIND=n) has one document per group with running
// items in `work_group_places`, holding its items' places with their leases. A claim of a grouped
// item of such a kind takes a place in its group's document in the claim's own transaction, by an
// update whose filter says "fewer live holders than n"; no place, no claim. The group's document
// is made by that same write (an upsert): when it exists but is full, the filter misses, the
// upsert tries to insert the same `_id` and meets the unique `_id` index (DuplicateKey), which is
// "full" too, and the transaction (the item's claim with it) is aborted. Nothing is counted in
// memory: two processes cannot both take a group's last place, one of the two writes conflicts.

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
export async function takeGroupPlace(places: Collection<GroupPlaceDoc>, item: WorkItemDoc, group: string, limit: number, session: ClientSession): Promise<boolean> {
  const holder = { itemId: item._id, leaseExpiresAt: item.leaseExpiresAt };
  try {
    await places.updateOne(
      { _id: groupPlaceId(item.kind, group), $expr: { $lt: [{ $size: liveHoldersExcept(item._id) }, limit] } },
      [{ $set: { kind: { $literal: item.kind }, group: { $literal: group }, running: { $concatArrays: [liveHoldersExcept(item._id), [{ $literal: holder }]] } } }],
      { upsert: true, session },
    );
    return true;
  } catch (error) {
    if (isDuplicateKey(error)) return false;
    throw error;
  }
}

/** The holder's lease follows its item's (a heartbeat), in the heartbeat's transaction. */
export async function extendGroupPlace(places: Collection<GroupPlaceDoc>, item: WorkItemDoc, group: string, session: ClientSession): Promise<void> {
  await places.updateOne(
    { _id: groupPlaceId(item.kind, group), 'running.itemId': item._id },
    [
      {
        $set: {
          running: {
            $map: {
              input: '$running',
              in: { $cond: [{ $eq: ['$$this.itemId', { $literal: item._id }] }, { itemId: '$$this.itemId', leaseExpiresAt: { $literal: item.leaseExpiresAt } }, '$$this'] },
            },
          },
        },
      },
    ],
    { session },
  );
}

/** The item no longer runs (completed): its group's place is free at once. */
export async function releaseGroupPlace(places: Collection<GroupPlaceDoc>, item: Pick<WorkItemDoc, '_id' | 'kind' | 'group'>): Promise<void> {
  if (item.group === undefined) return;
  await places.updateOne({ _id: groupPlaceId(item.kind, item.group), 'running.itemId': item._id }, { $pull: { running: { itemId: item._id } } });
}

/** The configured limits (WORK_GROUP_LIMITS), written at start-up; a kind left out keeps what it had. */
export async function setGroupLimits(db: Db, limits: Readonly<Record<string, number>>): Promise<void> {
  for (const [kind, limit] of Object.entries(limits)) {
    await groupLimits(db).updateOne({ _id: kind }, { $set: { limit }, $setOnInsert: { running: [] } }, { upsert: true });
  }
}

/** Kinds with a group limit, shared by concurrent calls and read again once `refreshMs` old (kindLimits.ts). */
export const cachedGroupLimits = cachedLimits;
export const groupLimitsOf = limitsOf;
