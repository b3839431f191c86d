import type { Collection, Db, Document, Filter } from 'mongodb';
import { randomUUID } from 'node:crypto';

// One lease helper for every "one process at a time" job (the payout projection, the ledger
// audit). A lease is one document: who holds it, its version (the fencing token, bumped by every
// acquisition) and when it expires by the database server's clock ($$NOW), never a process's
// clock, so several API processes agree. Every write of a holder is conditional on
// {_id, holder, version, unexpired}, so a process whose lease was taken over can neither renew it
// nor move the state it keeps beside the lease (a resume token, a cursor).

export interface LeaseDoc {
  _id: string;
  holder: string;
  version: number;
  expiresAt: Date;
}

export interface Lease {
  name: string;
  holder: string;
  version: number;
}

/** A lease collection: primary reads and majority writes, so a fenced write is never stale. */
export function leaseCollection<T extends LeaseDoc>(db: Db, name: string): Collection<T> {
  return db.collection<T>(name, { readPreference: 'primary', writeConcern: { w: 'majority' } });
}

/** The filter every write of a holder carries. */
export function heldBy<T extends Document = Document>(lease: Lease): Filter<T> {
  const filter: Document = {
    _id: lease.name,
    holder: lease.holder,
    version: lease.version,
    $expr: { $gt: ['$expiresAt', '$$NOW'] },
  };
  return filter as Filter<T>;
}

/** `{ field: value }` as pipeline `$set` values taken literally (no `$` interpretation). */
function literally(fields: Document): Document {
  return Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, { $literal: value }]));
}

/**
 * Takes the lease when it is free (expired, or never taken). Returns the lease and the whole
 * document (with what its previous holder stored beside it), or null when another process holds it.
 *
 * The condition is in the update pipeline, not in the filter: mongod refuses `$expr` in the query
 * of an upsert (QueryFeatureNotAllowed, "$expr is not allowed in the query predicate for an
 * upsert": src/mongo/db/ops/parsed_update.cpp, tested in jstests/core/expr.js), and without
 * `$expr` the filter cannot read `$$NOW`. The filter is the `_id` alone; a held lease is left as it
 * is (a no-op update), and a per-call token written only when taking tells this call's acquisition.
 */
export async function acquireLease<T extends LeaseDoc>(
  leases: Collection<T>,
  name: string,
  holder: string,
  durationMs: number,
): Promise<{ lease: Lease; doc: T } | null> {
  const token = randomUUID();
  const free = { $lt: [{ $ifNull: ['$expiresAt', new Date(0)] }, '$$NOW'] };
  const ifFree = (taken: unknown, kept: string) => ({ $cond: [free, taken, kept] });
  const doc = await leases.findOneAndUpdate(
    { _id: name } as unknown as Filter<T>,
    [
      {
        $set: {
          holder: ifFree({ $literal: holder }, '$holder'),
          version: ifFree({ $add: [{ $ifNull: ['$version', 0] }, 1] }, '$version'),
          acquiredBy: ifFree({ $literal: token }, '$acquiredBy'),
          // Every expression of one $set stage reads the document as found; expiry last all the same.
          expiresAt: ifFree({ $add: ['$$NOW', durationMs] }, '$expiresAt'),
        },
      },
    ],
    { upsert: true, returnDocument: 'after' },
  );
  if (doc === null) throw new Error(`lease ${name}: the upsert returned no document`);
  if ((doc as unknown as { acquiredBy?: unknown }).acquiredBy !== token) return null;
  return { lease: { name, holder, version: doc.version }, doc: doc as T };
}

/** Extends the lease, storing `fields` beside it when given; false when it is no longer ours. */
export async function renewLease<T extends Document>(
  leases: Collection<T>,
  lease: Lease,
  durationMs: number,
  fields: Document = {},
): Promise<boolean> {
  const result = await leases.updateOne(heldBy<T>(lease), [
    { $set: { expiresAt: { $add: ['$$NOW', durationMs] }, ...literally(fields) } },
  ]);
  return result.matchedCount === 1;
}

/**
 * Stores `fields` beside the lease without extending it; false when it is no longer ours. A plain
 * `$set` (no pipeline: nothing here reads the clock): the projection stores its position this way
 * after every batch, and an update pipeline costs the server an aggregation per write.
 */
export async function storeUnderLease<T extends Document>(
  leases: Collection<T>,
  lease: Lease,
  fields: Document,
): Promise<boolean> {
  const result = await leases.updateOne(heldBy<T>(lease), { $set: fields as Partial<T> });
  return result.matchedCount === 1;
}

/** Lets another process take over at once (graceful stop). */
export async function releaseLease<T extends Document>(leases: Collection<T>, lease: Lease): Promise<void> {
  await leases.updateOne(heldBy<T>(lease), [{ $set: { expiresAt: { $subtract: ['$$NOW', 1] } } }]);
}

/**
 * Extends the lease and returns the database server's clock at that instant ($$NOW), or null
 * when the lease is no longer ours: a holder that schedules by time reads the one clock all
 * processes share.
 */
export async function renewLeaseReadingNow<T extends Document>(
  leases: Collection<T>,
  lease: Lease,
  durationMs: number,
): Promise<Date | null> {
  const doc = await leases.findOneAndUpdate(
    heldBy<T>(lease),
    [{ $set: { expiresAt: { $add: ['$$NOW', durationMs] } } }],
    {
      returnDocument: 'after',
      projection: { expiresAt: 1 },
    },
  );
  return doc === null ? null : new Date((doc['expiresAt'] as Date).getTime() - durationMs);
}
