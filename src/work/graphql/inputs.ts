// GraphQL input types; their values are validated again (ranges, sizes, ids) by the zod schemas
// in ../inputs.ts before the service sees them.
import { GraphQLJSON } from 'graphql-scalars';
import { Field, ID, InputType, Int } from 'type-graphql';
import { CompletionOutcome } from '../model.ts';

@InputType()
export class CreateWorkItemInput {
  @Field(() => String)
  kind!: string;

  @Field(() => GraphQLJSON, { nullable: true })
  payload?: unknown;

  @Field(() => String, { description: 'Your key: the same key and parameters replay the first answer' })
  idempotencyKey!: string;

  @Field(() => Int, { nullable: true })
  maxAttempts?: number;
}

@InputType()
export class ClaimWorkItemInput {
  @Field(() => String)
  workerId!: string;

  @Field(() => ID, { nullable: true, description: 'Claim this item if it is claimable; without: the oldest available of `kinds`' })
  id?: string;

  @Field(() => Int, { nullable: true, description: 'With `id`: only at this version' })
  expectedVersion?: number;

  @Field(() => [String], { nullable: true })
  kinds?: string[];

  @Field(() => Int, { nullable: true })
  leaseSeconds?: number;
}

/** An item as its lease holder names it: the fencing token travels with every holder's call. */
@InputType()
abstract class HeldWorkItemInput {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
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

  @Field(() => GraphQLJSON, { nullable: true })
  result?: unknown;
}

@InputType()
export class RequeueWorkItemInput {
  @Field(() => ID)
  id!: string;

  @Field(() => Int, { description: 'The version you looked at' })
  version!: number;
}
