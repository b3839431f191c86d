// GraphQL input types; their values are validated again (ranges, sizes, formats) by the zod
// schemas in ../inputs.ts before the service sees them.
import { Field, InputType } from 'type-graphql';
import { SafeInt } from '../../graphql/scalars.ts';
import { idLengthMax } from '../limits.ts';

const requestIdDescription = `Your key for this movement (printable, at most ${idLengthMax} characters): the same key and parameters replay the first answer`;

@InputType()
export class OpenAccountInput {
  @Field(() => String, { description: 'Your id for the account; it is also the idempotency key of the opening' })
  accountId!: string;

  @Field(() => String, { description: 'ISO 4217 code, e.g. EUR' })
  currency!: string;
}

/** The fields of a movement on one account; deposit and withdraw take exactly these. */
@InputType()
abstract class AccountMovementInput {
  @Field(() => String)
  accountId!: string;

  @Field(() => SafeInt, { description: 'Positive integer minor units (500 is 5.00 EUR), at most 2^53-1; a number, not a string' })
  amount!: number;

  @Field(() => String, { description: requestIdDescription })
  requestId!: string;
}

@InputType()
export class DepositInput extends AccountMovementInput {}

@InputType()
export class WithdrawInput extends AccountMovementInput {}

@InputType()
export class TransferInput {
  @Field(() => String)
  fromAccountId!: string;

  @Field(() => String)
  toAccountId!: string;

  @Field(() => SafeInt, { description: 'Positive integer minor units (500 is 5.00 EUR), at most 2^53-1; a number, not a string' })
  amount!: number;

  @Field(() => String, { description: requestIdDescription })
  requestId!: string;
}
