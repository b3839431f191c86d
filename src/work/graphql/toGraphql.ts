// Service results → GraphQL union members, one to one: one mapper per result union, each a switch
// over that union's members with its return type spelled out, so the compiler refuses a member
// left unmapped. Class instances, so that type-graphql's unions resolve their member by `instanceof`.
import { DuplicateReplayed, IdempotencyKeyReused } from '../../graphql/results/index.ts';
import type * as R from '../results.ts';
import {
  ClaimSuccess,
  ClaimWorkItemsSuccess,
  CompleteSuccess,
  ConflictLost,
  CreateWorkItemSuccess,
  HeartbeatSuccess,
  NothingToClaim,
  InvalidSchedule,
  RequeueSuccess,
  ScheduleNotFound,
  ScheduleWorkSuccess,
  UnscheduleWorkSuccess,
  WorkItemNotFound,
} from './results.ts';
import { toSchedule, toWorkItem } from './types.ts';
import { nextFireTimes } from '../schedules.ts';
import { ScheduleLimits } from '../limits.ts';
import type { ScheduleDoc } from '../scheduleModel.ts';

function conflictLost(result: R.ConflictLost): ConflictLost {
  return Object.assign(new ConflictLost(), {
    operation: result.operation,
    item: toWorkItem(result.current),
    reason: result.reason,
    detail: result.detail,
  });
}

function notFound(result: R.WorkItemNotFound): WorkItemNotFound {
  return Object.assign(new WorkItemNotFound(), { id: result.id });
}

function replayed(result: R.DuplicateReplayed<unknown>, original: object): DuplicateReplayed {
  return Object.assign(new DuplicateReplayed(), {
    requestId: result.requestId,
    firstSeenAt: result.firstSeenAt,
    original,
  });
}

function createSuccess(result: R.CreateSuccess): CreateWorkItemSuccess {
  return Object.assign(new CreateWorkItemSuccess(), { item: toWorkItem(result.item) });
}

function completeSuccess(result: R.CompleteSuccess): CompleteSuccess {
  return Object.assign(new CompleteSuccess(), { item: toWorkItem(result.item) });
}

export function toCreateResult(
  result: R.CreateResult,
): CreateWorkItemSuccess | DuplicateReplayed | IdempotencyKeyReused {
  switch (result.kind) {
    case 'createWorkItemSuccess':
      return createSuccess(result);
    case 'duplicateReplayed':
      return replayed(result, createSuccess(result.original));
    case 'idempotencyKeyReused':
      return Object.assign(new IdempotencyKeyReused(), {
        requestId: result.requestId,
        field: result.field,
        detail: result.detail,
      });
  }
}

export function toClaimResult(result: R.ClaimResult): ClaimSuccess | NothingToClaim | ConflictLost | WorkItemNotFound {
  switch (result.kind) {
    case 'claimSuccess':
      return Object.assign(new ClaimSuccess(), { item: toWorkItem(result.item) });
    case 'nothingToClaim':
      return Object.assign(new NothingToClaim(), { kinds: [...result.kinds] });
    case 'conflictLost':
      return conflictLost(result);
    case 'workItemNotFound':
      return notFound(result);
  }
}

export function toClaimBatchResult(result: R.ClaimBatchResult): ClaimWorkItemsSuccess | NothingToClaim {
  switch (result.kind) {
    case 'claimWorkItemsSuccess':
      return Object.assign(new ClaimWorkItemsSuccess(), {
        items: result.items.map(toWorkItem),
        conflicts: result.conflicts,
      });
    case 'nothingToClaim':
      return Object.assign(new NothingToClaim(), { kinds: [...result.kinds] });
  }
}

export function toHeartbeatResult(result: R.HeartbeatResult): HeartbeatSuccess | ConflictLost | WorkItemNotFound {
  switch (result.kind) {
    case 'heartbeatSuccess':
      return Object.assign(new HeartbeatSuccess(), { item: toWorkItem(result.item) });
    case 'conflictLost':
      return conflictLost(result);
    case 'workItemNotFound':
      return notFound(result);
  }
}

export function toCompleteResult(
  result: R.CompleteResult,
): CompleteSuccess | DuplicateReplayed | ConflictLost | WorkItemNotFound {
  switch (result.kind) {
    case 'completeSuccess':
      return completeSuccess(result);
    case 'duplicateReplayed':
      return replayed(result, completeSuccess(result.original));
    case 'conflictLost':
      return conflictLost(result);
    case 'workItemNotFound':
      return notFound(result);
  }
}

export function toRequeueResult(result: R.RequeueResult): RequeueSuccess | ConflictLost | WorkItemNotFound {
  switch (result.kind) {
    case 'requeueSuccess':
      return Object.assign(new RequeueSuccess(), { item: toWorkItem(result.item) });
    case 'conflictLost':
      return conflictLost(result);
    case 'workItemNotFound':
      return notFound(result);
  }
}

export function scheduleOf(doc: ScheduleDoc) {
  return toSchedule(doc, nextFireTimes(doc, ScheduleLimits.nextFireTimesMax));
}

function scheduleSuccess(result: R.ScheduleWorkSuccess): ScheduleWorkSuccess {
  return Object.assign(new ScheduleWorkSuccess(), { schedule: scheduleOf(result.schedule) });
}

export function toScheduleResult(
  result: R.ScheduleResult,
): ScheduleWorkSuccess | InvalidSchedule | DuplicateReplayed | IdempotencyKeyReused {
  switch (result.kind) {
    case 'scheduleWorkSuccess':
      return scheduleSuccess(result);
    case 'invalidSchedule':
      return Object.assign(new InvalidSchedule(), { name: result.name, detail: result.detail });
    case 'duplicateReplayed':
      return replayed(result, scheduleSuccess(result.original));
    case 'idempotencyKeyReused':
      return Object.assign(new IdempotencyKeyReused(), {
        requestId: result.requestId,
        field: result.field,
        detail: result.detail,
      });
  }
}

export function toUnscheduleResult(result: R.UnscheduleResult): UnscheduleWorkSuccess | ScheduleNotFound {
  switch (result.kind) {
    case 'unscheduleWorkSuccess':
      return Object.assign(new UnscheduleWorkSuccess(), { schedule: scheduleOf(result.schedule) });
    case 'scheduleNotFound':
      return Object.assign(new ScheduleNotFound(), { name: result.name });
  }
}
