import type { Db } from 'mongodb';
import type {
  AccountsPageInput,
  DepositInput,
  EntriesPageInput,
  OpenAccountInput,
  TransferInput,
  WithdrawInput,
} from './inputs.ts';
import { accountPreconditions, type AccountPreconditions } from './accountFilters.ts';
import { reportingCollections, writeCollections } from './model.ts';
import { openAccount } from './openAccount.ts';
import * as queries from './queries.ts';
import { AccountTurns, type LedgerDeps, moveMoney, type MoveResult, requestRules, type RequestRules } from './moneyMove.ts';
import type { DepositResult, OpenAccountResult, TransferResult, WithdrawResult } from './results.ts';
import type { LedgerTelemetry } from './telemetry.ts';

export interface LedgerServiceOptions {
  db: Db;
  telemetry: LedgerTelemetry;
}

/** The parts the ledger is built from; production's are fixed by `createLedgerService`. */
export interface LedgerServiceParts extends LedgerServiceOptions {
  /** The account filters every move writes under. */
  preconditions: AccountPreconditions;
  /** How requests are keyed and recognised. */
  rules: RequestRules;
}

export type LedgerService = ReturnType<typeof ledgerServiceFrom>;

/** The ledger's operations over one database. Inputs must already be parsed by ./inputs.ts. */
export function createLedgerService(options: LedgerServiceOptions): LedgerService {
  return ledgerServiceFrom({ db: options.db, telemetry: options.telemetry, preconditions: accountPreconditions, rules: requestRules });
}

/**
 * The ledger from its parts. Not exported by the feature's index: only src/testing uses it, to
 * build the mutants the meta-tests prove the race tests against.
 */
export function ledgerServiceFrom(parts: LedgerServiceParts) {
  const { db, telemetry } = parts;
  const deps: LedgerDeps = {
    client: db.client,
    // The service is built once per app (src/app/createApp.ts), so its turns span every move of the process.
    turns: new AccountTurns(),
    collections: writeCollections(db),
    preconditions: parts.preconditions,
    rules: parts.rules,
    telemetry,
  };
  telemetry.countPendingIn(deps.collections.requests);
  const reporting = reportingCollections(db);
  const report = <R extends { kind: string }>(op: string, result: R): R => {
    telemetry.outcome(op, result.kind);
    return result;
  };

  return Object.freeze({
    async openAccount(input: OpenAccountInput): Promise<OpenAccountResult> {
      return report('openAccount', await openAccount(deps.collections.accounts, input));
    },
    async deposit(input: DepositInput): Promise<DepositResult> {
      const result = await moveMoney(deps, { op: 'deposit', requestId: input.requestId, fromAccountId: null, toAccountId: input.accountId, amount: input.amount });
      return report('deposit', asDepositResult(result));
    },
    async withdraw(input: WithdrawInput): Promise<WithdrawResult> {
      const result = await moveMoney(deps, { op: 'withdraw', requestId: input.requestId, fromAccountId: input.accountId, toAccountId: null, amount: input.amount });
      return report('withdraw', asWithdrawResult(result));
    },
    async transfer(input: TransferInput): Promise<TransferResult> {
      const result = await moveMoney(deps, { op: 'transfer', ...input });
      return report('transfer', asTransferResult(result));
    },
    accountsByIds: (ids: readonly string[]) => queries.accountsByIds(reporting, ids),
    listAccounts: (page: AccountsPageInput) => queries.listAccounts(reporting, page),
    listEntries: (page: EntriesPageInput) => queries.listEntries(reporting, page),
    entryByRequest: (requestId: string) => queries.entryByRequest(reporting, requestId),
  });
}

function asDepositResult(result: MoveResult): DepositResult {
  if (result.kind === 'insufficientFunds' || result.kind === 'currencyMismatch' || result.kind === 'withdrawSuccess' || result.kind === 'transferSuccess') {
    throw new Error(`invariant: a deposit answered ${result.kind}`);
  }
  return result;
}

function asWithdrawResult(result: MoveResult): WithdrawResult {
  if (result.kind === 'currencyMismatch' || result.kind === 'balanceLimitExceeded' || result.kind === 'depositSuccess' || result.kind === 'transferSuccess') {
    throw new Error(`invariant: a withdrawal answered ${result.kind}`);
  }
  return result;
}

function asTransferResult(result: MoveResult): TransferResult {
  if (result.kind === 'depositSuccess' || result.kind === 'withdrawSuccess') {
    throw new Error(`invariant: a transfer answered ${result.kind}`);
  }
  return result;
}
