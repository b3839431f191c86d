// The hold mutations' result unions (DESIGN's contract table; member names are the contract).
import { createUnionType, Field, ID, ObjectType } from 'type-graphql';
import { DuplicateReplayed, IdempotencyKeyReused, registerReplayableOutcome } from '../../graphql/results/index.ts';
import { SafeInt } from '../../graphql/scalars.ts';
import type { HoldStatusName } from '../results.ts';
import { Hold, HoldStatus } from './holdTypes.ts';
import {
  AccountClosed,
  AccountNotFound,
  BalanceLimitExceeded,
  CurrencyMismatch,
  InsufficientFunds,
  OutcomeUnknown,
  RequestInProgress,
} from './results.ts';
import { Account, LedgerEntry } from './types.ts';

const asDecided = 'as this decision left it (the same on every replay)';

@ObjectType({ description: 'The amount is reserved: held on the account until captured, voided or expired' })
export class AuthorizeHoldSuccess {
  @Field(() => Hold, { description: `The hold ${asDecided}` })
  hold!: Hold;

  @Field(() => Account, { description: `The account ${asDecided}` })
  account!: Account;
}

@ObjectType({
  description:
    'Captured: the amount left the account (a withdrawal, or a transfer with toAccountId) and the rest of the hold was released',
})
export class CaptureHoldSuccess {
  @Field(() => Hold, { description: `The hold ${asDecided}` })
  hold!: Hold;

  @Field(() => LedgerEntry, {
    description: "The debit: a withdrawal (paid out like any other) or a transfer's out leg",
  })
  entry!: LedgerEntry;

  @Field(() => LedgerEntry, { nullable: true, description: "A transfer's in leg; null for a withdrawal" })
  creditEntry!: LedgerEntry | null;

  @Field(() => Account, { description: `The hold's account ${asDecided}` })
  account!: Account;

  @Field(() => Account, { nullable: true, description: `The credited account ${asDecided}; null for a withdrawal` })
  toAccount!: Account | null;
}

@ObjectType({ description: 'Voided: the whole hold was released' })
export class VoidHoldSuccess {
  @Field(() => Hold, { description: `The hold ${asDecided}` })
  hold!: Hold;

  @Field(() => Account, { description: `The account ${asDecided}` })
  account!: Account;
}

@ObjectType({
  description:
    'The hold was already captured, voided or expired (its final status); nothing changed and nothing was recorded',
})
export class HoldNotPending {
  @Field(() => ID)
  holdId!: string;

  @Field(() => HoldStatus)
  status!: Exclude<HoldStatusName, 'PENDING'>;
}

@ObjectType({ description: 'The capture asked more than the hold reserves; nothing changed and nothing was recorded' })
export class CaptureExceedsHold {
  @Field(() => ID)
  holdId!: string;

  @Field(() => SafeInt, { description: 'What the hold reserves' })
  holdAmount!: number;

  @Field(() => SafeInt, { description: 'What the capture asked' })
  amount!: number;
}

@ObjectType({ description: 'No such hold; nothing was recorded' })
export class HoldNotFound {
  @Field(() => ID)
  holdId!: string;
}

registerReplayableOutcome(AuthorizeHoldSuccess, CaptureHoldSuccess, VoidHoldSuccess);

export const AuthorizeHoldResult = createUnionType({
  name: 'AuthorizeHoldResult',
  types: () =>
    [
      AuthorizeHoldSuccess,
      InsufficientFunds,
      DuplicateReplayed,
      IdempotencyKeyReused,
      AccountNotFound,
      AccountClosed,
      RequestInProgress,
      OutcomeUnknown,
    ] as const,
});
export const CaptureHoldResult = createUnionType({
  name: 'CaptureHoldResult',
  types: () =>
    [
      CaptureHoldSuccess,
      HoldNotPending,
      CaptureExceedsHold,
      HoldNotFound,
      CurrencyMismatch,
      AccountNotFound,
      AccountClosed,
      BalanceLimitExceeded,
      DuplicateReplayed,
      IdempotencyKeyReused,
      RequestInProgress,
      OutcomeUnknown,
    ] as const,
});
export const VoidHoldResult = createUnionType({
  name: 'VoidHoldResult',
  types: () =>
    [
      VoidHoldSuccess,
      HoldNotPending,
      HoldNotFound,
      DuplicateReplayed,
      IdempotencyKeyReused,
      RequestInProgress,
      OutcomeUnknown,
    ] as const,
});
