// Service results → GraphQL union members, one to one: one mapper per result union, each a switch
// over that union's members with its return type spelled out, so the compiler refuses a member
// left unmapped (the function would return undefined) or mapped onto a member the union lacks.
// Class instances, so that type-graphql's unions resolve their member by `instanceof`.
import { DuplicateReplayed, IdempotencyKeyReused } from '../../graphql/results/index.ts';
import type * as R from '../results.ts';
import {
  AccountClosed,
  AccountNotFound,
  BalanceLimitExceeded,
  BatchTooLarge,
  CurrencyMismatch,
  DepositSuccess,
  InsufficientFunds,
  LinkedMoveFailed,
  OpenAccountSuccess,
  OutcomeUnknown,
  RequestInProgress,
  SubmitMovesSuccess,
  TransferSuccess,
  WithdrawSuccess,
} from './results.ts';
import { toAccount, toLedgerEntry } from './types.ts';

/** The members every keyed request's union shares (not found, closed, in progress, unknown, key reused). */
export type KeyedRequestMember =
  | AccountNotFound
  | AccountClosed
  | RequestInProgress
  | OutcomeUnknown
  | IdempotencyKeyReused;

function openAccountSuccess(result: R.OpenAccountSuccess): OpenAccountSuccess {
  return Object.assign(new OpenAccountSuccess(), { account: toAccount(result.account) });
}

function depositSuccess(result: R.DepositSuccess): DepositSuccess {
  return Object.assign(new DepositSuccess(), {
    entry: toLedgerEntry(result.entry),
    account: toAccount(result.account),
  });
}

function withdrawSuccess(result: R.WithdrawSuccess): WithdrawSuccess {
  return Object.assign(new WithdrawSuccess(), {
    entry: toLedgerEntry(result.entry),
    account: toAccount(result.account),
  });
}

function transferSuccess(result: R.TransferSuccess): TransferSuccess {
  return Object.assign(new TransferSuccess(), {
    debit: toLedgerEntry(result.debit),
    credit: toLedgerEntry(result.credit),
    from: toAccount(result.from),
    to: toAccount(result.to),
  });
}

export function insufficientFunds(result: R.InsufficientFunds): InsufficientFunds {
  return Object.assign(new InsufficientFunds(), {
    accountId: result.accountId,
    balance: result.balance,
    amount: result.amount,
  });
}

export function balanceLimitExceeded(result: R.BalanceLimitExceeded): BalanceLimitExceeded {
  return Object.assign(new BalanceLimitExceeded(), {
    accountId: result.accountId,
    balance: result.balance,
    amount: result.amount,
  });
}

export function currencyMismatch(result: R.CurrencyMismatch): CurrencyMismatch {
  return Object.assign(new CurrencyMismatch(), {
    fromAccountId: result.fromAccountId,
    fromCurrency: result.fromCurrency,
    toAccountId: result.toAccountId,
    toCurrency: result.toCurrency,
  });
}

/** The first decisive outcome, as a replay repeats it. */
function replayableOutcome(
  result: R.ReplayableOutcome,
): OpenAccountSuccess | DepositSuccess | WithdrawSuccess | TransferSuccess | InsufficientFunds {
  switch (result.kind) {
    case 'openAccountSuccess':
      return openAccountSuccess(result);
    case 'depositSuccess':
      return depositSuccess(result);
    case 'withdrawSuccess':
      return withdrawSuccess(result);
    case 'transferSuccess':
      return transferSuccess(result);
    case 'insufficientFunds':
      return insufficientFunds(result);
  }
}

function replayed(result: R.DuplicateReplayed): DuplicateReplayed {
  return Object.assign(new DuplicateReplayed(), {
    requestId: result.requestId,
    firstSeenAt: result.firstSeenAt,
    original: replayableOutcome(result.original),
  });
}

