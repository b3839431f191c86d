import { performance } from 'node:perf_hooks';
import type { ClientSession, Collection, Db, Document, ObjectId } from 'mongodb';
import type { WorkItemDoc } from './model.ts';

// W5, per-kind concurrency limits that hold across every API process. A limited kind has one
// document in `workKindLimits`: its limit and the items holding a place (`running`, each with
// the lease of its item). A claim of such a kind is one transaction: the item's own conditional
// claim, then a conditional update of the kind's document whose filter says "fewer live holders
// than the limit" (holders whose lease passed $$NOW no longer count). No place, no claim: the
// transaction is aborted and the item stays as it was. Nothing is counted in memory, so two
// processes (or two hundred) cannot both take the last place: one of the two writes conflicts
// with the other and is retried against the document the first one left.
//
// A place is given back by the completion (DONE, retry, dead letter); a worker that dies gives
// it back when its lease expires, by the same clock that lets another worker reclaim the item.
// A heartbeat extends the holder's lease in the same transaction as the item's, so a live item
// never has an expired place.

export const WORK_KIND_LIMITS_COLLECTION = 'workKindLimits';

export interface KindHolder {
  itemId: ObjectId;
  leaseExpiresAt: Date;
}

export interface KindLimitDoc {
  /** The kind. */
  _id: string;
  limit: number;
  /** At most `limit` live entries; expired ones are pruned by the next write. */
  running: KindHolder[];
}

export function kindLimits(db: Db): Collection<KindLimitDoc> {
  return db.collection<KindLimitDoc>(WORK_KIND_LIMITS_COLLECTION);
}

/** Holders still counting: a live lease, and not the item being (re)claimed (its expired place is its own). */
function liveHoldersExcept(itemId: ObjectId): Document {
  return {
    $filter: {
      input: { $ifNull: ['$running', []] },
      cond: { $and: [{ $gt: ['$$this.leaseExpiresAt', '$$NOW'] }, { $ne: ['$$this.itemId', { $literal: itemId }] }] },
    },
  };
}

/**
 * Takes a place for `item` (just claimed in `session`'s transaction): matches only while the
 * kind's live holders are fewer than its limit. Returns false when the kind is full.
 */
export async function takePlace(
  limits: Collection<KindLimitDoc>,
  item: WorkItemDoc,
  session: ClientSession,
): Promise<boolean> {
  const holder = { itemId: item._id, leaseExpiresAt: item.leaseExpiresAt };
  const reply = await limits.updateOne(
    { _id: item.kind, $expr: { $lt: [{ $size: liveHoldersExcept(item._id) }, '$limit'] } },
    [{ $set: { running: { $concatArrays: [liveHoldersExcept(item._id), [{ $literal: holder }]] } } }],
    { session },
  );
  return reply.matchedCount === 1;
}

/** The holder's lease follows its item's (a heartbeat), in the heartbeat's transaction. */
export async function extendPlace(
  limits: Collection<KindLimitDoc>,
  item: WorkItemDoc,
  session: ClientSession,
): Promise<void> {
  await limits.updateOne(
    { _id: item.kind, 'running.itemId': item._id },
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

/** The item no longer runs (completed): its place is free at once. */
export async function releasePlace(
  limits: Collection<KindLimitDoc>,
  item: Pick<WorkItemDoc, '_id' | 'kind'>,
): Promise<void> {
  await limits.updateOne({ _id: item.kind, 'running.itemId': item._id }, { $pull: { running: { itemId: item._id } } });
}

/** The places of several completed items, freed in one write (a batch of completions). */
export async function releasePlaces(
  limits: Collection<KindLimitDoc>,
  items: ReadonlyArray<Pick<WorkItemDoc, '_id' | 'kind'>>,
): Promise<void> {
  if (items.length === 0) return;
  if (items.length === 1) return releasePlace(limits, items[0]!);
  const ids = items.map((item) => item._id);
  const kinds = [...new Set(items.map((item) => item.kind))];
  await limits.updateMany(
    { _id: { $in: kinds }, 'running.itemId': { $in: ids } },
    { $pull: { running: { itemId: { $in: ids } } } },
  );
}

/** The configured limits (WORK_KIND_LIMITS), written at start-up; a kind left out keeps what it had. */
export async function setKindLimits(db: Db, limits: Readonly<Record<string, number>>): Promise<void> {
  for (const [kind, limit] of Object.entries(limits)) {
    await kindLimits(db).updateOne({ _id: kind }, { $set: { limit }, $setOnInsert: { running: [] } }, { upsert: true });
  }
}

/** The limited kinds: one small document per limited kind (a handful). */
export async function limitsOf(
  limits: Collection<KindLimitDoc>,
  session?: ClientSession,
): Promise<Map<string, number>> {
  const found = await limits
    .find({}, { projection: { limit: 1 }, hint: '_id_', ...(session ? { session } : {}) })
    .toArray();
  return new Map(found.map((doc) => [doc._id, doc.limit]));
}

/**
 * `limitsOf`, shared by concurrent calls and read again once `refreshMs` old: a claim costs no
 * extra round trip. Only *which* kinds are limited can be that stale: the limit itself is read by
 * the place-taking write from the kind's document, so a changed limit binds the very next claim.
 */
export function cachedLimits(
  limits: Collection<KindLimitDoc>,
  refreshMs: number,
): () => Promise<ReadonlyMap<string, number>> {
  let cached: { at: number; value: Promise<Map<string, number>> } | null = null;
  return () => {
    const now = performance.now();
    if (cached === null || now - cached.at >= refreshMs) {
      const value = limitsOf(limits);
      cached = { at: now, value };
      value.catch(() => {
        if (cached?.value === value) cached = null;
      });
    }
    return cached.value;
  };
}
