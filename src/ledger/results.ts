import type { DuplicateReplayed as SharedDuplicateReplayed } from '../graphql/results/duplicateReplayedShape.ts';
import type { EntryKind } from './model.ts';

// What the ledger service answers: plain discriminated unions, no GraphQL. Money is a safe
// integer of minor units here; it is a BSON long only inside MongoDB.

export interface AccountSnapshot {
  id: string;
  currency: string;
  balance: number;
  version: number;
  /**
   * Sum of the pending holds, and `balance - held`. Null in a snapshot rebuilt from a journal
   * entry (a deposit's, a withdrawal's or a transfer's answer): the journal records balances, not
   * holds, and a replay must repeat the first answer exactly.
   */
  held: number | null;
  available: number | null;
  /** OPEN, or CLOSED once `closeAccount` moved its balance away (then `closedAt` says when). */
  status: AccountStatusName;
  closedAt: Date | null;
}

export type AccountStatusName = 'OPEN' | 'CLOSED';

export interface LedgerEntry {
  id: string;
  requestId: string;
  accountId: string;
  currency: string;
  kind: EntryKind;
  amount: number;
  balanceAfter: number;
  versionAfter: number;
  counterpartyAccountId: string | null;
  createdAt: Date;
  /** The move's reference, when it was sent one. */
  reference: string | null;
  /** On a reversal's entries: the requestId of the move it reverses. */
  reversalOf: string | null;
  /** When its transaction wrote it, on the database clock (null on entries older than it). */
  committedAt: Date | null;
  /**
   * The move's metadata (JSON text) when the answer already holds it (a move's own answer, from
   * its request); undefined when a reader must look it up on the request (it is stored once).
   */
  metadata?: string | null;
}

/** Success types carry the account as it was right after the write, so replays repeat it exactly. */
export type OpenAccountSuccess = { kind: 'openAccountSuccess'; account: AccountSnapshot };
export type DepositSuccess = { kind: 'depositSuccess'; entry: LedgerEntry; account: AccountSnapshot };
export type WithdrawSuccess = { kind: 'withdrawSuccess'; entry: LedgerEntry; account: AccountSnapshot };
export type TransferSuccess = {
  kind: 'transferSuccess';
  debit: LedgerEntry;
  credit: LedgerEntry;
  from: AccountSnapshot;
  to: AccountSnapshot;
};
export type InsufficientFunds = { kind: 'insufficientFunds'; accountId: string; balance: number; amount: number };

/** The decided outcomes of a money movement, stored on its request. */
export type MoveOutcome = DepositSuccess | WithdrawSuccess | TransferSuccess | InsufficientFunds;

// The life cycle (lifecycle.ts): reversals and closes.
/**
 * A reversal applied: `debit` took the money back from the account the original credited, `credit`
 * (a transfer's reversal) returned it to the account the original debited; `reversedAmount` is the
 * original's total reversed with this one, never above `originalAmount` (L1).
 */
export type ReverseMoveSuccess = {
  kind: 'reverseMoveSuccess';
  originalRequestId: string;
  amount: number;
  originalAmount: number;
  reversedAmount: number;
  debit: LedgerEntry;
  credit: LedgerEntry | null;
  from: AccountSnapshot;
  to: AccountSnapshot | null;
};
export type MoveNotFound = { kind: 'moveNotFound'; requestId: string };
/** The original cannot be reversed (a withdrawal, a refused move, a reversal...): `detail` says what to do instead. */
export type NotReversible = { kind: 'notReversible'; originalRequestId: string; operation: string; detail: string };
export type ReversalExceedsOriginal = {
  kind: 'reversalExceedsOriginal';
  originalRequestId: string;
  originalAmount: number;
  reversedAmount: number;
  amount: number;
};
export type AccountHasHolds = { kind: 'accountHasHolds'; accountId: string; held: number };
/** `account` closed with balance 0; `movedAmount` went to `transferredTo` (debit and credit are null when it was 0). */
export type CloseAccountSuccess = {
  kind: 'closeAccountSuccess';
  account: AccountSnapshot;
  movedAmount: number;
  transferredTo: AccountSnapshot;
  debit: LedgerEntry | null;
  credit: LedgerEntry | null;
};
export type LifecycleOutcomeResult = ReverseMoveSuccess | CloseAccountSuccess | InsufficientFunds;
export type LifecycleReplayed = SharedDuplicateReplayed<LifecycleOutcomeResult>;
export type ReverseMoveResult =
  | ReverseMoveSuccess
  | MoveNotFound
  | NotReversible
  | ReversalExceedsOriginal
  | InsufficientFunds
  | AccountClosed
  | LifecycleReplayed
  | IdempotencyKeyReused
  | RequestInProgress
  | OutcomeUnknown;
export type CloseAccountResult =
  | CloseAccountSuccess
  | AccountNotFound
  | AccountHasHolds
  | CurrencyMismatch
  | AccountClosed
  | LifecycleReplayed
  | IdempotencyKeyReused
  | RequestInProgress
  | OutcomeUnknown;

/** The outcomes that are final for their key and come back inside DuplicateReplayed. */
export type ReplayableOutcome = OpenAccountSuccess | MoveOutcome;

export type DuplicateReplayed = SharedDuplicateReplayed<ReplayableOutcome>;
/** `field`: the first parameter that differs from the first request's; `detail` says it in words. */
export type IdempotencyKeyReused = {
  kind: 'idempotencyKeyReused';
  requestId: string;
  field: string | null;
  detail: string;
};
export type AccountNotFound = { kind: 'accountNotFound'; accountId: string };
/** The account was closed (L2): nothing moved and nothing was recorded. */
export type AccountClosed = { kind: 'accountClosed'; accountId: string; closedAt: Date | null };
export type RequestInProgress = { kind: 'requestInProgress'; requestId: string; firstSeenAt: Date };
/**
 * A client mistake the service can only see after a read (a capture to the hold's own account):
 * nothing ran, and the transport answers it as bad input (BAD_USER_INPUT), never a union member.
 */
