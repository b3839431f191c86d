import type { Db } from 'mongodb';
import type {
  AccountsPageInput,
  AuthorizeHoldInput,
  BalanceHistoryInput,
  CloseAccountInput,
  ReverseMoveInput,
  CaptureHoldInput,
  HoldsPageInput,
  VoidHoldInput,
  DepositInput,
  EntriesPageInput,
  OpenAccountInput,
  MoveInput,
  SubmitMovesInput,
  TransferInput,
  WithdrawInput,
} from './inputs.ts';
import { accountPreconditions, type AccountPreconditions } from './accountFilters.ts';
import { reportingCollections, writeCollections } from './model.ts';
import { holdReportingCollections, holdWriteCollections } from './holdModel.ts';
import * as holdQueries from './holdQueries.ts';
import { holdRules, type HoldRules } from './holdRules.ts';
import { authorizeHold, captureHold, type HoldDeps, voidHold } from './holds.ts';
import { HoldSweeper, type HoldSweeperOptions, sweepExpiredHolds } from './holdSweeper.ts';
import { openAccount } from './openAccount.ts';
import { closeAccount, type LifecycleDeps, reverseMove } from './lifecycle.ts';
import { lifecycleRules, type LifecycleRules } from './lifecycleRules.ts';
import * as queries from './queries.ts';
import { type BatchAnswer, moveMoney, submitMoves } from './groupCommit.ts';
import { groupPolicy, type GroupPolicy } from './groupDecision.ts';
import { MoveDispatch } from './moveDispatch.ts';
import { groupsInFlightMax, submitMovesMax } from './limits.ts';
import { AccountTurns } from './accountTurns.ts';
import type { LedgerDeps, MoveAnswer, MoveRequest } from './moves.ts';
import { requestRules, type RequestRules } from './requestKeys.ts';
import type {
  AuthorizeHoldResult,
  CaptureHoldResult,
  CloseAccountResult,
  InputMistake,
  ReverseMoveResult,
  VoidHoldResult,
  BatchTooLarge,
  DepositResult,
  MoveResult,
  OpenAccountResult,
  SubmitMovesResult,
  TransferResult,
  WithdrawResult,
} from './results.ts';
import type { LedgerTelemetry } from './telemetry.ts';
import { invariant } from '../lib/assert.ts';

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
  /** How a group commit decides its moves. */
  groupPolicy: GroupPolicy;
  /** The writes that resolve a hold. */
  holdRules: HoldRules;
  /** The write that decides a reversal against its original (L1). */
  lifecycleRules: LifecycleRules;
  /** The per-account turns (a test may hold one); a fresh set by default. */
  turns?: AccountTurns;
}

export type LedgerService = ReturnType<typeof ledgerServiceFrom>;

