import type { Filter, ObjectId } from 'mongodb';
import { WorkStatus, type WorkItemDoc } from './model.ts';

// The preconditions of every transition, as write filters. This is the whole fix for seed case
// 000: the status (and version, and lease holder) a writer expects are part of the write itself,
// so a writer whose view is stale matches nothing instead of overwriting a newer state.

type WorkFilter = Filter<WorkItemDoc>;

/** `field <= $$NOW`, judged by the database server's clock so that every API process agrees. */
function reachedByServerClock(field: 'availableAt' | 'leaseExpiresAt'): WorkFilter {
  return { $expr: { $lte: [`$${field}`, '$$NOW'] } };
}

function ofKinds(kinds: readonly string[] | undefined): WorkFilter {
  return kinds === undefined || kinds.length === 0 ? {} : { kind: { $in: [...kinds] } };
}

export interface Preconditions {
  /** That item, if it is PENDING and due, or PROCESSING with an expired lease (and at that version). */
  claimById(id: ObjectId, expectedVersion: number | undefined): WorkFilter;
  /** The next due PENDING item of these kinds (walks `status_kind_priority_availableAt`, or `status_priority_availableAt` for any kind). */
  claimNextPending(kinds: readonly string[] | undefined): WorkFilter;
  /** The next PROCESSING item of these kinds whose lease expired (walks `status_kind_leaseExpiresAt`, or `status_leaseExpiresAt`). */
  claimNextExpired(kinds: readonly string[] | undefined): WorkFilter;
  /** The item as its lease holder last saw it: PROCESSING, this version, locked by this worker. */
  heldBy(id: ObjectId, workerId: string, version: number): WorkFilter;
  /** A dead-lettered item at the version the operator saw. */
  requeue(id: ObjectId, version: number): WorkFilter;
}

export const preconditions: Preconditions = Object.freeze({
  claimById(id, expectedVersion) {
    return {
      _id: id,
      ...(expectedVersion === undefined ? {} : { version: expectedVersion }),
      $or: [
        { status: WorkStatus.PENDING, ...reachedByServerClock('availableAt') },
        { status: WorkStatus.PROCESSING, ...reachedByServerClock('leaseExpiresAt') },
      ],
    };
  },
  claimNextPending(kinds) {
    return { status: WorkStatus.PENDING, ...ofKinds(kinds), ...reachedByServerClock('availableAt') };
  },
  claimNextExpired(kinds) {
    return { status: WorkStatus.PROCESSING, ...ofKinds(kinds), ...reachedByServerClock('leaseExpiresAt') };
  },
  heldBy(id, workerId, version) {
    return { _id: id, status: WorkStatus.PROCESSING, version, lockedBy: workerId };
  },
  requeue(id, version) {
    return { _id: id, status: WorkStatus.FAILED, version };
  },
} satisfies Preconditions);
