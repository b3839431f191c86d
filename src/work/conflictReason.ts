import { WorkStatus, type WorkItemDoc } from './model.ts';

// Why a conditional write matched nothing, read from the item as it is now and what the caller
// presented. It only explains a refusal already made by the database (the write's filter
// decided); a worker uses it to tell "my lease was taken over" (WORKER, VERSION) from "someone
// finished it" (STATUS).

export const ConflictReason = Object.freeze({
  /** The item is in another status than the operation needs. */
  STATUS: 'STATUS',
  /** The version presented is not the item's: another transition happened since it was read. */
  VERSION: 'VERSION',
  /** Another worker holds the lease. */
  WORKER: 'WORKER',
  /** The item is leased (or not yet due) and the lease has not expired. */
  LEASE: 'LEASE',
} as const);
export type ConflictReason = (typeof ConflictReason)[keyof typeof ConflictReason];

/** What the refused caller presented. */
export interface Presented {
  version?: number | undefined;
  workerId?: string | null | undefined;
}

/** The statuses each operation's write needs (its keys are results.ts's WorkOperation). */
const NEEDED = {
  create: [],
  claim: [WorkStatus.PENDING, WorkStatus.PROCESSING],
  heartbeat: [WorkStatus.PROCESSING],
  complete: [WorkStatus.PROCESSING],
  requeue: [WorkStatus.FAILED],
} as const satisfies Record<string, readonly WorkStatus[]>;

export function conflictReason(
  operation: keyof typeof NEEDED,
  current: WorkItemDoc,
  presented: Presented,
  now = new Date(),
): { reason: ConflictReason; detail: string } {
  const needed: readonly WorkStatus[] = NEEDED[operation];
  if (!needed.includes(current.status)) {
    const dead =
      operation === 'claim' && current.status === WorkStatus.FAILED ? ' (dead-lettered: out of attempts)' : '';
    return {
      reason: ConflictReason.STATUS,
      detail: `the item is ${current.status}${dead}; ${operation} needs ${needed.join(' or ')}`,
    };
  }
  if (presented.version !== undefined && presented.version !== current.version) {
    return {
      reason: ConflictReason.VERSION,
      detail: `version ${presented.version} was presented; the item is at version ${current.version}: another transition happened, read it again`,
    };
  }
  if (
    (operation === 'heartbeat' || operation === 'complete') &&
    presented.workerId != null &&
    current.lockedBy !== presented.workerId
  ) {
    return {
      reason: ConflictReason.WORKER,
      detail: `the lease is held by ${current.lockedBy ?? 'nobody'}, not ${presented.workerId}`,
    };
  }
  const until = current.status === WorkStatus.PROCESSING ? current.leaseExpiresAt : current.availableAt;
  const what =
    current.status === WorkStatus.PROCESSING ? `leased to ${current.lockedBy ?? 'a worker'} until` : 'not due before';
  return {
    reason: ConflictReason.LEASE,
    detail:
      until && until > now
        ? `the item is ${what} ${until.toISOString()}`
        : `the item changed between the write and this read (now ${current.status}, version ${current.version})`,
  };
}