/** The ledger's operations over one database. Inputs must already be parsed by ./inputs.ts. */
export function createLedgerService(options: LedgerServiceOptions): LedgerService {
  return ledgerServiceFrom({
    db: options.db,
    telemetry: options.telemetry,
    preconditions: accountPreconditions,
    rules: requestRules,
    groupPolicy,
    holdRules,
    lifecycleRules,
  });
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
    turns: parts.turns ?? new AccountTurns(),
    dispatch: new MoveDispatch(groupsInFlightMax),
    collections: writeCollections(db),
    preconditions: parts.preconditions,
    rules: parts.rules,
    groupPolicy: parts.groupPolicy,
    telemetry,
  };
  telemetry.countPendingIn(deps.collections.requests);
  const holdDeps: HoldDeps = { ledger: deps, holds: holdWriteCollections(db), rules: parts.holdRules };
  telemetry.countHoldsIn(holdDeps.holds.holds);
  const lifecycleDeps: LifecycleDeps = { ledger: deps, rules: parts.lifecycleRules };
  const reporting = reportingCollections(db);
  const holdReporting = holdReportingCollections(db);
  const report = <R extends { kind: string }>(op: string, result: R): R => {
    telemetry.outcome(op, result.kind);
    return result;
  };

  return Object.freeze({
    async openAccount(input: OpenAccountInput): Promise<OpenAccountResult> {
      return report('openAccount', await openAccount(deps.collections.accounts, input));
    },
    async deposit(input: DepositInput): Promise<DepositResult> {
      const { reference, metadata } = input;
      const result = await moveMoney(deps, {
        op: 'deposit',
        requestId: input.requestId,
        fromAccountId: null,
        toAccountId: input.accountId,
        amount: input.amount,
        reference,
        metadata,
      });
      return report('deposit', asDepositResult(result));
    },
    async withdraw(input: WithdrawInput): Promise<WithdrawResult> {
      const { reference, metadata } = input;
      const result = await moveMoney(deps, {
        op: 'withdraw',
        requestId: input.requestId,
        fromAccountId: input.accountId,
        toAccountId: null,
        amount: input.amount,
        reference,
        metadata,
      });
      return report('withdraw', asWithdrawResult(result));
    },
    async transfer(input: TransferInput): Promise<TransferResult> {
      const result = await moveMoney(deps, { op: 'transfer', ...input });
      return report('transfer', asTransferResult(result));
    },
    /** Up to `submitMovesMax` moves in one transaction, one answer each, in order; `atomic`: all or none. */
    async submitMoves(input: SubmitMovesInput): Promise<SubmitMovesResult> {
      const tooLarge = batchTooLarge(input.moves.length);
      if (tooLarge) return report('submitMoves', tooLarge);
      const answers = await submitMoves(deps, input.moves.map(moveRequestOf), input.atomic);
      const results = answers.map((answer, i) => asMoveResult(input.moves[i]!, answer));
      for (const [i, result] of results.entries()) telemetry.outcome(input.moves[i]!.kind, result.kind);
      return report('submitMoves', { kind: 'submitMovesSuccess', results } as const);
    },
    async authorizeHold(input: AuthorizeHoldInput): Promise<AuthorizeHoldResult> {
      return report('authorizeHold', await authorizeHold(holdDeps, input));
    },
    async captureHold(input: CaptureHoldInput): Promise<CaptureHoldResult | InputMistake> {
      return report('captureHold', await captureHold(holdDeps, input));
    },
    async voidHold(input: VoidHoldInput): Promise<VoidHoldResult> {
      return report('voidHold', await voidHold(holdDeps, input));
    },
    /** Reverses all or part of a deposit or transfer, never past what is left of it (L1). */
    async reverseMove(input: ReverseMoveInput): Promise<ReverseMoveResult> {
      return report('reverseMove', await reverseMove(lifecycleDeps, input));
    },
    /** Moves the whole balance to `transferBalanceTo` and closes the account, in one transaction (L2). */
    async closeAccount(input: CloseAccountInput): Promise<CloseAccountResult> {
      return report('closeAccount', await closeAccount(lifecycleDeps, input));
    },
    /** The balance as of `at`, from the journal (L3). */
    balanceAt: (accountId: string, at: Date) => queries.balanceAt(reporting, accountId, at),
    balanceHistory: (page: BalanceHistoryInput) => queries.balanceHistory(reporting, page),
    /** Metadata and reversed totals of moves by requestId (the entries' loader). */
    moveAnnotations: (requestIds: readonly string[]) => queries.moveAnnotations(reporting, requestIds),
    /** One sweeper pass by hand (tests, benches): expires up to `limit` holds past their expiry. */
    sweepExpiredHolds: (limit: number) => sweepExpiredHolds(holdDeps, limit),
    /** The process's hold sweeper (one per app: src/ledger/startup.ts starts it). */
    holdSweeper: (options: Omit<HoldSweeperOptions, 'deps' | 'db' | 'onExpired'>) =>
      new HoldSweeper({ ...options, db, deps: holdDeps, onExpired: (count) => telemetry.holdsExpired(count) }),
    holdById: (id: string) => holdQueries.holdById(holdReporting, id),
    listHolds: (page: HoldsPageInput) => holdQueries.listHolds(holdReporting, page),
    /** BatchTooLarge for a batch of `moves` moves past `submitMovesMax`; asked before its moves are parsed. */
    batchTooLarge,
    accountsByIds: (ids: readonly string[]) => queries.accountsByIds(reporting, ids),
    listAccounts: (page: AccountsPageInput) => queries.listAccounts(reporting, page),
    listEntries: (page: EntriesPageInput) => queries.listEntries(reporting, page),
    entryByRequest: (requestId: string) => queries.entryByRequest(reporting, requestId),
    /** The answers this process gave, by operation and result kind (read from `ledger_outcomes_total`). */
    outcomeCounts: () => telemetry.outcomeCounts(),
  });
}

function asDepositResult(result: MoveAnswer): DepositResult {
  invariant(
    result.kind !== 'insufficientFunds' &&
      result.kind !== 'currencyMismatch' &&
      result.kind !== 'withdrawSuccess' &&
      result.kind !== 'transferSuccess',
    () => `a deposit answered ${result.kind}`,
  );
  return result;
}

function asWithdrawResult(result: MoveAnswer): WithdrawResult {
  invariant(
    result.kind !== 'currencyMismatch' &&
      result.kind !== 'balanceLimitExceeded' &&
      result.kind !== 'depositSuccess' &&
      result.kind !== 'transferSuccess',
    () => `a withdrawal answered ${result.kind}`,
  );
  return result;
}

function asTransferResult(result: MoveAnswer): TransferResult {
  invariant(
    result.kind !== 'depositSuccess' && result.kind !== 'withdrawSuccess',
    () => `a transfer answered ${result.kind}`,
  );
  return result;
}

function moveRequestOf(move: MoveInput): MoveRequest {
  const { requestId, amount, reference, metadata } = move;
  switch (move.kind) {
    case 'deposit':
      return {
        op: 'deposit',
        requestId,
        amount,
        fromAccountId: null,
        toAccountId: move.accountId,
        reference,
        metadata,
      };
    case 'withdraw':
      return {
        op: 'withdraw',
        requestId,
        amount,
        fromAccountId: move.accountId,
        toAccountId: null,
        reference,
        metadata,
      };
    case 'transfer':
      return {
        op: 'transfer',
        requestId,
        amount,
        fromAccountId: move.accountId,
        toAccountId: move.toAccountId,
        reference,
        metadata,
      };
  }
}

function asMoveResult(move: MoveInput, answer: BatchAnswer): MoveResult {
  if (answer.kind === 'linkedMoveFailed') return answer;
  switch (move.kind) {
    case 'deposit':
      return asDepositResult(answer);
    case 'withdraw':
      return asWithdrawResult(answer);
    case 'transfer':
      return asTransferResult(answer);
  }
}

function batchTooLarge(moves: number): BatchTooLarge | null {
  return moves > submitMovesMax ? { kind: 'batchTooLarge', moves, movesMax: submitMovesMax } : null;
}
