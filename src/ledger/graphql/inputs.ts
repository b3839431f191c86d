// GraphQL input types; their values are validated again (ranges, sizes, formats) by the zod
// schemas in ../inputs.ts before the service sees them.
import { Field, InputType, Int, registerEnumType } from 'type-graphql';
import { JSONScalar, SafeInt } from '../../graphql/scalars.ts';
import { idLengthMax, LifecycleLimits } from '../limits.ts';

const requestIdDescription = `Your key for this movement (printable, at most ${idLengthMax} characters): the same key and parameters replay the first answer`;

@InputType()
export class OpenAccountInput {
  @Field(() => String, { description: 'Your id for the account; it is also the idempotency key of the opening' })
  accountId!: string;

  @Field(() => String, { description: 'ISO 4217 code, e.g. EUR' })
  currency!: string;
}

const referenceDescription = `Your reference for the move (an invoice or bank transaction id), at most ${LifecycleLimits.referenceLengthMax} characters: returned on its entries, found by ledgerEntries(reference:), part of what a replay must match`;
const metadataDescription = `A JSON object of your own, at most ${LifecycleLimits.metadataBytesMax} bytes and ${LifecycleLimits.metadataDepthMax} levels: returned on the move's entries, part of what a replay must match`;

/** What every money move may carry besides its parameters. */
@InputType()
abstract class AnnotatedInput {
  @Field(() => String, { nullable: true, description: referenceDescription })
  reference?: string | null;

  @Field(() => JSONScalar, { nullable: true, description: metadataDescription })
  metadata?: unknown;
}

/** The fields of a movement on one account; deposit and withdraw take exactly these. */
@InputType()
abstract class AccountMovementInput extends AnnotatedInput {
  @Field(() => String)
  accountId!: string;

  @Field(() => SafeInt, {
    description: 'Positive integer minor units (500 is 5.00 EUR), at most 2^53-1; a number, not a string',
  })
  amount!: number;

  @Field(() => String, { description: requestIdDescription })
  requestId!: string;
}

@InputType()
export class DepositInput extends AccountMovementInput {}

@InputType()
export class WithdrawInput extends AccountMovementInput {}

@InputType()
export class TransferInput extends AnnotatedInput {
  @Field(() => String)
  fromAccountId!: string;

  @Field(() => String)
  toAccountId!: string;

  @Field(() => SafeInt, {
    description: 'Positive integer minor units (500 is 5.00 EUR), at most 2^53-1; a number, not a string',
  })
  amount!: number;

  @Field(() => String, { description: requestIdDescription })
  requestId!: string;
}

/** The kinds of a batch's moves; GraphQL names on the left, the service's on the right. */
export const MoveKind = Object.freeze({ DEPOSIT: 'deposit', WITHDRAW: 'withdraw', TRANSFER: 'transfer' } as const);
export type MoveKind = (typeof MoveKind)[keyof typeof MoveKind];
registerEnumType(MoveKind, { name: 'MoveKind', description: 'What a move of submitMoves does' });

@InputType({ description: 'One move of submitMoves' })
export class MoveInput extends AnnotatedInput {
  @Field(() => MoveKind)
  kind!: MoveKind;

  @Field(() => String, { description: requestIdDescription })
  requestId!: string;

  @Field(() => String, { description: 'The account credited by a deposit, debited by a withdrawal or a transfer' })
  accountId!: string;

  @Field(() => String, { nullable: true, description: "A transfer's credited account; only for TRANSFER" })
  toAccountId?: string | null;

  @Field(() => SafeInt, { description: 'Positive integer minor units' })
  amount!: number;
}

@InputType()
export class SubmitMovesInput {
  @Field(() => Boolean, { description: 'true: every move applies or none does (LinkedMoveFailed for the others)' })
  atomic!: boolean;

  @Field(() => [MoveInput], { description: 'In order; each move is decided after the ones before it' })
  moves!: MoveInput[];
}

@InputType()
export class AuthorizeHoldInput extends AnnotatedInput {
  @Field(() => String, { description: requestIdDescription })
  requestId!: string;

  @Field(() => String)
  accountId!: string;

  @Field(() => SafeInt, {
    description: 'Positive integer minor units; the available balance (balance - held) must cover it',
  })
  amount!: number;

  @Field(() => Int, { description: "Seconds until the hold expires, on the database server's clock" })
  expiresInSeconds!: number;
}

@InputType()
export class CaptureHoldInput extends AnnotatedInput {
  @Field(() => String, { description: requestIdDescription })
  requestId!: string;

  @Field(() => String)
  holdId!: string;

  @Field(() => SafeInt, {
    nullable: true,
    description: 'At most the hold; absent: the whole hold. The rest is released',
  })
  amount?: number | null;

  @Field(() => String, {
    nullable: true,
    description: 'Credit this account (a transfer); absent: paid out as a withdrawal',
  })
  toAccountId?: string | null;
}

@InputType()
export class VoidHoldInput {
  @Field(() => String, { description: requestIdDescription })
  requestId!: string;

  @Field(() => String)
  holdId!: string;
}

@InputType()
export class ReverseMoveInput {
  @Field(() => String, { description: requestIdDescription })
  requestId!: string;

  @Field(() => String, { description: 'The requestId of the deposit or transfer to reverse' })
  originalRequestId!: string;

  @Field(() => SafeInt, {
    nullable: true,
    description: 'Positive integer minor units; absent: all that is left to reverse of the original',
  })
  amount?: number | null;
}

@InputType()
export class CloseAccountInput {
  @Field(() => String, { description: requestIdDescription })
  requestId!: string;

  @Field(() => String, { description: 'The account to close: it must hold no pending hold' })
  accountId!: string;

  @Field(() => String, {
    description: 'An open account of the same currency that receives the whole balance, in the same transaction',
  })
  transferBalanceTo!: string;
}
