// The result unions of docs/design.md's contract table; member names are the contract.
import { createUnionType, Field, ID, Int, ObjectType } from 'type-graphql';
import { DuplicateReplayed, IdempotencyKeyReused, registerReplayableOutcome } from '../../graphql/results/index.ts';
import { DateTime, SafeInt } from '../../graphql/scalars.ts';
import { Account, LedgerEntry } from './types.ts';

const accountAfterDescription = 'The account as it stood right after this write (the same on every replay)';

@ObjectType()
export class OpenAccountSuccess {
  @Field(() => Account, { description: accountAfterDescription })
  account!: Account;
}

@ObjectType()
export class DepositSuccess {
  @Field(() => LedgerEntry)
  entry!: LedgerEntry;

  @Field(() => Account, { description: accountAfterDescription })
  account!: Account;
}

@ObjectType()
export class WithdrawSuccess {
  @Field(() => LedgerEntry)
  entry!: LedgerEntry;

  @Field(() => Account, { description: accountAfterDescription })
  account!: Account;
}

@ObjectType({ description: 'Both legs of a transfer, each with its account right after it' })
export class TransferSuccess {
  @Field(() => LedgerEntry)
  debit!: LedgerEntry;

  @Field(() => LedgerEntry)
  credit!: LedgerEntry;

  @Field(() => Account)
  from!: Account;

  @Field(() => Account)
  to!: Account;
}

/**
 * What a refusal says of the account it was decided on, shared by every refusal type. No field
 * returns this class, so the schema has no type of its name: only its subclasses inherit its fields.
 */
@ObjectType()
export abstract class RefusalFields {
  @Field(() => ID)
  accountId!: string;

  @Field(() => SafeInt, { description: 'The balance when the request was decided' })
  balance!: number;

  @Field(() => SafeInt)
  amount!: number;
}

@ObjectType({ description: 'Refused: the balance did not cover the amount. Final for this requestId; nothing moved' })
export class InsufficientFunds extends RefusalFields {}

@ObjectType({
  description: 'Refused: the credit would take the balance past 2^53-1. Nothing moved and nothing was recorded',
})
export class BalanceLimitExceeded extends RefusalFields {}

@ObjectType({ description: 'No such account; nothing was recorded, so the same requestId may be used again' })
export class AccountNotFound {
  @Field(() => ID)
  accountId!: string;
}

@ObjectType({
  description:
    'Not decided yet: another move held the account or this requestId (a first attempt still running) for longer than the server retries; ask again with the same requestId',
})
export class RequestInProgress {
  @Field(() => String)
  requestId!: string;

  @Field(() => DateTime)
  firstSeenAt!: Date;
}

@ObjectType({
  description:
    'The server could not learn the outcome after retrying with the same key; retry with the same requestId (never a new one) to get it. It never applies twice.',
})
export class OutcomeUnknown {
  @Field(() => String)
  requestId!: string;

  @Field(() => DateTime)
  firstSeenAt!: Date;
}

@ObjectType({
  description:
    'The account is closed (closeAccount): no move, hold or reversal applies to it. Nothing moved and nothing was recorded',
})
export class AccountClosed {
  @Field(() => ID)
  accountId!: string;

  @Field(() => DateTime, { nullable: true })
  closedAt!: Date | null;
}

@ObjectType({ description: 'The two accounts hold different currencies; nothing was recorded' })
export class CurrencyMismatch {
  @Field(() => ID)
  fromAccountId!: string;

  @Field(() => String)
  fromCurrency!: string;

  @Field(() => ID)
  toAccountId!: string;

  @Field(() => String)
  toCurrency!: string;
}

@ObjectType({
  description:
    'A move of an atomic batch that would have applied, had another move of the batch not failed. Nothing of the batch was written',
})
export class LinkedMoveFailed {
  @Field(() => String)
  requestId!: string;
}

@ObjectType({ description: 'The batch carries more moves than one request may; nothing was looked at or written' })
export class BatchTooLarge {
  @Field(() => Int)
  moves!: number;

  @Field(() => Int)
  movesMax!: number;
}

registerReplayableOutcome(OpenAccountSuccess, DepositSuccess, WithdrawSuccess, TransferSuccess, InsufficientFunds);

export const OpenAccountResult = createUnionType({
  name: 'OpenAccountResult',
  types: () => [OpenAccountSuccess, DuplicateReplayed, IdempotencyKeyReused] as const,
});
export const DepositResult = createUnionType({
  name: 'DepositResult',
  types: () =>
    [
      DepositSuccess,
      BalanceLimitExceeded,
      DuplicateReplayed,
      IdempotencyKeyReused,
      AccountNotFound,
      AccountClosed,
      RequestInProgress,
      OutcomeUnknown,
    ] as const,
});
export const WithdrawResult = createUnionType({
  name: 'WithdrawResult',
  types: () =>
    [
      WithdrawSuccess,
      InsufficientFunds,
      DuplicateReplayed,
      IdempotencyKeyReused,
      AccountNotFound,
      AccountClosed,
      RequestInProgress,
      OutcomeUnknown,
    ] as const,
});
export const TransferResult = createUnionType({
  name: 'TransferResult',
  types: () =>
    [
      TransferSuccess,
      InsufficientFunds,
      BalanceLimitExceeded,
      CurrencyMismatch,
      DuplicateReplayed,
      IdempotencyKeyReused,
      AccountNotFound,
      AccountClosed,
      RequestInProgress,
      OutcomeUnknown,
    ] as const,
});

export const MoveResult = createUnionType({
  name: 'MoveResult',
  description: 'One move of a batch: what deposit, withdraw or transfer would answer, or LinkedMoveFailed',
  types: () =>
    [
      DepositSuccess,
      WithdrawSuccess,
      TransferSuccess,
      InsufficientFunds,
      BalanceLimitExceeded,
      CurrencyMismatch,
      DuplicateReplayed,
      IdempotencyKeyReused,
      AccountNotFound,
      AccountClosed,
      RequestInProgress,
      OutcomeUnknown,
      LinkedMoveFailed,
    ] as const,
});

@ObjectType({ description: 'One result per move, in the order of the moves' })
export class SubmitMovesSuccess {
  @Field(() => [MoveResult])
  results!: object[];
}

export const SubmitMovesResult = createUnionType({
  name: 'SubmitMovesResult',
  types: () => [SubmitMovesSuccess, BatchTooLarge] as const,
});
