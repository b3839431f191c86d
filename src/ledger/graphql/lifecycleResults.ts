// The life cycle's result unions (reverseMove, closeAccount) and their mappers: member names are
// the contract (docs/design.md); one mapper per union, a switch the compiler checks is complete.
import { createUnionType, Field, ID, ObjectType } from 'type-graphql';
import { DuplicateReplayed, IdempotencyKeyReused, registerReplayableOutcome } from '../../graphql/results/index.ts';
import { SafeInt } from '../../graphql/scalars.ts';
import type * as R from '../results.ts';
import {
  AccountClosed,
  AccountNotFound,
  CurrencyMismatch,
  InsufficientFunds,
  OutcomeUnknown,
  RequestInProgress,
} from './results.ts';
import { currencyMismatch, insufficientFunds, keyedRequestMember } from './toGraphql.ts';
import { Account, LedgerEntry, toAccount, toLedgerEntry } from './types.ts';

@ObjectType({ description: 'The reversal applied: the money went back the way the original came' })
export class ReverseMoveSuccess {
  @Field(() => String)
  originalRequestId!: string;

  @Field(() => SafeInt, { description: 'What this reversal moved back' })
  amount!: number;

  @Field(() => SafeInt, { description: 'What the original moved' })
  originalAmount!: number;

  @Field(() => SafeInt, {
    description: "The original's total reversed, this reversal included; never above originalAmount",
  })
  reversedAmount!: number;

  @Field(() => LedgerEntry, {
    description: "Out of the account the original credited (depositReversal, or a transfer reversal's transferOut)",
  })
  entry!: LedgerEntry;

  @Field(() => LedgerEntry, {
    nullable: true,
    description: "Into the account the original debited (a transfer's reversal only)",
  })
  creditEntry!: LedgerEntry | null;

  @Field(() => Account, { description: 'The account the money left, right after the reversal' })
  account!: Account;

  @Field(() => Account, {
    nullable: true,
    description: "The account the money returned to (a transfer's reversal only), right after it",
  })
  toAccount!: Account | null;
}

@ObjectType({ description: 'No move was ever recorded under this requestId; nothing was recorded' })
export class MoveNotFound {
  @Field(() => String)
  requestId!: string;
}

@ObjectType({
  description:
    'The original is not a deposit or transfer that moved money; `detail` says what to do instead. Nothing was recorded',
})
export class NotReversible {
  @Field(() => String)
  originalRequestId!: string;

  @Field(() => String, { description: "The original's operation (withdraw, reverseMove, ...)" })
  operation!: string;

  @Field(() => String)
  detail!: string;
}

@ObjectType({
  description:
    'The reversal would take back more than the original moved, counting every earlier reversal of it. Nothing was recorded',
})
export class ReversalExceedsOriginal {
  @Field(() => String)
  originalRequestId!: string;

  @Field(() => SafeInt)
  originalAmount!: number;

  @Field(() => SafeInt, { description: 'Reversed of it so far' })
  reversedAmount!: number;

  @Field(() => SafeInt, { description: 'What this reversal asked (0: nothing was left)' })
  amount!: number;
}

@ObjectType({ description: 'The account still has pending holds: capture or void them first. Nothing was recorded' })
export class AccountHasHolds {
  @Field(() => ID)
  accountId!: string;

  @Field(() => SafeInt, { description: 'The sum of its pending holds' })
  held!: number;
}

@ObjectType({
  description: 'The account is CLOSED with balance 0; its whole balance went to transferredTo in the same transaction',
})
export class CloseAccountSuccess {
  @Field(() => Account, { description: 'The closed account, right after the close' })
  account!: Account;

  @Field(() => SafeInt)
  movedAmount!: number;

  @Field(() => Account, { description: 'The receiving account right after the close' })
  transferredTo!: Account;

  @Field(() => LedgerEntry, {
    nullable: true,
    description: "The closed account's transferOut; null when there was nothing to move",
  })
  debitEntry!: LedgerEntry | null;

  @Field(() => LedgerEntry, {
    nullable: true,
    description: "transferBalanceTo's transferIn; null when there was nothing to move",
  })
  creditEntry!: LedgerEntry | null;
}

registerReplayableOutcome(ReverseMoveSuccess, CloseAccountSuccess);

