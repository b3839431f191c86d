import type { Collection, Db, IndexDescription, ObjectId } from 'mongodb';

// The work-items collection: its document shape, its statuses, the transition table of
// docs/design.md as data, and the indexes that make "claim the oldest available item" an index walk.

export const WORK_ITEMS_COLLECTION = 'workItems';

export const WorkStatus = Object.freeze({
  PENDING: 'PENDING',
  PROCESSING: 'PROCESSING',
  DONE: 'DONE',
  FAILED: 'FAILED',
} as const);
export type WorkStatus = (typeof WorkStatus)[keyof typeof WorkStatus];
export const WORK_STATUSES: readonly WorkStatus[] = Object.values(WorkStatus);

/** The outcome a worker reports; FAILED either retries (with backoff) or dead-letters. */
export const CompletionOutcome = Object.freeze({ DONE: 'DONE', FAILED: 'FAILED' } as const);
export type CompletionOutcome = (typeof CompletionOutcome)[keyof typeof CompletionOutcome];

/** docs/design.md's transition table; `null` is "no document yet". Nothing else may happen. */
export const TRANSITIONS: readonly (readonly [WorkStatus | null, WorkStatus])[] = Object.freeze([
  [null, WorkStatus.PENDING],
  [WorkStatus.PENDING, WorkStatus.PROCESSING],
  [WorkStatus.PROCESSING, WorkStatus.PROCESSING],
  [WorkStatus.PROCESSING, WorkStatus.DONE],
  [WorkStatus.PROCESSING, WorkStatus.PENDING],
  [WorkStatus.PROCESSING, WorkStatus.FAILED],
  [WorkStatus.FAILED, WorkStatus.PENDING],
]);

export function isAllowedTransition(from: WorkStatus | null, to: WorkStatus): boolean {
  return TRANSITIONS.some(([f, t]) => f === from && t === to);
}

/** Idempotency keys are stored namespaced, so a client key never collides with the projection's. */
export const KeyNamespace = Object.freeze({ CLIENT: 'client', PAYOUT: 'payout', SCHEDULE: 'schedule' } as const);
export type KeyNamespace = (typeof KeyNamespace)[keyof typeof KeyNamespace];

export function namespacedKey(namespace: KeyNamespace, key: string): string {
  return `${namespace}:${key}`;
}

/** One entry of the bounded stored history: every transition, as the write itself recorded it. */
export interface TransitionRecord {
  from: WorkStatus | null;
  to: WorkStatus;
  version: number;
  at: Date;
  workerId: string | null;
}

/** What the lease holder reported; kept so that a replayed completion can be recognised. */
export interface CompletionRecord {
  workerId: string;
  version: number;
  outcome: CompletionOutcome;
  result: unknown;
  completedAt: Date;
}

export interface WorkItemDoc {
  _id: ObjectId;
  idempotencyKey: string;
  kind: string;
  payload: unknown;
  status: WorkStatus;
  previousStatus: WorkStatus | null;
  /** Bumped by every transition; the fencing token a lease holder presents. */
  version: number;
  lockedBy: string | null;
  leaseExpiresAt: Date | null;
  leaseDurationMs: number | null;
  attempts: number;
  maxAttempts: number;
  /** When a PENDING item may next be claimed (creation time or `runAt`, or after a retry backoff). */
  availableAt: Date;
  /** Higher first among due items of a kind (0 when not given; absent on items older than it, which sort last). */
  priority?: number;
  /** The tenant or merchant it belongs to within its kind (W9); absent: no group. */
  group?: string;
  /** The `runAt` its creation asked for (null: due at once); kept so that a replay can be compared. */
  runAt?: Date | null;
  result: unknown;
  lastCompletion: CompletionRecord | null;
  history: TransitionRecord[];
  createdAt: Date;
  updatedAt: Date;
  /** The W3C traceparent of what created it, when traced: its claims and completions link to that trace. */
  traceparent?: string;
  /** Which createWorkItem call created it (random per call; absent on payouts and older items). */
  creationId?: string;
  /** Which claim call claimed it last (random per call): a rerun of that call after a lost reply finds its own claim. */
  claimId?: string;
  /** Which requeueWorkItem call requeued it last (random per call), likewise. */
  requeueId?: string;
  /** The item as its creation left it (without `_id`): what a replayed createWorkItem answers (absent on items older than it). */
  createOutcome?: Omit<WorkItemDoc, '_id' | 'createOutcome' | 'completionOutcome'>;
  /** The item as the last completion left it (without `_id`): what a replayed completeWorkItem answers. */
  completionOutcome?: Omit<WorkItemDoc, '_id' | 'createOutcome' | 'completionOutcome'>;
}

