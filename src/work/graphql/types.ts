// The GraphQL object types of work items. Documents become these through `toWorkItem`; the
// namespaced idempotency key is shown as stored (`client:…` or `payout:…`).
import { GraphQLJSON } from 'graphql-scalars';
import { Field, Float, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DateTime } from '../../graphql/scalars.ts';
import { CompletionOutcome, WorkStatus, type WorkItemDoc } from '../model.ts';

registerEnumType(WorkStatus, { name: 'WorkItemStatus', description: 'Where a work item is in the transition table' });
registerEnumType(CompletionOutcome, { name: 'CompletionOutcome', description: 'DONE is terminal; FAILED retries or dead-letters' });

@ObjectType({ description: 'One transition, as the write that made it recorded it' })
export class WorkItemTransition {
  @Field(() => WorkStatus, { nullable: true, description: 'Null for the creation' })
  from!: WorkStatus | null;

  @Field(() => WorkStatus)
  to!: WorkStatus;

  @Field(() => Int, { description: 'The version this transition produced' })
  version!: number;

  @Field(() => DateTime, { description: "By the database server's clock" })
  at!: Date;

  @Field(() => String, { nullable: true })
  workerId!: string | null;
}

@ObjectType()
export class WorkItem {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  kind!: string;

  @Field(() => GraphQLJSON, { nullable: true })
  payload!: unknown;

  @Field(() => String, { description: 'Namespaced: client:<key> or payout:<entryId>' })
  idempotencyKey!: string;

  @Field(() => WorkStatus)
  status!: WorkStatus;

  @Field(() => WorkStatus, { nullable: true })
  previousStatus!: WorkStatus | null;

  @Field(() => Int, { description: 'Bumped by every transition; the fencing token a lease holder presents' })
  version!: number;

  @Field(() => String, { nullable: true })
  lockedBy!: string | null;

  @Field(() => DateTime, { nullable: true })
  leaseExpiresAt!: Date | null;

  @Field(() => Int)
  attempts!: number;

  @Field(() => Int)
  maxAttempts!: number;

  @Field(() => DateTime, { description: 'When a PENDING item may next be claimed' })
  availableAt!: Date;

  @Field(() => Int, { description: 'Among the due items of its kind, higher is claimed first' })
  priority!: number;

  @Field(() => DateTime, { nullable: true, description: 'Not claimable before this instant of the database clock, as its creation asked (null: at once)' })
  runAt!: Date | null;

  @Field(() => GraphQLJSON, { nullable: true })
  result!: unknown;

  @Field(() => [WorkItemTransition], { description: 'The most recent transitions, oldest first (bounded)' })
  history!: WorkItemTransition[];

  @Field(() => DateTime)
  createdAt!: Date;

  @Field(() => DateTime)
  updatedAt!: Date;

  @Field(() => String, {
    nullable: true,
    description: 'The W3C traceparent of what created it (the withdrawal, for a payout), when that request was traced; its second field is the trace id',
  })
  traceparent!: string | null;
}

export function toWorkItem(doc: WorkItemDoc): WorkItem {
  return Object.assign(new WorkItem(), {
    id: doc._id.toHexString(),
    kind: doc.kind,
    payload: doc.payload,
    idempotencyKey: doc.idempotencyKey,
    status: doc.status,
    previousStatus: doc.previousStatus,
    version: doc.version,
    lockedBy: doc.lockedBy,
    leaseExpiresAt: doc.leaseExpiresAt,
    attempts: doc.attempts,
    maxAttempts: doc.maxAttempts,
    availableAt: doc.availableAt,
    priority: doc.priority ?? 0,
    runAt: doc.runAt ?? null,
    result: doc.result,
    history: doc.history.map((step) => Object.assign(new WorkItemTransition(), step)),
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    traceparent: doc.traceparent ?? null,
  });
}

@ObjectType()
export class WorkItemPage {
  @Field(() => [WorkItem])
  items!: WorkItem[];

  @Field(() => Boolean)
  hasNextPage!: boolean;

  @Field(() => String, { nullable: true, description: 'Pass as `after` for the next page' })
  endCursor!: string | null;

  /** Counted when `totalCount` or `totalCountCapped` is selected, once. */
  count!: () => Promise<{ totalCount: number; totalCountCapped: boolean }>;
}

@ObjectType()
export class WorkQueueCount {
  @Field(() => WorkStatus)
  status!: WorkStatus;

  @Field(() => String)
  kind!: string;

  @Field(() => Int, { description: 'Counted on the index up to 10,000 (`capped` then says so)' })
  count!: number;

  @Field(() => Boolean)
  capped!: boolean;
}

@ObjectType({ description: "One kind's queue: waiting and delayed split on the database clock, as claims judge them" })
export class WorkKindStats {
  @Field(() => String)
  kind!: string;

  @Field(() => Int, { description: 'PENDING and due: claimable now (unless the kind is at its limit)' })
  waiting!: number;

  @Field(() => Int, { description: 'PENDING before their availableAt (runAt, or a retry backoff)' })
  delayed!: number;

  @Field(() => Int, { description: 'PROCESSING (leased to a worker, or stalled until reclaimed)' })
  running!: number;

  @Field(() => Boolean, { description: 'A count stopped at 10,000' })
  capped!: boolean;

  @Field(() => Int, { nullable: true, description: 'Most items of the kind PROCESSING with a live lease, across all API processes (WORK_KIND_LIMITS); null: unlimited' })
  limit!: number | null;
}

@ObjectType()
export class WorkQueueStats {
  @Field(() => [WorkQueueCount], { description: 'Items per status and kind' })
  counts!: WorkQueueCount[];

  @Field(() => Float, { nullable: true, description: "How long the oldest due PENDING item has waited, by the server's clock" })
  oldestPendingAgeSeconds!: number | null;

  @Field(() => Int, { description: 'ConflictLost answers counted by this API process since it started' })
  conflictsSinceStart!: number;

  @Field(() => [WorkKindStats], { description: 'Waiting, delayed and running items per kind, with its limit' })
  kinds!: WorkKindStats[];
}
