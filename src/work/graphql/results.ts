// The result unions of docs/design.md's contract table; member names are the contract.
import { createUnionType, Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { ConflictReason } from '../conflictReason.ts';
import { DuplicateReplayed, IdempotencyKeyReused, registerReplayableOutcome } from '../../graphql/results/index.ts';
import { Schedule, WorkItem } from './types.ts';

const ConflictReasonEnum = { ...ConflictReason };
registerEnumType(ConflictReasonEnum, {
  name: 'ConflictReason',
  description: 'Why a work-item write matched nothing',
  valuesConfig: {
    STATUS: { description: 'The item is in another status than the operation needs (e.g. already DONE)' },
    VERSION: { description: "The version presented is not the item's: another transition happened since you read it" },
    WORKER: { description: 'Another worker holds the lease (yours was taken over)' },
    LEASE: { description: 'The item is leased to another worker, or not yet due' },
  },
});

@ObjectType()
export class CreateWorkItemSuccess {
  @Field(() => WorkItem)
  item!: WorkItem;
}

@ObjectType({ description: 'The item is yours until leaseExpiresAt; present its version to heartbeat and complete' })
export class ClaimSuccess {
  @Field(() => WorkItem)
  item!: WorkItem;
}

@ObjectType({
  description:
    'The items are yours until their leaseExpiresAt; each was claimed by its own status-and-version precondition',
})
export class ClaimWorkItemsSuccess {
  @Field(() => [WorkItem], {
    description:
      'Possibly empty when every candidate was taken by other claimers first (then `conflicts` > 0): claim again',
  })
  items!: WorkItem[];

  @Field(() => Int, {
    description:
      "Candidates another claimer took between this call's read and its write (counted in claim_conflict_total)",
  })
  conflicts!: number;
}

@ObjectType()
export class HeartbeatSuccess {
  @Field(() => WorkItem)
  item!: WorkItem;
}

@ObjectType()
export class CompleteSuccess {
  @Field(() => WorkItem)
  item!: WorkItem;
}

@ObjectType()
export class RequeueSuccess {
  @Field(() => WorkItem)
  item!: WorkItem;
}

@ObjectType({
  description:
    'The item was not in the state you expected (status, version or lease holder): someone else got there first. Nothing was written; move on.',
})
export class ConflictLost {
  @Field(() => String, { description: 'claim, heartbeat, complete or requeue' })
  operation!: string;

  @Field(() => WorkItem, { description: 'The item as it is now' })
  item!: WorkItem;

  @Field(() => ConflictReasonEnum, { description: 'Which precondition failed: STATUS, VERSION, WORKER or LEASE' })
  reason!: ConflictReason;

  @Field(() => String, {
    description: 'The reason in words, e.g. "version 3 was presented; the item is at version 4: ..."',
  })
  detail!: string;
}

@ObjectType({ description: 'No item of these kinds is available now' })
export class NothingToClaim {
  @Field(() => [String])
  kinds!: string[];
}

@ObjectType()
export class WorkItemNotFound {
  @Field(() => ID)
  id!: string;
}

@ObjectType({
  description: 'The schedule is stored; its first period is the first after its creation (database clock)',
})
export class ScheduleWorkSuccess {
  @Field(() => Schedule)
  schedule!: Schedule;
}

@ObjectType({ description: 'The cron expression or the time zone cannot be read; nothing was stored' })
export class InvalidSchedule {
  @Field(() => String)
  name!: string;

  @Field(() => String, {
    description: 'What is wrong, e.g. "cron \\"61 * * * *\\": Constraint error, got value 61 expected range 0-59"',
  })
  detail!: string;
}

@ObjectType({ description: 'The schedule is removed: no period after this fires; items already made stay' })
export class UnscheduleWorkSuccess {
  @Field(() => Schedule, { description: 'The schedule as it was' })
  schedule!: Schedule;
}

@ObjectType()
export class ScheduleNotFound {
  @Field(() => String)
  name!: string;
}

registerReplayableOutcome(CreateWorkItemSuccess, CompleteSuccess, ScheduleWorkSuccess);

export const CreateWorkItemResult = createUnionType({
  name: 'CreateWorkItemResult',
  types: () => [CreateWorkItemSuccess, DuplicateReplayed, IdempotencyKeyReused] as const,
});
export const ClaimWorkItemResult = createUnionType({
  name: 'ClaimWorkItemResult',
  types: () => [ClaimSuccess, ConflictLost, NothingToClaim, WorkItemNotFound] as const,
});
export const ClaimWorkItemsResult = createUnionType({
  name: 'ClaimWorkItemsResult',
  types: () => [ClaimWorkItemsSuccess, NothingToClaim] as const,
});
export const HeartbeatWorkItemResult = createUnionType({
  name: 'HeartbeatWorkItemResult',
  types: () => [HeartbeatSuccess, ConflictLost, WorkItemNotFound] as const,
});
export const CompleteWorkItemResult = createUnionType({
  name: 'CompleteWorkItemResult',
  types: () => [CompleteSuccess, ConflictLost, DuplicateReplayed, WorkItemNotFound] as const,
});
export const RequeueWorkItemResult = createUnionType({
  name: 'RequeueWorkItemResult',
  types: () => [RequeueSuccess, ConflictLost, WorkItemNotFound] as const,
});
export const ScheduleWorkResult = createUnionType({
  name: 'ScheduleWorkResult',
  types: () => [ScheduleWorkSuccess, InvalidSchedule, DuplicateReplayed, IdempotencyKeyReused] as const,
});
export const UnscheduleWorkResult = createUnionType({
  name: 'UnscheduleWorkResult',
  types: () => [UnscheduleWorkSuccess, ScheduleNotFound] as const,
});

@ObjectType({
  description: 'One answer per item, in the order of the input: the member heartbeatWorkItem would answer for it',
})
export class HeartbeatWorkItemsResult {
  @Field(() => [HeartbeatWorkItemResult])
  results!: Array<typeof HeartbeatWorkItemResult>;
}

@ObjectType({
  description:
    'One answer per item, in the order of the input: the member completeWorkItem would answer for it, each under its own fence and key',
})
export class CompleteWorkItemsResult {
  @Field(() => [CompleteWorkItemResult])
  results!: Array<typeof CompleteWorkItemResult>;
}
