import { Field, ObjectType } from 'type-graphql';

@ObjectType({ description: 'The key was already used with different parameters: refused, nothing was done' })
export class IdempotencyKeyReused {
  @Field(() => String, { description: 'The idempotency key that was reused' })
  requestId!: string;
}
