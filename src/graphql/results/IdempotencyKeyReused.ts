import { Field, ObjectType } from 'type-graphql';

@ObjectType({ description: 'The key was already used with different parameters: refused, nothing was done' })
export class IdempotencyKeyReused {
  @Field(() => String, { description: 'The idempotency key that was reused' })
  requestId!: string;

  @Field(() => String, {
    nullable: true,
    description:
      'The first input field that differs from the first request with this key (currency, amount, operation, fromAccountId, toAccountId, kind, maxAttempts, payload); null when not known',
  })
  field!: string | null;

  @Field(() => String, { description: 'What differed, in words, e.g. "account acct-1 already exists in EUR; ..."' })
  detail!: string;
}
