// Service results → GraphQL union members, one to one. Class instances, so that type-graphql's
// unions resolve their member by `instanceof`.
import { DuplicateReplayed, IdempotencyKeyReused } from '../../graphql/results/index.ts';
import type * as R from '../results.ts';
import {
  AccountNotFound,
  BalanceLimitExceeded,
  BatchTooLarge,
  LinkedMoveFailed,
  CurrencyMismatch,
  DepositSuccess,
  InsufficientFunds,
  OpenAccountSuccess,
  OutcomeUnknown,
  RequestInProgress,
  SubmitMovesSuccess,
  TransferSuccess,
  WithdrawSuccess,
} from './results.ts';
import { toAccount, toLedgerEntry } from './types.ts';

type AnyResult = R.OpenAccountResult | R.DepositResult | R.WithdrawResult | R.TransferResult | R.MoveResult | R.SubmitMovesResult;

/** Maps any ledger service result to its GraphQL member; each mutation's union accepts its own subset. */
export function toGraphql(result: AnyResult): object {
  switch (result.kind) {
    case 'openAccountSuccess':
      return Object.assign(new OpenAccountSuccess(), { account: toAccount(result.account) });
    case 'depositSuccess':
      return Object.assign(new DepositSuccess(), { entry: toLedgerEntry(result.entry), account: toAccount(result.account) });
    case 'withdrawSuccess':
      return Object.assign(new WithdrawSuccess(), { entry: toLedgerEntry(result.entry), account: toAccount(result.account) });
    case 'transferSuccess':
      return Object.assign(new TransferSuccess(), {
        debit: toLedgerEntry(result.debit),
        credit: toLedgerEntry(result.credit),
        from: toAccount(result.from),
        to: toAccount(result.to),
      });
    case 'insufficientFunds':
      return Object.assign(new InsufficientFunds(), { accountId: result.accountId, balance: result.balance, amount: result.amount });
    case 'balanceLimitExceeded':
      return Object.assign(new BalanceLimitExceeded(), { accountId: result.accountId, balance: result.balance, amount: result.amount });
    case 'duplicateReplayed':
      return Object.assign(new DuplicateReplayed(), {
        requestId: result.requestId,
        firstSeenAt: result.firstSeenAt,
        original: toGraphql(result.original),
      });
    case 'idempotencyKeyReused':
      return Object.assign(new IdempotencyKeyReused(), { requestId: result.requestId });
    case 'accountNotFound':
      return Object.assign(new AccountNotFound(), { accountId: result.accountId });
    case 'requestInProgress':
      return Object.assign(new RequestInProgress(), { requestId: result.requestId, firstSeenAt: result.firstSeenAt });
    case 'outcomeUnknown':
      return Object.assign(new OutcomeUnknown(), { requestId: result.requestId, firstSeenAt: result.firstSeenAt });
    case 'linkedMoveFailed':
      return Object.assign(new LinkedMoveFailed(), { requestId: result.requestId });
    case 'batchTooLarge':
      return Object.assign(new BatchTooLarge(), { moves: result.moves, movesMax: result.movesMax });
    case 'submitMovesSuccess':
      return Object.assign(new SubmitMovesSuccess(), { results: result.results.map(toGraphql) });
    case 'currencyMismatch':
      return Object.assign(new CurrencyMismatch(), {
        fromAccountId: result.fromAccountId,
        fromCurrency: result.fromCurrency,
        toAccountId: result.toAccountId,
        toCurrency: result.toCurrency,
      });
  }
}