export type InputMistake = { kind: 'inputMistake'; field: string; message: string };
export type OutcomeUnknown = { kind: 'outcomeUnknown'; requestId: string; firstSeenAt: Date };
/** A credit would take the balance past 2^53-1 (G6); nothing moved and nothing was recorded. */
export type BalanceLimitExceeded = { kind: 'balanceLimitExceeded'; accountId: string; balance: number; amount: number };
/** Answers that are not recorded: nothing moved, and the same key may be sent again. */
export type Refusal = AccountNotFound | AccountClosed | CurrencyMismatch | BalanceLimitExceeded;
export type CurrencyMismatch = {
  kind: 'currencyMismatch';
  fromAccountId: string;
  fromCurrency: string;
  toAccountId: string;
  toCurrency: string;
};

export type OpenAccountResult = OpenAccountSuccess | DuplicateReplayed | IdempotencyKeyReused;
export type DepositResult =
  | DepositSuccess
  | AccountClosed
  | BalanceLimitExceeded
  | DuplicateReplayed
  | IdempotencyKeyReused
  | AccountNotFound
  | RequestInProgress
  | OutcomeUnknown;
export type WithdrawResult =
  | WithdrawSuccess
  | AccountClosed
  | InsufficientFunds
  | DuplicateReplayed
  | IdempotencyKeyReused
  | AccountNotFound
  | RequestInProgress
  | OutcomeUnknown;
export type TransferResult =
  | TransferSuccess
  | AccountClosed
  | InsufficientFunds
  | BalanceLimitExceeded
  | CurrencyMismatch
  | DuplicateReplayed
  | IdempotencyKeyReused
  | AccountNotFound
  | RequestInProgress
  | OutcomeUnknown;

/** A move of an atomic batch that would have stood, had another move of the batch not failed. */
export type LinkedMoveFailed = { kind: 'linkedMoveFailed'; requestId: string };
/** A batch carrying more moves than `submitMovesMax`; nothing was looked at. */
export type BatchTooLarge = { kind: 'batchTooLarge'; moves: number; movesMax: number };

/** One move's answer in a batch: what `deposit`, `withdraw` or `transfer` would answer, or LinkedMoveFailed. */
export type MoveResult = DepositResult | WithdrawResult | TransferResult | LinkedMoveFailed;
export type SubmitMovesSuccess = { kind: 'submitMovesSuccess'; results: MoveResult[] };
export type SubmitMovesResult = SubmitMovesSuccess | BatchTooLarge;

// Holds (holds.ts). Each success carries the hold and account(s) as the decision left them, the
// same on every replay.
export type HoldStatusName = 'PENDING' | 'CAPTURED' | 'VOIDED' | 'EXPIRED';
export interface HoldSnapshot {
  id: string;
  accountId: string;
  currency: string;
  amount: number;
  capturedAmount: number;
  /** EXPIRED for a pending hold past its expiry on the database clock, even before the sweeper ran. */
  status: HoldStatusName;
  expiresAt: Date;
}
export type AuthorizeHoldSuccess = { kind: 'authorizeHoldSuccess'; hold: HoldSnapshot; account: AccountSnapshot };
/** `entry` the debit (a withdrawal, or a transfer's out leg), `credit` and `toAccount` only with `toAccountId`. */
export type CaptureHoldSuccess = {
  kind: 'captureHoldSuccess';
  hold: HoldSnapshot;
  entry: LedgerEntry;
  credit: LedgerEntry | null;
  account: AccountSnapshot;
  toAccount: AccountSnapshot | null;
};
export type VoidHoldSuccess = { kind: 'voidHoldSuccess'; hold: HoldSnapshot; account: AccountSnapshot };
/** The hold was resolved already (or expired): `status` is its final status. Not recorded. */
export type HoldNotPending = { kind: 'holdNotPending'; holdId: string; status: Exclude<HoldStatusName, 'PENDING'> };
/** A capture asked more than the hold reserves; nothing changed. Not recorded. */
export type CaptureExceedsHold = { kind: 'captureExceedsHold'; holdId: string; holdAmount: number; amount: number };
export type HoldNotFound = { kind: 'holdNotFound'; holdId: string };

/** The decided outcomes of hold requests, replayed inside DuplicateReplayed. */
export type HoldOutcomeResult = AuthorizeHoldSuccess | CaptureHoldSuccess | VoidHoldSuccess | InsufficientFunds;
export type HoldReplayed = SharedDuplicateReplayed<HoldOutcomeResult>;

export type AuthorizeHoldResult =
  | AuthorizeHoldSuccess
  | AccountClosed
  | InsufficientFunds
  | HoldReplayed
  | IdempotencyKeyReused
  | AccountNotFound
  | RequestInProgress
  | OutcomeUnknown;
export type CaptureHoldResult =
  | CaptureHoldSuccess
  | AccountClosed
  | HoldNotPending
  | CaptureExceedsHold
  | HoldNotFound
  | CurrencyMismatch
  | AccountNotFound
  | BalanceLimitExceeded
  | HoldReplayed
  | IdempotencyKeyReused
  | RequestInProgress
  | OutcomeUnknown;
export type VoidHoldResult =
  | VoidHoldSuccess
  | HoldNotPending
  | HoldNotFound
  | HoldReplayed
  | IdempotencyKeyReused
  | RequestInProgress
  | OutcomeUnknown;