/** The members every keyed request's union shares, from the service result they map from. */
export function keyedRequestMember(
  result: R.AccountNotFound | R.AccountClosed | R.RequestInProgress | R.OutcomeUnknown | R.IdempotencyKeyReused,
): KeyedRequestMember {
  switch (result.kind) {
    case 'accountClosed':
      return Object.assign(new AccountClosed(), { accountId: result.accountId, closedAt: result.closedAt });
    case 'accountNotFound':
      return Object.assign(new AccountNotFound(), { accountId: result.accountId });
    case 'requestInProgress':
      return Object.assign(new RequestInProgress(), { requestId: result.requestId, firstSeenAt: result.firstSeenAt });
    case 'outcomeUnknown':
      return Object.assign(new OutcomeUnknown(), { requestId: result.requestId, firstSeenAt: result.firstSeenAt });
    case 'idempotencyKeyReused':
      return Object.assign(new IdempotencyKeyReused(), {
        requestId: result.requestId,
        field: result.field,
        detail: result.detail,
      });
  }
}

export function toOpenAccountResult(
  result: R.OpenAccountResult,
): OpenAccountSuccess | DuplicateReplayed | IdempotencyKeyReused {
  switch (result.kind) {
    case 'openAccountSuccess':
      return openAccountSuccess(result);
    case 'duplicateReplayed':
      return replayed(result);
    case 'idempotencyKeyReused':
      return Object.assign(new IdempotencyKeyReused(), {
        requestId: result.requestId,
        field: result.field,
        detail: result.detail,
      });
  }
}

export function toDepositResult(
  result: R.DepositResult,
): DepositSuccess | BalanceLimitExceeded | DuplicateReplayed | KeyedRequestMember {
  switch (result.kind) {
    case 'depositSuccess':
      return depositSuccess(result);
    case 'balanceLimitExceeded':
      return balanceLimitExceeded(result);
    case 'duplicateReplayed':
      return replayed(result);
    case 'idempotencyKeyReused':
    case 'accountNotFound':
    case 'accountClosed':
    case 'requestInProgress':
    case 'outcomeUnknown':
      return keyedRequestMember(result);
  }
}

export function toWithdrawResult(
  result: R.WithdrawResult,
): WithdrawSuccess | InsufficientFunds | DuplicateReplayed | KeyedRequestMember {
  switch (result.kind) {
    case 'withdrawSuccess':
      return withdrawSuccess(result);
    case 'insufficientFunds':
      return insufficientFunds(result);
    case 'duplicateReplayed':
      return replayed(result);
    case 'idempotencyKeyReused':
    case 'accountNotFound':
    case 'accountClosed':
    case 'requestInProgress':
    case 'outcomeUnknown':
      return keyedRequestMember(result);
  }
}

export function toTransferResult(
  result: R.TransferResult,
):
  | TransferSuccess
  | InsufficientFunds
  | BalanceLimitExceeded
  | CurrencyMismatch
  | DuplicateReplayed
  | KeyedRequestMember {
  switch (result.kind) {
    case 'transferSuccess':
      return transferSuccess(result);
    case 'insufficientFunds':
      return insufficientFunds(result);
    case 'balanceLimitExceeded':
      return balanceLimitExceeded(result);
    case 'currencyMismatch':
      return currencyMismatch(result);
    case 'duplicateReplayed':
      return replayed(result);
    case 'idempotencyKeyReused':
    case 'accountNotFound':
    case 'accountClosed':
    case 'requestInProgress':
    case 'outcomeUnknown':
      return keyedRequestMember(result);
  }
}

/** One move of a batch: what its deposit, withdraw or transfer would answer, or LinkedMoveFailed. */
export function toMoveResult(
  result: R.MoveResult,
): ReturnType<typeof toTransferResult> | DepositSuccess | WithdrawSuccess | LinkedMoveFailed {
  switch (result.kind) {
    case 'depositSuccess':
      return depositSuccess(result);
    case 'withdrawSuccess':
      return withdrawSuccess(result);
    case 'linkedMoveFailed':
      return Object.assign(new LinkedMoveFailed(), { requestId: result.requestId });
    default:
      return toTransferResult(result);
  }
}

export function toSubmitMovesResult(result: R.SubmitMovesResult): SubmitMovesSuccess | BatchTooLarge {
  switch (result.kind) {
    case 'submitMovesSuccess':
      return Object.assign(new SubmitMovesSuccess(), { results: result.results.map(toMoveResult) });
    case 'batchTooLarge':
      return Object.assign(new BatchTooLarge(), { moves: result.moves, movesMax: result.movesMax });
  }
}
