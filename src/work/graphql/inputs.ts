// GraphQL input types; their values are validated again (ranges, sizes, ids) by the zod schemas
// in ../inputs.ts before the service sees them.
import { GraphQLJSON } from 'graphql-scalars';
import { Field, ID, InputType, Int } from 'type-graphql';
import { DateTime } from '../../graphql/scalars.ts';
import { CompletionOutcome } from '../model.ts';
import { ScheduleLimits, WorkLimits as Limits } from '../limits.ts';
import { CatchUp } from '../scheduleModel.ts';

@InputType()
export class CreateWorkItemInput {
  @Field(() => String, { description: 'An identifier of at most 64 characters ([A-Za-z][A-Za-z0-9_.-]*), e.g. PAYOUT' })
  kind!: string;

  @Field(() => GraphQLJSON, {
    nullable: true,
    description: `Any JSON, at most ${Limits.payloadMaxBytes} bytes serialized; default null`,
  })
  payload?: unknown;

  @Field(() => String, {
    description: 'Your key (1 to 200 characters): the same key and parameters replay the first answer',
  })
  idempotencyKey!: string;

  @Field(() => Int, {
    nullable: true,
    description: `Claims before a failing item is dead-lettered (FAILED): default ${Limits.maxAttemptsDefault}, 1 to ${Limits.maxAttemptsMax}. A failed attempt waits ${Limits.retryBackoffBaseMs} ms × 2^(attempts-1), at most ${Limits.retryBackoffMaxMs / 60_000} minutes, before it is claimable again`,
  })
  maxAttempts?: number;

  @Field(() => DateTime, {
    nullable: true,
    description: `Not claimable before this instant, judged by the database server's clock (at most ${Limits.runAtAheadMaxMs / 86_400_000} days ahead); default: at once`,
  })
  runAt?: Date | null;

  @Field(() => Int, {
    nullable: true,
    description: `Among the due items of a kind, higher is claimed first: ${Limits.priorityMin} to ${Limits.priorityMax}, default 0`,
  })
  priority?: number | null;

  @Field(() => String, {
    nullable: true,
    description:
      'The tenant or merchant it belongs to (1 to 128 letters, digits or _.:@-): claims take turns across the groups of a kind, and WORK_GROUP_LIMITS caps the running items of each group; default: none',
  })
  group?: string | null;
}

@InputType()
export class ClaimWorkItemsInput {
  @Field(() => [String], {
    description: `The kinds to claim from (1 to ${Limits.kindsPerClaimMax}); each kind with claimable items gets an equal share of the batch`,
  })
  kinds!: string[];

  @Field(() => String, { description: 'Who claims (1 to 200 characters): heartbeat and complete must name it' })
  workerId!: string;

  @Field(() => Int, { description: `At most this many items (1 to ${Limits.claimBatchMax})` })
  max!: number;

  @Field(() => Int, {
    nullable: true,
    description: `Each item's lease: default ${Limits.leaseDefaultSeconds}, 1 to ${Limits.leaseMaxSeconds} seconds, on the database clock`,
  })
  leaseSeconds?: number;
}

@InputType()
export class ClaimWorkItemInput {
  @Field(() => String, { description: 'Who claims (1 to 200 characters): heartbeat and complete must name it' })
  workerId!: string;

  @Field(() => ID, {
    nullable: true,
    description: 'Claim this item if it is claimable; without: the oldest available of `kinds`',
  })
  id?: string;

  @Field(() => Int, { nullable: true, description: 'With `id`: only at this version' })
  expectedVersion?: number;

  @Field(() => [String], { nullable: true, description: `At most ${Limits.kindsPerClaimMax} kinds; without: any kind` })
  kinds?: string[];

  @Field(() => Int, {
    nullable: true,
    description: `How long the item is yours: default ${Limits.leaseDefaultSeconds}, 1 to ${Limits.leaseMaxSeconds} seconds, on the database clock. Each heartbeat extends it by as long again; once it expires any worker may claim the item (one more attempt)`,
  })
  leaseSeconds?: number;
}

/** An item as its lease holder names it: the fencing token travels with every holder's call. */
@InputType()
abstract class HeldWorkItemInput {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { description: 'The workerId your claim used (1 to 200 characters)' })
  workerId!: string;

  @Field(() => Int, { description: 'The version your claim returned (the fencing token)' })
  version!: number;
}

@InputType()
export class HeartbeatWorkItemInput extends HeldWorkItemInput {}

@InputType()
export class CompleteWorkItemInput extends HeldWorkItemInput {
  @Field(() => CompletionOutcome)
  outcome!: CompletionOutcome;

  @Field(() => GraphQLJSON, {
    nullable: true,
    description: `Any JSON, at most ${Limits.resultMaxBytes} bytes serialized`,
  })
  result?: unknown;
}

@InputType()
export class HeartbeatWorkItemsInput {
  @Field(() => [HeartbeatWorkItemInput], {
    description: `1 to ${Limits.heartbeatBatchMax} items, each as heartbeatWorkItem takes it`,
  })
  items!: HeartbeatWorkItemInput[];
}

@InputType()
export class CompleteWorkItemsInput {
  @Field(() => [CompleteWorkItemInput], {
    description: `1 to ${Limits.completeBatchMax} items, each as completeWorkItem takes it`,
  })
  items!: CompleteWorkItemInput[];
}

@InputType()
export class RequeueWorkItemInput {
  @Field(() => ID)
  id!: string;

  @Field(() => Int, { description: 'The version you looked at (query workItem(id) { version } first)' })
  version!: number;
}

@InputType()
export class ScheduleWorkInput {
  @Field(() => String, {
    description: `The schedule's key (1 to ${ScheduleLimits.nameLengthMax} letters, digits or _.-): the same name with the same fields replays, with other fields is IdempotencyKeyReused`,
  })
  name!: string;

  @Field(() => String, { description: 'The kind of the item each period creates' })
  kind!: string;

  @Field(() => String, {
    description:
      '5 fields (minute hour day-of-month month day-of-week) or 6 (seconds first), e.g. "0 2 * * *" or "*/10 * * * * *"',
  })
  cron!: string;

  @Field(() => String, {
    nullable: true,
    description:
      'An IANA time zone the cron is read in (e.g. Europe/Paris); default UTC. Daylight-saving days follow cron-parser',
  })
  timeZone?: string | null;

  @Field(() => GraphQLJSON, {
    nullable: true,
    description: `The payload of each period's item; any JSON, at most ${Limits.payloadMaxBytes} bytes`,
  })
  payload?: unknown;

  @Field(() => CatchUp, {
    nullable: true,
    description: `Periods missed while no API process ran: LATEST (default) fires the latest one, ALL each (the latest ${ScheduleLimits.catchUpAllMax} at most), NONE none`,
  })
  catchUp?: CatchUp | null;
}

@InputType()
export class UnscheduleWorkInput {
  @Field(() => String)
  name!: string;
}
