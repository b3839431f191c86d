// The GraphQL object types of work items. Documents become these through `toWorkItem`; the
// namespaced idempotency key is shown as stored (`client:…` or `payout:…`).
import { GraphQLJSON } from 'graphql-scalars';
import { Field, Float, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DateTime } from '../../graphql/scalars.ts';
import { CompletionOutcome, WorkStatus, type WorkItemDoc } from '../model.ts';
import { CatchUp, type ScheduleDoc } from '../scheduleModel.ts';
import { ScheduleLimits } from '../limits.ts';

registerEnumType(WorkStatus, { name: 'WorkItemStatus', description: 'Where a work item is in the transition table' });
registerEnumType(CatchUp, {
  name: 'CatchUp',
  description: 'What a schedule fires for the periods missed while no API process ran',
});
registerEnumType(CompletionOutcome, {
  name: 'CompletionOutcome',
  description: 'DONE is terminal; FAILED retries or dead-letters',
});

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

  @Field(() => String, {
    description: 'Namespaced: client:<key>, payout:<entryId> or schedule:<name>:<period start ISO>',
  })
  idempotencyKey!: string;

  @Field(() => String, {
    nullable: true,
    description: 'The tenant or merchant it belongs to within its kind; null: none',
  })
  group!: string | null;

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

  @Field(() => DateTime, {
    nullable: true,
    description: 'Not claimable before this instant of the database clock, as its creation asked (null: at once)',
  })
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
    description:
      'The W3C traceparent of what created it (the withdrawal, for a payout), when that request was traced; its second field is the trace id',
  })
  traceparent!: string | null;
}

export function toWorkItem(doc: WorkItemDoc): WorkItem {
  return Object.assign(new WorkItem(), {
    id: doc._id.toHexString(),
    kind: doc.kind,
    payload: doc.payload,
    idempotencyKey: doc.idempotencyKey,
    group: doc.group ?? null,
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

  @Field(() => Int, {
    nullable: true,
    description:
      'Most items of the kind PROCESSING with a live lease, across all API processes (WORK_KIND_LIMITS); null: unlimited',
  })
  limit!: number | null;
}

@ObjectType({ description: "One group's queue within its kind (W9)" })
export class WorkGroupStats {
  @Field(() => String)
  kind!: string;

  @Field(() => String)
  group!: string;

  @Field(() => Int, { description: 'PENDING and due' })
  waiting!: number;

  @Field(() => Int, { description: 'PROCESSING' })
  running!: number;

  @Field(() => Boolean, { description: 'A count stopped at 10,000' })
  capped!: boolean;

  @Field(() => Int, {
    nullable: true,
    description:
      'Most items of each group of the kind PROCESSING with a live lease (WORK_GROUP_LIMITS); null: unlimited',
  })
  limit!: number | null;
}

@ObjectType()
export class WorkQueueStats {
  @Field(() => [WorkQueueCount], { description: 'Items per status and kind' })
  counts!: WorkQueueCount[];

  @Field(() => Float, {
    nullable: true,
    description: "How long the oldest due PENDING item has waited, by the server's clock",
  })
  oldestPendingAgeSeconds!: number | null;

  @Field(() => Int, { description: 'ConflictLost answers counted by this API process since it started' })
  conflictsSinceStart!: number;

  @Field(() => [WorkKindStats], { description: 'Waiting, delayed and running items per kind, with its limit' })
  kinds!: WorkKindStats[];

  @Field(() => [WorkGroupStats], {
    description: 'Waiting and running items per group of each kind (groups with some; at most 100 per kind)',
  })
  groups!: WorkGroupStats[];
}

@ObjectType({
  description: 'A cron schedule: each period creates one work item, keyed schedule:<name>:<period start ISO>',
})
export class Schedule {
  @Field(() => String)
  name!: string;

  @Field(() => String)
  kind!: string;

  @Field(() => String)
  cron!: string;

  @Field(() => String)
  timeZone!: string;

  @Field(() => GraphQLJSON, { nullable: true })
  payload!: unknown;

  @Field(() => CatchUp)
  catchUp!: CatchUp;

  @Field(() => DateTime, { description: "By the database server's clock; periods count from here" })
  createdAt!: Date;

  @Field(() => DateTime, {
    nullable: true,
    description: 'The next period to fire (a period due and not yet fired, if the firer is behind)',
  })
  nextFireAt!: Date | null;

  @Field(() => [DateTime], { description: `The next ${ScheduleLimits.nextFireTimesMax} periods` })
  nextFireTimes!: Date[];

  @Field(() => DateTime, { nullable: true, description: 'The start of the last period that created an item' })
  lastFiredPeriod!: Date | null;

  @Field(() => DateTime, { nullable: true, description: "When it was fired, by the database server's clock" })
  lastFiredAt!: Date | null;

  @Field(() => String, { nullable: true, description: "The idempotencyKey of the last period's item" })
  lastItemKey!: string | null;
}

export function toSchedule(doc: ScheduleDoc, nextFireTimes: Date[]): Schedule {
  return Object.assign(new Schedule(), {
    name: doc._id,
    kind: doc.kind,
    cron: doc.cron,
    timeZone: doc.timeZone,
    payload: doc.payload,
    catchUp: doc.catchUp,
    createdAt: doc.createdAt,
    nextFireAt: nextFireTimes[0] ?? doc.nextFireAt,
    nextFireTimes,
    lastFiredPeriod: doc.lastFiredPeriod,
    lastFiredAt: doc.lastFiredAt,
    lastItemKey: doc.lastFiredPeriod === null ? null : `schedule:${doc._id}:${doc.lastFiredPeriod.toISOString()}`,
  });
}
