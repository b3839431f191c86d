import type { DuplicateReplayed } from '../graphql/results/duplicateReplayedShape.ts';
import type { ConflictReason } from './conflictReason.ts';
import type { WorkItemDoc } from './model.ts';
import type { ScheduleDoc } from './scheduleModel.ts';

// What the work service answers: plain discriminated unions, one member per contract branch.
// Resolvers map them one to one onto docs/design.md's GraphQL unions; nothing here knows GraphQL.

export type WorkOperation = 'create' | 'claim' | 'heartbeat' | 'complete' | 'requeue';

export interface ConflictLost {
  kind: 'conflictLost';
  operation: WorkOperation;
  /** The item as it is now, read after the conditional write matched nothing. */
  current: WorkItemDoc;
  /** Which precondition failed (conflictReason.ts), and in words. */
  reason: ConflictReason;
  detail: string;
}
export interface WorkItemNotFound {
  kind: 'workItemNotFound';
  id: string;
}
export type { DuplicateReplayed };

export interface CreateSuccess {
  kind: 'createWorkItemSuccess';
  item: WorkItemDoc;
}
export type CreateResult =
  | CreateSuccess
  | DuplicateReplayed<CreateSuccess>
  | { kind: 'idempotencyKeyReused'; requestId: string; firstSeenAt: Date; field: string | null; detail: string };

export type ClaimResult =
  | { kind: 'claimSuccess'; item: WorkItemDoc }
  | ConflictLost
  | { kind: 'nothingToClaim'; kinds: readonly string[] }
  | WorkItemNotFound;

/** `claimWorkItems`: what it took, and how many candidates other claimers took first (W1's losers). */
export type ClaimBatchResult =
  | { kind: 'claimWorkItemsSuccess'; items: WorkItemDoc[]; conflicts: number }
  | { kind: 'nothingToClaim'; kinds: readonly string[] };

export type HeartbeatResult = { kind: 'heartbeatSuccess'; item: WorkItemDoc } | ConflictLost | WorkItemNotFound;

export interface CompleteSuccess {
  kind: 'completeSuccess';
  item: WorkItemDoc;
}
export type CompleteResult = CompleteSuccess | ConflictLost | DuplicateReplayed<CompleteSuccess> | WorkItemNotFound;

export type RequeueResult = { kind: 'requeueSuccess'; item: WorkItemDoc } | ConflictLost | WorkItemNotFound;

export interface ScheduleWorkSuccess {
  kind: 'scheduleWorkSuccess';
  schedule: ScheduleDoc;
}
export type ScheduleResult =
  | ScheduleWorkSuccess
  | { kind: 'invalidSchedule'; name: string; detail: string }
  | DuplicateReplayed<ScheduleWorkSuccess>
  | { kind: 'idempotencyKeyReused'; requestId: string; firstSeenAt: Date; field: string | null; detail: string };

export type UnscheduleResult =
  | { kind: 'unscheduleWorkSuccess'; schedule: ScheduleDoc }
  | { kind: 'scheduleNotFound'; name: string };