/**
 * The key patterns claims walk (and hint, since the driver's findOneAndUpdate hints by key):
 * equality on `status`, then the sort field, so a claim walks in order and stops at the first
 * match. PENDING items are taken by `availableAt`, stalled PROCESSING items by lease expiry. A
 * claim for some kinds walks the `...OfKinds` ones: one range per kind, merged in sort order
 * ("explode for sort"), so items of other kinds are never read however many wait.
 */
export const ClaimIndex = Object.freeze({
  pending: Object.freeze({ status: 1, priority: -1, availableAt: 1 }),
  expired: Object.freeze({ status: 1, leaseExpiresAt: 1 }),
  pendingOfKinds: Object.freeze({ status: 1, kind: 1, priority: -1, availableAt: 1 }),
  expiredOfKinds: Object.freeze({ status: 1, kind: 1, leaseExpiresAt: 1 }),
  /** W9: a kind's due items group by group, so the next group after one is one seek (claimBatch.ts). */
  pendingOfGroups: Object.freeze({ status: 1, kind: 1, group: 1, priority: -1, availableAt: 1 }),
} as const);

/** Due PENDING items are taken highest priority first, then oldest `availableAt` first. */
export const PENDING_CLAIM_ORDER = Object.freeze({ priority: -1, availableAt: 1 } as const);

export const WORK_ITEM_INDEXES: IndexDescription[] = [
  { key: { idempotencyKey: 1 }, name: 'idempotencyKey_unique', unique: true },
  // The oldest due item of the whole queue (workQueueStats' oldestPendingAgeSeconds).
  { key: { status: 1, availableAt: 1 }, name: 'status_availableAt' },
  { key: { ...ClaimIndex.pending }, name: 'status_priority_availableAt' },
  { key: { ...ClaimIndex.expired }, name: 'status_leaseExpiresAt' },
  { key: { ...ClaimIndex.pendingOfKinds }, name: 'status_kind_priority_availableAt' },
  { key: { ...ClaimIndex.expiredOfKinds }, name: 'status_kind_leaseExpiresAt' },
  { key: { ...ClaimIndex.pendingOfGroups }, name: 'status_kind_group_priority_availableAt' },
  // `workItems(kind:)` without a status filters on kind alone, which no status-led index serves.
  { key: { kind: 1, status: 1 }, name: 'kind_status' },
  // Dashboard lists (`workItems`) in creation order: by status, or by kind and status.
  { key: { status: 1, _id: 1 }, name: 'status_id' },
  { key: { kind: 1, status: 1, _id: 1 }, name: 'kind_status_id' },
  // `recentWorkItems`: the items changed last, newest first (the ops console's table on open).
  { key: { updatedAt: -1, _id: -1 }, name: 'updatedAt_id' },
];

export function workItems(db: Db): Collection<WorkItemDoc> {
  return db.collection<WorkItemDoc>(WORK_ITEMS_COLLECTION);
}

export async function ensureWorkItemIndexes(db: Db): Promise<void> {
  await workItems(db).createIndexes(WORK_ITEM_INDEXES);
}
