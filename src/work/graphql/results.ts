// The result unions of docs/design.md's contract table; member names are the contract.
import { createUnionType, Field, ID, ObjectType } from 'type-graphql';
import { DuplicateReplayed, IdempotencyKeyReused, registerReplayableOutcome } from '../../graphql/results/index.ts';
import { WorkItem } from './types.ts';

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

registerReplayableOutcome(CreateWorkItemSuccess, CompleteSuccess);

export const CreateWorkItemResult = createUnionType({
  name: 'CreateWorkItemResult',
  types: () => [CreateWorkItemSuccess, DuplicateReplayed, IdempotencyKeyReused] as const,
});
export const ClaimWorkItemResult = createUnionType({
  name: 'ClaimWorkItemResult',
  types: () => [ClaimSuccess, ConflictLost, NothingToClaim, WorkItemNotFound] as const,
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
