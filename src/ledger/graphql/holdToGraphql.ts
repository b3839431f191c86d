// Hold results → GraphQL union members, one mapper per union, exhaustive by the compiler (as toGraphql.ts).
import { DuplicateReplayed } from '../../graphql/results/index.ts';
import type * as R from '../results.ts';
import {
  AuthorizeHoldSuccess,
  CaptureExceedsHold,
  CaptureHoldSuccess,
  HoldNotFound,
  HoldNotPending,
  VoidHoldSuccess,
} from './holdResults.ts';
import { toHold } from './holdTypes.ts';
import type { BalanceLimitExceeded, CurrencyMismatch, InsufficientFunds } from './results.ts';
import {
  balanceLimitExceeded,
  currencyMismatch,
  insufficientFunds,
  keyedRequestMember,
  type KeyedRequestMember,
} from './toGraphql.ts';
import { toAccount, toLedgerEntry } from './types.ts';

function authorizeHoldSuccess(result: R.AuthorizeHoldSuccess): AuthorizeHoldSuccess {
  return Object.assign(new AuthorizeHoldSuccess(), { hold: toHold(result.hold), account: toAccount(result.account) });
}

function captureHoldSuccess(result: R.CaptureHoldSuccess): CaptureHoldSuccess {
  return Object.assign(new CaptureHoldSuccess(), {
    hold: toHold(result.hold),
    entry: toLedgerEntry(result.entry),
    creditEntry: result.credit === null ? null : toLedgerEntry(result.credit),
    account: toAccount(result.account),
    toAccount: result.toAccount === null ? null : toAccount(result.toAccount),
  });
}

function voidHoldSuccess(result: R.VoidHoldSuccess): VoidHoldSuccess {
  return Object.assign(new VoidHoldSuccess(), { hold: toHold(result.hold), account: toAccount(result.account) });
}

function holdNotPending(result: R.HoldNotPending): HoldNotPending {
  return Object.assign(new HoldNotPending(), { holdId: result.holdId, status: result.status });
}

function holdNotFound(result: R.HoldNotFound): HoldNotFound {
  return Object.assign(new HoldNotFound(), { holdId: result.holdId });
}

function holdOutcome(
  result: R.HoldOutcomeResult,
): AuthorizeHoldSuccess | CaptureHoldSuccess | VoidHoldSuccess | InsufficientFunds {
  switch (result.kind) {
    case 'authorizeHoldSuccess':
      return authorizeHoldSuccess(result);
    case 'captureHoldSuccess':
      return captureHoldSuccess(result);
    case 'voidHoldSuccess':
      return voidHoldSuccess(result);
    case 'insufficientFunds':
      return insufficientFunds(result);
  }
}

function replayed(result: R.HoldReplayed): DuplicateReplayed {
  return Object.assign(new DuplicateReplayed(), {
    requestId: result.requestId,
    firstSeenAt: result.firstSeenAt,
    original: holdOutcome(result.original),
  });
}

export function toAuthorizeHoldResult(
  result: R.AuthorizeHoldResult,
): AuthorizeHoldSuccess | InsufficientFunds | DuplicateReplayed | KeyedRequestMember {
  switch (result.kind) {
    case 'authorizeHoldSuccess':
      return authorizeHoldSuccess(result);
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

export function toCaptureHoldResult(
  result: R.CaptureHoldResult,
):
  | CaptureHoldSuccess
  | HoldNotPending
  | CaptureExceedsHold
  | HoldNotFound
  | CurrencyMismatch
  | BalanceLimitExceeded
  | DuplicateReplayed
  | KeyedRequestMember {
  switch (result.kind) {
    case 'captureHoldSuccess':
      return captureHoldSuccess(result);
    case 'holdNotPending':
      return holdNotPending(result);
    case 'captureExceedsHold':
      return Object.assign(new CaptureExceedsHold(), {
        holdId: result.holdId,
        holdAmount: result.holdAmount,
        amount: result.amount,
      });
    case 'holdNotFound':
      return holdNotFound(result);
    case 'currencyMismatch':
      return currencyMismatch(result);
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

export function toVoidHoldResult(
  result: R.VoidHoldResult,
): VoidHoldSuccess | HoldNotPending | HoldNotFound | DuplicateReplayed | KeyedRequestMember {
  switch (result.kind) {
    case 'voidHoldSuccess':
      return voidHoldSuccess(result);
    case 'holdNotPending':
      return holdNotPending(result);
    case 'holdNotFound':
      return holdNotFound(result);
    case 'duplicateReplayed':
      return replayed(result);
    case 'idempotencyKeyReused':
    case 'requestInProgress':
    case 'outcomeUnknown':
      return keyedRequestMember(result);
  }
}