export const ReverseMoveResult = createUnionType({
  name: 'ReverseMoveResult',
  types: () =>
    [
      ReverseMoveSuccess,
      MoveNotFound,
      NotReversible,
      ReversalExceedsOriginal,
      InsufficientFunds,
      AccountClosed,
      DuplicateReplayed,
      IdempotencyKeyReused,
      RequestInProgress,
      OutcomeUnknown,
    ] as const,
});

export const CloseAccountResult = createUnionType({
  name: 'CloseAccountResult',
  types: () =>
    [
      CloseAccountSuccess,
      AccountNotFound,
      AccountHasHolds,
      CurrencyMismatch,
      AccountClosed,
      DuplicateReplayed,
      IdempotencyKeyReused,
      RequestInProgress,
      OutcomeUnknown,
    ] as const,
});

function reverseMoveSuccess(result: R.ReverseMoveSuccess): ReverseMoveSuccess {
  return Object.assign(new ReverseMoveSuccess(), {
    originalRequestId: result.originalRequestId,
    amount: result.amount,
    originalAmount: result.originalAmount,
    reversedAmount: result.reversedAmount,
    entry: toLedgerEntry(result.debit),
    creditEntry: result.credit === null ? null : toLedgerEntry(result.credit),
    account: toAccount(result.from),
    toAccount: result.to === null ? null : toAccount(result.to),
  });
}

function closeAccountSuccess(result: R.CloseAccountSuccess): CloseAccountSuccess {
  return Object.assign(new CloseAccountSuccess(), {
    account: toAccount(result.account),
    movedAmount: result.movedAmount,
    transferredTo: toAccount(result.transferredTo),
    debitEntry: result.debit === null ? null : toLedgerEntry(result.debit),
    creditEntry: result.credit === null ? null : toLedgerEntry(result.credit),
  });
}

function lifecycleOutcome(
  result: R.LifecycleOutcomeResult,
): ReverseMoveSuccess | CloseAccountSuccess | InsufficientFunds {
  switch (result.kind) {
    case 'reverseMoveSuccess':
      return reverseMoveSuccess(result);
    case 'closeAccountSuccess':
      return closeAccountSuccess(result);
    case 'insufficientFunds':
      return insufficientFunds(result);
  }
}

function replayed(result: R.LifecycleReplayed): DuplicateReplayed {
  return Object.assign(new DuplicateReplayed(), {
    requestId: result.requestId,
    firstSeenAt: result.firstSeenAt,
    original: lifecycleOutcome(result.original),
  });
}

export function toReverseMoveResult(
  result: R.ReverseMoveResult,
):
  | ReverseMoveSuccess
  | MoveNotFound
  | NotReversible
  | ReversalExceedsOriginal
  | InsufficientFunds
  | DuplicateReplayed
  | ReturnType<typeof keyedRequestMember> {
  switch (result.kind) {
    case 'reverseMoveSuccess':
      return reverseMoveSuccess(result);
    case 'moveNotFound':
      return Object.assign(new MoveNotFound(), { requestId: result.requestId });
    case 'notReversible':
      return Object.assign(new NotReversible(), {
        originalRequestId: result.originalRequestId,
        operation: result.operation,
        detail: result.detail,
      });
    case 'reversalExceedsOriginal':
      return Object.assign(new ReversalExceedsOriginal(), {
        originalRequestId: result.originalRequestId,
        originalAmount: result.originalAmount,
        reversedAmount: result.reversedAmount,
        amount: result.amount,
      });
    case 'insufficientFunds':
      return insufficientFunds(result);
    case 'duplicateReplayed':
      return replayed(result);
    case 'accountClosed':
    case 'idempotencyKeyReused':
    case 'requestInProgress':
    case 'outcomeUnknown':
      return keyedRequestMember(result);
  }
}

export function toCloseAccountResult(
  result: R.CloseAccountResult,
):
  | CloseAccountSuccess
  | AccountHasHolds
  | CurrencyMismatch
  | DuplicateReplayed
  | ReturnType<typeof keyedRequestMember> {
  switch (result.kind) {
    case 'closeAccountSuccess':
      return closeAccountSuccess(result);
    case 'accountHasHolds':
      return Object.assign(new AccountHasHolds(), { accountId: result.accountId, held: result.held });
    case 'currencyMismatch':
      return currencyMismatch(result);
    case 'duplicateReplayed':
      return replayed(result);
    case 'accountNotFound':
    case 'accountClosed':
    case 'idempotencyKeyReused':
    case 'requestInProgress':
    case 'outcomeUnknown':
      return keyedRequestMember(result);
  }
}
