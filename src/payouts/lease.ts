import type { Collection, Db } from 'mongodb';
import {
  acquireLease,
  leaseCollection,
  renewLease,
  storeUnderLease,
  type Lease,
  type LeaseDoc as BaseLeaseDoc,
} from '../db/lease.ts';
import type { ResumeToken } from '../changeStreams/resumeCursor.ts';

// The payout projection's lease (taken, renewed and released with the one lease API,
// src/db/lease.ts) and what its holder keeps beside it: the resume token after the last handled event, the watermark (the `createdAt` of the
// last withdrawal the stream delivered, from which a catch-up after history loss starts), and the
// progress of an unfinished catch-up, so that a new holder resumes it where it stopped.

export const PROJECTION_LEASES_COLLECTION = 'projection_leases';

/** A position in the catch-up's walk: entries sort by (createdAt, _id) on the `kind_createdAt_id` index. */
export interface WalkPosition {
  createdAt: Date;
  id: string;
}

export interface CatchUpProgress {
  reason: string;
  /** The stream was opened here before the walk; the stream reads from here once the walk ends. */
  startToken: ResumeToken;
  /** The last entry the walk finished with; null before the first page. */
  after: WalkPosition | null;
  /** Where the walk started (the watermark less the margin); null from the beginning. */
  from: Date | null;
}

export interface LeaseDoc extends BaseLeaseDoc {
  resumeToken: ResumeToken | null;
  watermark?: Date | null;
  catchUp?: CatchUpProgress | null;
}

export function projectionLeases(db: Db): Collection<LeaseDoc> {
  return leaseCollection<LeaseDoc>(db, PROJECTION_LEASES_COLLECTION);
}

/**
 * Takes the lease when it is free (expired, or never taken). Returns the lease and the position
 * its previous holder stored, or null when another process holds it.
 */
export async function acquireProjectionLease(
  leases: Collection<LeaseDoc>,
  name: string,
  holder: string,
  durationMs: number,
): Promise<{
  lease: Lease;
  resumeToken: ResumeToken | null;
  watermark: Date | null;
  catchUp: CatchUpProgress | null;
} | null> {
  const acquired = await acquireLease(leases, name, holder, durationMs);
  if (!acquired) return null;
  const { doc } = acquired;
  return {
    lease: acquired.lease,
    resumeToken: doc.resumeToken ?? null,
    watermark: doc.watermark ?? null,
    catchUp: doc.catchUp ?? null,
  };
}

/** Extends the lease (and stores `resumeToken` when given); false when it is no longer ours. */
export async function renewProjectionLease(
  leases: Collection<LeaseDoc>,
  lease: Lease,
  durationMs: number,
  resumeToken?: ResumeToken,
): Promise<boolean> {
  return renewLease(leases, lease, durationMs, resumeToken ? { resumeToken } : {});
}

/** Stores the position after a handled event (and the event's watermark); false when the lease is no longer ours. */
export async function storeResumeToken(
  leases: Collection<LeaseDoc>,
  lease: Lease,
  resumeToken: ResumeToken,
  watermark?: Date,
): Promise<boolean> {
  return storeUnderLease(leases, lease, watermark ? { resumeToken, watermark } : { resumeToken });
}

/** Records a catch-up's progress (null when it finished) and extends the lease; false when it is no longer ours. */
export async function storeCatchUp(
  leases: Collection<LeaseDoc>,
  lease: Lease,
  durationMs: number,
  catchUp: CatchUpProgress | null,
  resumeToken?: ResumeToken,
): Promise<boolean> {
  return renewLease(leases, lease, durationMs, resumeToken ? { catchUp, resumeToken } : { catchUp });
}
