import type { Collection, Db } from 'mongodb';
import { isDuplicateKey } from '../../db/mongoErrors.ts';
import type { ResumeToken } from '../resumeCursor.ts';

// One lease document per projection: who holds it, its version (the fencing token, bumped by
// every acquisition), when it expires by the database server's clock, and the position the
// holder stored. Every write of a holder is conditional on {_id, holder, version, unexpired}, so
// a process whose lease was taken over can neither renew it nor move the stored position.

export const PROJECTION_LEASES_COLLECTION = 'projection_leases';

export interface LeaseDoc {
  _id: string;
  holder: string;
  version: number;
  expiresAt: Date;
  resumeToken: ResumeToken | null;
}

export interface Lease {
  name: string;
  holder: string;
  version: number;
}

export function projectionLeases(db: Db): Collection<LeaseDoc> {
  return db.collection<LeaseDoc>(PROJECTION_LEASES_COLLECTION, { readPreference: 'primary', writeConcern: { w: 'majority' } });
}

function heldBy(lease: Lease) {
  return { _id: lease.name, holder: lease.holder, version: lease.version, $expr: { $gt: ['$expiresAt', '$$NOW'] } };
}

/**
 * Takes the lease when it is free (expired, or never taken). Returns the lease and the position
 * its previous holder stored, or null when another process holds it.
 */
export async function acquireLease(
  leases: Collection<LeaseDoc>,
  name: string,
  holder: string,
  durationMs: number,
): Promise<{ lease: Lease; resumeToken: ResumeToken | null } | null> {
  try {
    const doc = await leases.findOneAndUpdate(
      { _id: name, $expr: { $lt: ['$expiresAt', '$$NOW'] } },
      [
        {
          $set: {
            holder: { $literal: holder },
            version: { $add: [{ $ifNull: ['$version', 0] }, 1] },
            expiresAt: { $add: ['$$NOW', durationMs] },
            resumeToken: { $ifNull: ['$resumeToken', null] },
          },
        },
      ],
      { upsert: true, returnDocument: 'after' },
    );
    if (doc === null) throw new Error(`lease ${name}: the upsert returned no document`);
    return { lease: { name, holder, version: doc.version }, resumeToken: doc.resumeToken };
  } catch (error) {
    // The filter missed because the lease is held, so the upsert tried to insert its _id again.
    if (isDuplicateKey(error)) return null;
    throw error;
  }
}

/** Extends the lease (and stores `resumeToken` when given); false when it is no longer ours. */
export async function renewLease(
  leases: Collection<LeaseDoc>,
  lease: Lease,
  durationMs: number,
  resumeToken?: ResumeToken,
): Promise<boolean> {
  const set = { expiresAt: { $add: ['$$NOW', durationMs] }, ...(resumeToken ? { resumeToken: { $literal: resumeToken } } : {}) };
  const result = await leases.updateOne(heldBy(lease), [{ $set: set }]);
  return result.matchedCount === 1;
}

/** Stores the position after a handled event; false when the lease is no longer ours. */
export async function storeResumeToken(leases: Collection<LeaseDoc>, lease: Lease, resumeToken: ResumeToken): Promise<boolean> {
  const result = await leases.updateOne(heldBy(lease), [{ $set: { resumeToken: { $literal: resumeToken } } }]);
  return result.matchedCount === 1;
}

/** Lets another process take over at once (graceful stop). */
export async function releaseLease(leases: Collection<LeaseDoc>, lease: Lease): Promise<void> {
  await leases.updateOne(heldBy(lease), [{ $set: { expiresAt: { $subtract: ['$$NOW', 1] } } }]);
}
