import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
export type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
export type MakeOptional<T, K extends keyof T> = Omit<T, K> & { [SubKey in K]?: Maybe<T[SubKey]> };
export type MakeMaybe<T, K extends keyof T> = Omit<T, K> & { [SubKey in K]: Maybe<T[SubKey]> };
export type MakeEmpty<T extends { [key: string]: unknown }, K extends keyof T> = { [_ in K]?: never };
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
  /** An exact integer of any size as a decimal string, e.g. "18014398509481982": sums of money (integer minor units) over many accounts, which can pass 2^53-1. Read it with BigInt(value). */
  BigIntString: { input: string; output: string; }
  /** A date-time string at UTC, such as 2007-12-03T10:15:30Z, compliant with the `date-time` format outlined in section 5.6 of the RFC 3339 profile of the ISO 8601 standard for representation of dates and times using the Gregorian calendar. */
  DateTime: { input: string; output: string; }
  /** The `JSON` scalar type represents JSON values as specified by [ECMA-404](http://www.ecma-international.org/publications/files/ECMA-ST/ECMA-404.pdf). */
  JSON: { input: unknown; output: unknown; }
  /** The `SafeInt` scalar type represents non-fractional signed whole numeric values that are considered safe as defined by the ECMAScript specification. */
  SafeInt: { input: number; output: number; }
};

/** An account; `entries` is its journal, newest first */
export type Account = {
  __typename?: 'Account';
  /** balance - held: what withdrawals, transfers and new holds may spend. Null where `held` is */
  available: Maybe<Scalars['SafeInt']['output']>;
  /** Integer minor units */
  balance: Scalars['SafeInt']['output'];
  /** The balance as of `at`: right after the account's last decision committed at or before it, on the database clock (0 before its first) */
  balanceAt: Scalars['SafeInt']['output'];
  /** When closeAccount closed it (database clock); null while open */
  closedAt: Maybe<Scalars['DateTime']['output']>;
  /** ISO 4217 code, fixed when the account is opened */
  currency: Scalars['String']['output'];
  /** Newest first; at most 100 per page */
  entries: LedgerEntryPage;
  /** Sum of the account's pending holds, integer minor units. Null in the account of a deposit's, withdrawal's or transfer's answer (rebuilt from its journal entry, which records balances, not holds): read account(id) for it */
  held: Maybe<Scalars['SafeInt']['output']>;
  id: Scalars['ID']['output'];
  status: AccountStatus;
  /** Decisions recorded on the account (each applied or refused movement adds one) */
  version: Scalars['SafeInt']['output'];
};


/** An account; `entries` is its journal, newest first */
export type AccountBalanceAtArgs = {
  at: Scalars['DateTime']['input'];
};


/** An account; `entries` is its journal, newest first */
export type AccountEntriesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
};

/** An account's balance changed: the balance and version that one write left, in version order per account */
export type AccountBalanceChanged = {
  __typename?: 'AccountBalanceChanged';
  accountId: Scalars['ID']['output'];
  /** By the database server's clock */
  at: Scalars['DateTime']['output'];
  /** Integer minor units, right after the write */
  balance: Scalars['SafeInt']['output'];
  /** Opaque; pass it as `after` to resume right after this event, on any API process */
  cursor: Scalars['String']['output'];
  /** The account's version right after the write */
  version: Scalars['SafeInt']['output'];
};

export type AccountBalanceEvent = AccountBalanceChanged | ResyncRequired | { __typename?: "%other" };

/** The account is closed (closeAccount): no move, hold or reversal applies to it. Nothing moved and nothing was recorded */
export type AccountClosed = {
  __typename?: 'AccountClosed';
  accountId: Scalars['ID']['output'];
  closedAt: Maybe<Scalars['DateTime']['output']>;
};

/** The account still has pending holds: capture or void them first. Nothing was recorded */
export type AccountHasHolds = {
  __typename?: 'AccountHasHolds';
  accountId: Scalars['ID']['output'];
  /** The sum of its pending holds */
  held: Scalars['SafeInt']['output'];
};

/** No such account; nothing was recorded, so the same requestId may be used again */
export type AccountNotFound = {
  __typename?: 'AccountNotFound';
  accountId: Scalars['ID']['output'];
};

export type AccountPage = {
  __typename?: 'AccountPage';
  /** Pass as `after` for the next page */
  endCursor: Maybe<Scalars['String']['output']>;
  hasNextPage: Scalars['Boolean']['output'];
  items: Array<Account>;
};

/** CLOSED: closeAccount moved its balance away; no move applies to it again */
export type AccountStatus =
  | 'CLOSED'
  | 'OPEN';

export type AuthorizeHoldInput = {
  accountId: Scalars['String']['input'];
  /** Positive integer minor units; the available balance (balance - held) must cover it */
  amount: Scalars['SafeInt']['input'];
  /** Seconds until the hold expires, on the database server's clock */
  expiresInSeconds: Scalars['Int']['input'];
  /** A JSON object of your own, at most 4096 bytes and 8 levels: returned on the move's entries, part of what a replay must match */
  metadata?: InputMaybe<Scalars['JSON']['input']>;
  /** Your reference for the move (an invoice or bank transaction id), at most 128 characters: returned on its entries, found by ledgerEntries(reference:), part of what a replay must match */
  reference?: InputMaybe<Scalars['String']['input']>;
  /** Your key for this movement (printable, at most 128 characters): the same key and parameters replay the first answer */
  requestId: Scalars['String']['input'];
};

export type AuthorizeHoldResult = AccountClosed | AccountNotFound | AuthorizeHoldSuccess | DuplicateReplayed | IdempotencyKeyReused | InsufficientFunds | OutcomeUnknown | RequestInProgress | { __typename?: "%other" };

/** The amount is reserved: held on the account until captured, voided or expired */
export type AuthorizeHoldSuccess = {
  __typename?: 'AuthorizeHoldSuccess';
  /** The account as this decision left it (the same on every replay) */
  account: Account;
  /** The hold as this decision left it (the same on every replay) */
  hold: Hold;
};

export type BalanceHistoryPage = {
  __typename?: 'BalanceHistoryPage';
  /** Pass as `after` for the next page */
  endCursor: Maybe<Scalars['String']['output']>;
  hasNextPage: Scalars['Boolean']['output'];
  /** Newest first */
  items: Array<BalancePoint>;
};

/** Refused: the credit would take the balance past 2^53-1. Nothing moved and nothing was recorded */
export type BalanceLimitExceeded = {
  __typename?: 'BalanceLimitExceeded';
  accountId: Scalars['ID']['output'];
  amount: Scalars['SafeInt']['output'];
  /** The balance when the request was decided */
  balance: Scalars['SafeInt']['output'];
};

/** One point of an account's balance history: the balance right after one decision */
export type BalancePoint = {
  __typename?: 'BalancePoint';
  /** When the decision committed (database clock) */
  at: Scalars['DateTime']['output'];
  balance: Scalars['SafeInt']['output'];
  /** The entry that left the account at this balance */
  entry: LedgerEntry;
  version: Scalars['SafeInt']['output'];
};

/** The batch carries more moves than one request may; nothing was looked at or written */
export type BatchTooLarge = {
  __typename?: 'BatchTooLarge';
  moves: Scalars['Int']['output'];
  movesMax: Scalars['Int']['output'];
};

/** The capture asked more than the hold reserves; nothing changed and nothing was recorded */
export type CaptureExceedsHold = {
  __typename?: 'CaptureExceedsHold';
  /** What the capture asked */
  amount: Scalars['SafeInt']['output'];
  /** What the hold reserves */
  holdAmount: Scalars['SafeInt']['output'];
  holdId: Scalars['ID']['output'];
};

export type CaptureHoldInput = {
  /** At most the hold; absent: the whole hold. The rest is released */
  amount?: InputMaybe<Scalars['SafeInt']['input']>;
  holdId: Scalars['String']['input'];
  /** A JSON object of your own, at most 4096 bytes and 8 levels: returned on the move's entries, part of what a replay must match */
  metadata?: InputMaybe<Scalars['JSON']['input']>;
  /** Your reference for the move (an invoice or bank transaction id), at most 128 characters: returned on its entries, found by ledgerEntries(reference:), part of what a replay must match */
  reference?: InputMaybe<Scalars['String']['input']>;
  /** Your key for this movement (printable, at most 128 characters): the same key and parameters replay the first answer */
  requestId: Scalars['String']['input'];
  /** Credit this account (a transfer); absent: paid out as a withdrawal */
  toAccountId?: InputMaybe<Scalars['String']['input']>;
};

export type CaptureHoldResult = AccountClosed | AccountNotFound | BalanceLimitExceeded | CaptureExceedsHold | CaptureHoldSuccess | CurrencyMismatch | DuplicateReplayed | HoldNotFound | HoldNotPending | IdempotencyKeyReused | OutcomeUnknown | RequestInProgress | { __typename?: "%other" };

/** Captured: the amount left the account (a withdrawal, or a transfer with toAccountId) and the rest of the hold was released */
export type CaptureHoldSuccess = {
  __typename?: 'CaptureHoldSuccess';
  /** The hold's account as this decision left it (the same on every replay) */
  account: Account;
  /** A transfer's in leg; null for a withdrawal */
  creditEntry: Maybe<LedgerEntry>;
  /** The debit: a withdrawal (paid out like any other) or a transfer's out leg */
  entry: LedgerEntry;
  /** The hold as this decision left it (the same on every replay) */
  hold: Hold;
  /** The credited account as this decision left it (the same on every replay); null for a withdrawal */
  toAccount: Maybe<Account>;
};

/** What a schedule fires for the periods missed while no API process ran */
export type CatchUp =
  | 'ALL'
  | 'LATEST'
  | 'NONE';

/** The item is yours until leaseExpiresAt; present its version to heartbeat and complete */
export type ClaimSuccess = {
  __typename?: 'ClaimSuccess';
  item: WorkItem;
};

export type ClaimWorkItemInput = {
  /** With `id`: only at this version */
  expectedVersion?: InputMaybe<Scalars['Int']['input']>;
  /** Claim this item if it is claimable; without: the oldest available of `kinds` */
  id?: InputMaybe<Scalars['ID']['input']>;
  /** At most 32 kinds; without: any kind */
  kinds?: InputMaybe<Array<Scalars['String']['input']>>;
  /** How long the item is yours: default 30, 1 to 3600 seconds, on the database clock. Each heartbeat extends it by as long again; once it expires any worker may claim the item (one more attempt) */
  leaseSeconds?: InputMaybe<Scalars['Int']['input']>;
  /** Who claims (1 to 200 characters): heartbeat and complete must name it */
  workerId: Scalars['String']['input'];
};

export type ClaimWorkItemResult = ClaimSuccess | ConflictLost | NothingToClaim | WorkItemNotFound | { __typename?: "%other" };

export type ClaimWorkItemsInput = {
  /** The kinds to claim from (1 to 32); each kind with claimable items gets an equal share of the batch */
  kinds: Array<Scalars['String']['input']>;
  /** Each item's lease: default 30, 1 to 3600 seconds, on the database clock */
  leaseSeconds?: InputMaybe<Scalars['Int']['input']>;
  /** At most this many items (1 to 16) */
  max: Scalars['Int']['input'];
  /** Who claims (1 to 200 characters): heartbeat and complete must name it */
  workerId: Scalars['String']['input'];
};

export type ClaimWorkItemsResult = ClaimWorkItemsSuccess | NothingToClaim | { __typename?: "%other" };

/** The items are yours until their leaseExpiresAt; each was claimed by its own status-and-version precondition */
export type ClaimWorkItemsSuccess = {
  __typename?: 'ClaimWorkItemsSuccess';
  /** Candidates another claimer took between this call's read and its write (counted in claim_conflict_total) */
  conflicts: Scalars['Int']['output'];
  /** Possibly empty when every candidate was taken by other claimers first (then `conflicts` > 0): claim again */
  items: Array<WorkItem>;
};

export type CloseAccountInput = {
  /** The account to close: it must hold no pending hold */
  accountId: Scalars['String']['input'];
  /** Your key for this movement (printable, at most 128 characters): the same key and parameters replay the first answer */
  requestId: Scalars['String']['input'];
  /** An open account of the same currency that receives the whole balance, in the same transaction */
  transferBalanceTo: Scalars['String']['input'];
};

export type CloseAccountResult = AccountClosed | AccountHasHolds | AccountNotFound | CloseAccountSuccess | CurrencyMismatch | DuplicateReplayed | IdempotencyKeyReused | OutcomeUnknown | RequestInProgress | { __typename?: "%other" };

/** The account is CLOSED with balance 0; its whole balance went to transferredTo in the same transaction */
export type CloseAccountSuccess = {
  __typename?: 'CloseAccountSuccess';
  /** The closed account, right after the close */
  account: Account;
  /** transferBalanceTo's transferIn; null when there was nothing to move */
  creditEntry: Maybe<LedgerEntry>;
  /** The closed account's transferOut; null when there was nothing to move */
  debitEntry: Maybe<LedgerEntry>;
  movedAmount: Scalars['SafeInt']['output'];
  /** The receiving account right after the close */
  transferredTo: Account;
};

export type CompleteSuccess = {
  __typename?: 'CompleteSuccess';
  item: WorkItem;
};

export type CompleteWorkItemInput = {
  id: Scalars['ID']['input'];
  outcome: CompletionOutcome;
  /** Any JSON, at most 65536 bytes serialized */
  result?: InputMaybe<Scalars['JSON']['input']>;
  /** The version your claim returned (the fencing token) */
  version: Scalars['Int']['input'];
  /** The workerId your claim used (1 to 200 characters) */
  workerId: Scalars['String']['input'];
};

export type CompleteWorkItemResult = CompleteSuccess | ConflictLost | DuplicateReplayed | WorkItemNotFound | { __typename?: "%other" };

export type CompleteWorkItemsInput = {
  /** 1 to 64 items, each as completeWorkItem takes it */
  items: Array<CompleteWorkItemInput>;
};

/** One answer per item, in the order of the input: the member completeWorkItem would answer for it, each under its own fence and key */
export type CompleteWorkItemsResult = {
  __typename?: 'CompleteWorkItemsResult';
  results: Array<CompleteWorkItemResult>;
};

/** DONE is terminal; FAILED retries or dead-letters */
export type CompletionOutcome =
  | 'DONE'
  | 'FAILED';

/** The item was not in the state you expected (status, version or lease holder): someone else got there first. Nothing was written; move on. */
export type ConflictLost = {
  __typename?: 'ConflictLost';
  /** The reason in words, e.g. "version 3 was presented; the item is at version 4: ..." */
  detail: Scalars['String']['output'];
  /** The item as it is now */
  item: WorkItem;
  /** claim, heartbeat, complete or requeue */
  operation: Scalars['String']['output'];
  /** Which precondition failed: STATUS, VERSION, WORKER or LEASE */
  reason: ConflictReason;
};

/** Why a work-item write matched nothing */
export type ConflictReason =
  /** The item is leased to another worker, or not yet due */
  | 'LEASE'
  /** The item is in another status than the operation needs (e.g. already DONE) */
  | 'STATUS'
  /** The version presented is not the item's: another transition happened since you read it */
  | 'VERSION'
  /** Another worker holds the lease (yours was taken over) */
  | 'WORKER';

export type CreateWorkItemInput = {
  /** The tenant or merchant it belongs to (1 to 128 letters, digits or _.:@-): claims take turns across the groups of a kind, and WORK_GROUP_LIMITS caps the running items of each group; default: none */
  group?: InputMaybe<Scalars['String']['input']>;
  /** Your key (1 to 200 characters): the same key and parameters replay the first answer */
  idempotencyKey: Scalars['String']['input'];
  /** An identifier of at most 64 characters ([A-Za-z][A-Za-z0-9_.-]*), e.g. PAYOUT */
  kind: Scalars['String']['input'];
  /** Claims before a failing item is dead-lettered (FAILED): default 5, 1 to 100. A failed attempt waits 1000 ms × 2^(attempts-1), at most 5 minutes, before it is claimable again */
  maxAttempts?: InputMaybe<Scalars['Int']['input']>;
  /** Any JSON, at most 65536 bytes serialized; default null */
  payload?: InputMaybe<Scalars['JSON']['input']>;
  /** Among the due items of a kind, higher is claimed first: -1000 to 1000, default 0 */
  priority?: InputMaybe<Scalars['Int']['input']>;
  /** Not claimable before this instant, judged by the database server's clock (at most 366 days ahead); default: at once */
  runAt?: InputMaybe<Scalars['DateTime']['input']>;
};

export type CreateWorkItemResult = CreateWorkItemSuccess | DuplicateReplayed | IdempotencyKeyReused | { __typename?: "%other" };

export type CreateWorkItemSuccess = {
  __typename?: 'CreateWorkItemSuccess';
  item: WorkItem;
};

/** The two accounts hold different currencies; nothing was recorded */
export type CurrencyMismatch = {
  __typename?: 'CurrencyMismatch';
  fromAccountId: Scalars['ID']['output'];
  fromCurrency: Scalars['String']['output'];
  toAccountId: Scalars['ID']['output'];
  toCurrency: Scalars['String']['output'];
};

export type DepositInput = {
  accountId: Scalars['String']['input'];
  /** Positive integer minor units (500 is 5.00 EUR), at most 2^53-1; a number, not a string */
  amount: Scalars['SafeInt']['input'];
  /** A JSON object of your own, at most 4096 bytes and 8 levels: returned on the move's entries, part of what a replay must match */
  metadata?: InputMaybe<Scalars['JSON']['input']>;
  /** Your reference for the move (an invoice or bank transaction id), at most 128 characters: returned on its entries, found by ledgerEntries(reference:), part of what a replay must match */
  reference?: InputMaybe<Scalars['String']['input']>;
  /** Your key for this movement (printable, at most 128 characters): the same key and parameters replay the first answer */
  requestId: Scalars['String']['input'];
};

export type DepositResult = AccountClosed | AccountNotFound | BalanceLimitExceeded | DepositSuccess | DuplicateReplayed | IdempotencyKeyReused | OutcomeUnknown | RequestInProgress | { __typename?: "%other" };

export type DepositSuccess = {
  __typename?: 'DepositSuccess';
  /** The account as it stood right after this write (the same on every replay) */
  account: Account;
  entry: LedgerEntry;
};

/** The key was seen before: nothing was done again; here is what happened the first time */
export type DuplicateReplayed = {
  __typename?: 'DuplicateReplayed';
  firstSeenAt: Scalars['DateTime']['output'];
  original: ReplayableOutcome;
  /** The idempotency key that was replayed */
  requestId: Scalars['String']['output'];
};

export type Health = {
  __typename?: 'Health';
  /** uri, memory-server or emulator */
  engine: Scalars['String']['output'];
  /** Why this engine was chosen */
  engineReason: Scalars['String']['output'];
  /** Null when the server is not a replica set or hides its status */
  replicaSet: Maybe<ReplicaSetStatus>;
  /** The server version the database reports */
  version: Scalars['String']['output'];
};

export type HeartbeatSuccess = {
  __typename?: 'HeartbeatSuccess';
  item: WorkItem;
};

export type HeartbeatWorkItemInput = {
  id: Scalars['ID']['input'];
  /** The version your claim returned (the fencing token) */
  version: Scalars['Int']['input'];
  /** The workerId your claim used (1 to 200 characters) */
  workerId: Scalars['String']['input'];
};

export type HeartbeatWorkItemResult = ConflictLost | HeartbeatSuccess | WorkItemNotFound | { __typename?: "%other" };

export type HeartbeatWorkItemsInput = {
  /** 1 to 64 items, each as heartbeatWorkItem takes it */
  items: Array<HeartbeatWorkItemInput>;
};

/** One answer per item, in the order of the input: the member heartbeatWorkItem would answer for it */
export type HeartbeatWorkItemsResult = {
  __typename?: 'HeartbeatWorkItemsResult';
  results: Array<HeartbeatWorkItemResult>;
};

/** An amount reserved on an account: pending until captured (all or part), voided or expired */
export type Hold = {
  __typename?: 'Hold';
  accountId: Scalars['ID']['output'];
  /** Reserved, integer minor units */
  amount: Scalars['SafeInt']['output'];
  /** What the capture took (0 unless CAPTURED); the rest was released with it */
  capturedAmount: Scalars['SafeInt']['output'];
  currency: Scalars['String']['output'];
  /** On the database server's clock */
  expiresAt: Scalars['DateTime']['output'];
  id: Scalars['ID']['output'];
  status: HoldStatus;
};

/** A hold was authorized (PENDING) or resolved (CAPTURED, VOIDED, EXPIRED): one event per transition, in order per hold */
export type HoldChanged = {
  __typename?: 'HoldChanged';
  accountId: Scalars['ID']['output'];
  amount: Scalars['SafeInt']['output'];
  /** By the database server's clock */
  at: Scalars['DateTime']['output'];
  capturedAmount: Scalars['SafeInt']['output'];
  /** Opaque; pass it as `after` to resume right after this event, on any API process */
  cursor: Scalars['String']['output'];
  holdId: Scalars['ID']['output'];
  status: HoldStatus;
};

export type HoldEvent = HoldChanged | ResyncRequired | { __typename?: "%other" };

/** No such hold; nothing was recorded */
export type HoldNotFound = {
  __typename?: 'HoldNotFound';
  holdId: Scalars['ID']['output'];
};

/** The hold was already captured, voided or expired (its final status); nothing changed and nothing was recorded */
export type HoldNotPending = {
  __typename?: 'HoldNotPending';
  holdId: Scalars['ID']['output'];
  status: HoldStatus;
};

export type HoldPage = {
  __typename?: 'HoldPage';
  /** Pass as `after` for the next page */
  endCursor: Maybe<Scalars['String']['output']>;
  hasNextPage: Scalars['Boolean']['output'];
  items: Array<Hold>;
};

/** PENDING until captured, voided or past expiresAt (then EXPIRED, on the database clock, even before the sweeper released it) */
export type HoldStatus =
  | 'CAPTURED'
  | 'EXPIRED'
  | 'PENDING'
  | 'VOIDED';

/** The key was already used with different parameters: refused, nothing was done */
export type IdempotencyKeyReused = {
  __typename?: 'IdempotencyKeyReused';
  /** What differed, in words, e.g. "account acct-1 already exists in EUR; ..." */
  detail: Scalars['String']['output'];
  /** The first input field that differs from the first request with this key (currency, amount, operation, fromAccountId, toAccountId, kind, maxAttempts, payload); null when not known */
  field: Maybe<Scalars['String']['output']>;
  /** The idempotency key that was reused */
  requestId: Scalars['String']['output'];
};

/** Refused: the balance did not cover the amount. Final for this requestId; nothing moved */
export type InsufficientFunds = {
  __typename?: 'InsufficientFunds';
  accountId: Scalars['ID']['output'];
  amount: Scalars['SafeInt']['output'];
  /** The balance when the request was decided */
  balance: Scalars['SafeInt']['output'];
};

/** The cron expression or the time zone cannot be read; nothing was stored */
export type InvalidSchedule = {
  __typename?: 'InvalidSchedule';
  /** What is wrong, e.g. "cron \"61 * * * *\": Constraint error, got value 61 expected range 0-59" */
  detail: Scalars['String']['output'];
  name: Scalars['String']['output'];
};

/** The latest finished run of the ledger audit */
export type LedgerAudit = {
  __typename?: 'LedgerAudit';
  accountsChecked: Scalars['Int']['output'];
  entriesChecked: Scalars['Int']['output'];
  /** When the run finished (database clock) */
  lastRunAt: Scalars['DateTime']['output'];
  /** Exact, even when the list below is cut at its bound */
  mismatchCount: Scalars['Int']['output'];
  mismatches: Array<LedgerAuditMismatch>;
  /** incremental (accounts changed since the previous run) or full */
  scope: Scalars['String']['output'];
};

/** The run finished; here it is */
export type LedgerAuditFinished = {
  __typename?: 'LedgerAuditFinished';
  audit: LedgerAudit;
};

/** One thing the ledger audit found wrong */
export type LedgerAuditMismatch = {
  __typename?: 'LedgerAuditMismatch';
  /** The account concerned; null for an undecided request */
  accountId: Maybe<Scalars['String']['output']>;
  /** What the database holds, in the same unit */
  actual: Scalars['SafeInt']['output'];
  /** Minor units for balances and amounts; 1 for a payout; the bound in ms for a request */
  expected: Scalars['SafeInt']['output'];
  /** BALANCE, NEGATIVE_BALANCE, TRANSFER_UNBALANCED, PAYOUT_MISSING or REQUEST_UNDECIDED */
  kind: Scalars['String']['output'];
  /** What was checked: the account, the entry or the request id */
  subject: Scalars['String']['output'];
};

/** Another process holds the audit lease; it runs a full audit at its next tick */
export type LedgerAuditQueued = {
  __typename?: 'LedgerAuditQueued';
  requestedAt: Scalars['DateTime']['output'];
};

/** One immutable journal line: money that reached or left one account */
export type LedgerEntry = {
  __typename?: 'LedgerEntry';
  /** The account as it is now */
  account: Account;
  accountId: Scalars['ID']['output'];
  /** Positive integer minor units; `kind` gives the direction */
  amount: Scalars['SafeInt']['output'];
  /** The account's balance right after this entry */
  balanceAfter: Scalars['SafeInt']['output'];
  /** When its transaction committed it, on the database clock (what balanceAt orders by); null on entries older than it */
  committedAt: Maybe<Scalars['DateTime']['output']>;
  /** The other account of a transfer, as it is now */
  counterparty: Maybe<Account>;
  /** The other account of a transfer */
  counterpartyAccountId: Maybe<Scalars['ID']['output']>;
  createdAt: Scalars['DateTime']['output'];
  currency: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  kind: LedgerEntryKind;
  /** The move's metadata, as sent (stored once, with its request) */
  metadata: Maybe<Scalars['JSON']['output']>;
  /** The move's reference, as sent (ledgerEntries(reference:) finds it) */
  reference: Maybe<Scalars['String']['output']>;
  /** The caller key of the request that wrote it */
  requestId: Scalars['String']['output'];
  /** On a reversal's entries: the requestId of the deposit or transfer it reverses */
  reversalOf: Maybe<Scalars['String']['output']>;
  /** On a deposit's or transfer's entries: the total its reversals took back so far (0 otherwise) */
  reversedAmount: Scalars['SafeInt']['output'];
  /** The account's version right after this entry */
  versionAfter: Scalars['SafeInt']['output'];
};

/** A journal entry was written (entries are immutable: one event each), in version order per account */
export type LedgerEntryAdded = {
  __typename?: 'LedgerEntryAdded';
  accountId: Scalars['ID']['output'];
  /** Positive integer minor units; `kind` gives the direction */
  amount: Scalars['SafeInt']['output'];
  /** The account's balance right after this entry */
  balanceAfter: Scalars['SafeInt']['output'];
  /** The other account of a transfer */
  counterpartyAccountId: Maybe<Scalars['ID']['output']>;
  createdAt: Scalars['DateTime']['output'];
  currency: Scalars['String']['output'];
  /** Opaque; pass it as `after` to resume right after this event, on any API process */
  cursor: Scalars['String']['output'];
  entryId: Scalars['ID']['output'];
  kind: LedgerEntryKind;
  /** The caller key of the request that wrote it */
  requestId: Scalars['String']['output'];
  /** The account's version right after this entry */
  versionAfter: Scalars['SafeInt']['output'];
};

export type LedgerEntryEvent = LedgerEntryAdded | ResyncRequired | { __typename?: "%other" };

/** Which way the money of an entry went; depositReversal: a reversed deposit taken back out (no payout) */
export type LedgerEntryKind =
  | 'deposit'
  | 'depositReversal'
  | 'transferIn'
  | 'transferOut'
  | 'withdrawal';

/** Newest first */
export type LedgerEntryList = {
  __typename?: 'LedgerEntryList';
  /** Pass as `after` for the next page */
  endCursor: Maybe<Scalars['String']['output']>;
  hasNextPage: Scalars['Boolean']['output'];
  items: Array<LedgerEntry>;
  /** Matching entries, counted on the index up to 10000 */
  totalCount: Scalars['Int']['output'];
  /** True when there are more than `totalCount` */
  totalCountCapped: Scalars['Boolean']['output'];
};

export type LedgerEntryPage = {
  __typename?: 'LedgerEntryPage';
  /** Pass as `after` for the next page */
  endCursor: Maybe<Scalars['String']['output']>;
  hasNextPage: Scalars['Boolean']['output'];
  items: Array<LedgerEntry>;
};

/** Why a request was refused */
export type LedgerRejection = {
  __typename?: 'LedgerRejection';
  accountId: Scalars['ID']['output'];
  amount: Scalars['SafeInt']['output'];
  /** The balance when the request was decided */
  balance: Scalars['SafeInt']['output'];
};

/** A money request under its caller key: pending, applied (with its entries) or rejected (with why) */
export type LedgerRequest = {
  __typename?: 'LedgerRequest';
  amount: Scalars['SafeInt']['output'];
  decidedAt: Maybe<Scalars['DateTime']['output']>;
  /** What it wrote (APPLIED only), the debit leg first */
  entries: Array<LedgerEntry>;
  firstSeenAt: Scalars['DateTime']['output'];
  fromAccountId: Maybe<Scalars['ID']['output']>;
  /** deposit, withdraw or transfer */
  operation: Scalars['String']['output'];
  /** Why it was refused (REJECTED only) */
  rejection: Maybe<LedgerRejection>;
  requestId: Scalars['String']['output'];
  status: LedgerRequestStatus;
  toAccountId: Maybe<Scalars['ID']['output']>;
};

/** PENDING until decided; APPLIED and REJECTED are final */
export type LedgerRequestStatus =
  | 'APPLIED'
  | 'PENDING'
  | 'REJECTED';

/** One currency: money held now, and the flows of a time range */
export type LedgerTotals = {
  __typename?: 'LedgerTotals';
  accounts: Scalars['Int']['output'];
  currency: Scalars['String']['output'];
  deposits: MoneyFlow;
  /** The sum of the currency's account balances now (not as of `to`), exact at any size */
  moneyHeld: Scalars['BigIntString']['output'];
  /** The sum of the currency's accounts' pending holds now: part of moneyHeld, not available to spend */
  moneyOnHold: Scalars['BigIntString']['output'];
  /** Money moved between accounts, each transfer counted once */
  transfers: MoneyFlow;
  withdrawals: MoneyFlow;
};

/** A move of an atomic batch that would have applied, had another move of the batch not failed. Nothing of the batch was written */
export type LinkedMoveFailed = {
  __typename?: 'LinkedMoveFailed';
  requestId: Scalars['String']['output'];
};

/** One live feed (one watched collection) in this API process: its stream's state and its fan-out counters */
export type LiveFeedState = {
  __typename?: 'LiveFeedState';
  /** stream_events_delivered_total: events queued for subscribers since the process started, one per subscriber reached */
  eventsDelivered: Scalars['SafeInt']['output'];
  /** workItems, ledgerEntries, accountBalances or holds */
  feed: Scalars['String']['output'];
  /** stream_resyncs_total: ResyncRequired notices sent since the process started, every reason */
  resyncs: Scalars['SafeInt']['output'];
  status: LiveFeedStatus;
  /** stream_subscribers: subscriptions attached to it now */
  subscribers: Scalars['Int']['output'];
  /** change_feed_up: true while its shared change stream is open */
  up: Scalars['Boolean']['output'];
};

/** A feed's shared change stream: NEW before it first opened, OPEN, REOPENING after a failure (with capped backoff), STOPPED at shutdown */
export type LiveFeedStatus =
  | 'NEW'
  | 'OPEN'
  | 'REOPENING'
  | 'STOPPED';

export type MoneyFlow = {
  __typename?: 'MoneyFlow';
  /** Integer minor units, exact at any size (a sum of many amounts) */
  amount: Scalars['BigIntString']['output'];
  count: Scalars['Int']['output'];
};

/** One move of submitMoves */
export type MoveInput = {
  /** The account credited by a deposit, debited by a withdrawal or a transfer */
  accountId: Scalars['String']['input'];
  /** Positive integer minor units */
  amount: Scalars['SafeInt']['input'];
  kind: MoveKind;
  /** A JSON object of your own, at most 4096 bytes and 8 levels: returned on the move's entries, part of what a replay must match */
  metadata?: InputMaybe<Scalars['JSON']['input']>;
  /** Your reference for the move (an invoice or bank transaction id), at most 128 characters: returned on its entries, found by ledgerEntries(reference:), part of what a replay must match */
  reference?: InputMaybe<Scalars['String']['input']>;
  /** Your key for this movement (printable, at most 128 characters): the same key and parameters replay the first answer */
  requestId: Scalars['String']['input'];
  /** A transfer's credited account; only for TRANSFER */
  toAccountId?: InputMaybe<Scalars['String']['input']>;
};

/** What a move of submitMoves does */
export type MoveKind =
  | 'DEPOSIT'
  | 'TRANSFER'
  | 'WITHDRAW';

/** No move was ever recorded under this requestId; nothing was recorded */
export type MoveNotFound = {
  __typename?: 'MoveNotFound';
  requestId: Scalars['String']['output'];
};

/** How many times one ledger mutation answered one union member, in this API process since it started */
export type MoveOutcomeCount = {
  __typename?: 'MoveOutcomeCount';
  /** Answers counted (ledger_outcomes_total{op,outcome}) */
  count: Scalars['SafeInt']['output'];
  /** The mutation (deposit, withdraw, transfer, authorizeHold, ...); a batch counts each of its moves under its own kind, and itself as submitMoves */
  operation: Scalars['String']['output'];
  /** The union member it answered: WithdrawSuccess, InsufficientFunds, DuplicateReplayed, OutcomeUnknown, ... */
  outcome: Scalars['String']['output'];
};

/** One move of a batch: what deposit, withdraw or transfer would answer, or LinkedMoveFailed */
export type MoveResult = AccountClosed | AccountNotFound | BalanceLimitExceeded | CurrencyMismatch | DepositSuccess | DuplicateReplayed | IdempotencyKeyReused | InsufficientFunds | LinkedMoveFailed | OutcomeUnknown | RequestInProgress | TransferSuccess | WithdrawSuccess | { __typename?: "%other" };

export type Mutation = {
  __typename?: 'Mutation';
  /** Reserves an amount of the available balance until captured, voided or expired */
  authorizeHold: AuthorizeHoldResult;
  /** Captures all or part of a pending hold (once); the rest is released in the same transaction */
  captureHold: CaptureHoldResult;
  claimWorkItem: ClaimWorkItemResult;
  /** Up to `max` items of `kinds` at once, shared fairly between the kinds; each claimed by the same status-and-version precondition as claimWorkItem */
  claimWorkItems: ClaimWorkItemsResult;
  /** Moves the whole balance to transferBalanceTo and closes the account, in one transaction; no move applies to it afterwards */
  closeAccount: CloseAccountResult;
  completeWorkItem: CompleteWorkItemResult;
  /** Several completions in one call: each item is completeWorkItem under its own fence and key (a stale one is refused, the others apply) */
  completeWorkItems: CompleteWorkItemsResult;
  createWorkItem: CreateWorkItemResult;
  deposit: DepositResult;
  heartbeatWorkItem: HeartbeatWorkItemResult;
  /** Several heartbeats in one call: each item extends its own lease or is refused on its own */
  heartbeatWorkItems: HeartbeatWorkItemsResult;
  openAccount: OpenAccountResult;
  requeueWorkItem: RequeueWorkItemResult;
  /** Reverses all or part of a deposit or transfer under its own requestId, never past what is left of it (amount absent: all that is left) */
  reverseMove: ReverseMoveResult;
  /** Runs a full ledger audit now, or queues it for the process that holds the audit lease */
  runLedgerAudit: RunLedgerAuditResult;
  /** Stores a cron schedule: each period creates one work item, whichever API processes are alive */
  scheduleWork: ScheduleWorkResult;
  /** Up to 100 moves in one transaction, one result each, in order */
  submitMoves: SubmitMovesResult;
  transfer: TransferResult;
  unscheduleWork: UnscheduleWorkResult;
  /** Releases a pending hold */
  voidHold: VoidHoldResult;
  withdraw: WithdrawResult;
};


export type MutationAuthorizeHoldArgs = {
  input: AuthorizeHoldInput;
};


export type MutationCaptureHoldArgs = {
  input: CaptureHoldInput;
};


export type MutationClaimWorkItemArgs = {
  input: ClaimWorkItemInput;
};


export type MutationClaimWorkItemsArgs = {
  input: ClaimWorkItemsInput;
};


export type MutationCloseAccountArgs = {
  input: CloseAccountInput;
};


export type MutationCompleteWorkItemArgs = {
  input: CompleteWorkItemInput;
};


export type MutationCompleteWorkItemsArgs = {
  input: CompleteWorkItemsInput;
};


export type MutationCreateWorkItemArgs = {
  input: CreateWorkItemInput;
};


export type MutationDepositArgs = {
  input: DepositInput;
};


export type MutationHeartbeatWorkItemArgs = {
  input: HeartbeatWorkItemInput;
};


export type MutationHeartbeatWorkItemsArgs = {
  input: HeartbeatWorkItemsInput;
};


export type MutationOpenAccountArgs = {
  input: OpenAccountInput;
};


export type MutationRequeueWorkItemArgs = {
  input: RequeueWorkItemInput;
};


export type MutationReverseMoveArgs = {
  input: ReverseMoveInput;
};


export type MutationScheduleWorkArgs = {
  input: ScheduleWorkInput;
};


export type MutationSubmitMovesArgs = {
  input: SubmitMovesInput;
};


export type MutationTransferArgs = {
  input: TransferInput;
};


export type MutationUnscheduleWorkArgs = {
  input: UnscheduleWorkInput;
};


export type MutationVoidHoldArgs = {
  input: VoidHoldInput;
};


export type MutationWithdrawArgs = {
  input: WithdrawInput;
};

/** The original is not a deposit or transfer that moved money; `detail` says what to do instead. Nothing was recorded */
export type NotReversible = {
  __typename?: 'NotReversible';
  detail: Scalars['String']['output'];
  /** The original's operation (withdraw, reverseMove, ...) */
  operation: Scalars['String']['output'];
  originalRequestId: Scalars['String']['output'];
};

/** No item of these kinds is available now */
export type NothingToClaim = {
  __typename?: 'NothingToClaim';
  kinds: Array<Scalars['String']['output']>;
};

export type OpenAccountInput = {
  /** Your id for the account; it is also the idempotency key of the opening */
  accountId: Scalars['String']['input'];
  /** ISO 4217 code, e.g. EUR */
  currency: Scalars['String']['input'];
};

export type OpenAccountResult = DuplicateReplayed | IdempotencyKeyReused | OpenAccountSuccess | { __typename?: "%other" };

export type OpenAccountSuccess = {
  __typename?: 'OpenAccountSuccess';
  /** The account as it stood right after this write (the same on every replay) */
  account: Account;
};

/** The server could not learn the outcome after retrying with the same key; retry with the same requestId (never a new one) to get it. It never applies twice. */
export type OutcomeUnknown = {
  __typename?: 'OutcomeUnknown';
  firstSeenAt: Scalars['DateTime']['output'];
  requestId: Scalars['String']['output'];
};

/** The payout projection's lease and position */
export type PayoutProjectionState = {
  __typename?: 'PayoutProjectionState';
  /** The process holding the lease; null before any process took it */
  holder: Maybe<Scalars['String']['output']>;
  /** Seconds between the stored position and the cluster's time now (to the second); null without a position */
  lagSeconds: Maybe<Scalars['Float']['output']>;
  /** False when the lease has expired (no process projects until one takes it) */
  leaseActive: Scalars['Boolean']['output'];
  leaseExpiresAt: Maybe<Scalars['DateTime']['output']>;
  /** Bumped by every acquisition */
  leaseVersion: Maybe<Scalars['Int']['output']>;
  /** The BullMQ queue's name (PAYOUT_QUEUE_NAME); null for work items */
  queueName: Maybe<Scalars['String']['output']>;
  /** Where this process hands payouts (PAYOUT_QUEUE): work-items, or bullmq */
  sink: Scalars['String']['output'];
};

export type Query = {
  __typename?: 'Query';
  account: Maybe<Account>;
  /** In id order; at most 100 per page */
  accounts: AccountPage;
  /** An account's balance as of `at` (Account.balanceAt as a root field, for the SDK); null when there is no such account */
  balanceAt: Maybe<Scalars['SafeInt']['output']>;
  /** An account's balance after each decision, newest first, at or before `at` (absent: now), on the database clock; at most 100 per page */
  balanceHistory: BalanceHistoryPage;
  /** The engine in use and the replica-set status */
  health: Health;
  hold: Maybe<Hold>;
  /** One account's holds, newest first; at most 100 per page */
  holds: HoldPage;
  /** The latest finished ledger audit run; null before the first */
  ledgerAudit: Maybe<LedgerAudit>;
  /** Entries across accounts, newest first, filtered by account, the moves' reference, kinds, currency and createdAt in [from, to); at most 100 per page */
  ledgerEntries: LedgerEntryList;
  /** The entry a request wrote; a transfer's debit leg */
  ledgerEntry: Maybe<LedgerEntry>;
  /** A money request by its caller key, whatever its state; null when never seen */
  ledgerRequest: Maybe<LedgerRequest>;
  /** Money held in a currency now, and its deposits, withdrawals and transfers with createdAt in [from, to) */
  ledgerTotals: LedgerTotals;
  /** Each live feed's state in this API process (another process has its own streams and subscribers) */
  liveFeeds: Array<LiveFeedState>;
  /** The answers this API process gave to ledger mutations since it started, by operation and result (another process counts its own) */
  moveOutcomes: Array<MoveOutcomeCount>;
  /** The PAYOUT item of a withdrawal entry; null until the projection has made it */
  payoutFor: Maybe<WorkItem>;
  /** The payout projection's lease holder and lag */
  payoutProjectionState: PayoutProjectionState;
  /** The items changed most recently, newest first (by updatedAt); first: default 20, 1 to 50 */
  recentWorkItems: Array<WorkItem>;
  /** The schedules by name, with their next and last fire; first: default and at most 500 */
  schedules: Array<Schedule>;
  /** The caller's role and what it may do */
  viewer: Viewer;
  workItem: Maybe<WorkItem>;
  /** The item created with this idempotency key (as the client sent it), or a scheduled item by its whole key schedule:<name>:<period start ISO> */
  workItemByKey: Maybe<WorkItem>;
  /** Oldest first, filtered by status, kind, createdAt in [createdFrom, createdTo) and client key; at most 100 per page */
  workItems: WorkItemPage;
  workQueueStats: WorkQueueStats;
};


export type QueryAccountArgs = {
  id: Scalars['ID']['input'];
};


export type QueryAccountsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
};


export type QueryBalanceAtArgs = {
  accountId: Scalars['ID']['input'];
  at: Scalars['DateTime']['input'];
};


export type QueryBalanceHistoryArgs = {
  accountId: Scalars['ID']['input'];
  after?: InputMaybe<Scalars['String']['input']>;
  at?: InputMaybe<Scalars['DateTime']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
};


export type QueryHoldArgs = {
  id: Scalars['ID']['input'];
};


export type QueryHoldsArgs = {
  accountId: Scalars['ID']['input'];
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  status?: InputMaybe<HoldStatus>;
};


export type QueryLedgerEntriesArgs = {
  accountId?: InputMaybe<Scalars['ID']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
  currency?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  from?: InputMaybe<Scalars['DateTime']['input']>;
  kinds?: InputMaybe<Array<LedgerEntryKind>>;
  reference?: InputMaybe<Scalars['String']['input']>;
  to?: InputMaybe<Scalars['DateTime']['input']>;
};


export type QueryLedgerEntryArgs = {
  requestId: Scalars['String']['input'];
};


export type QueryLedgerRequestArgs = {
  requestId: Scalars['String']['input'];
};


export type QueryLedgerTotalsArgs = {
  currency: Scalars['String']['input'];
  from?: InputMaybe<Scalars['DateTime']['input']>;
  to?: InputMaybe<Scalars['DateTime']['input']>;
};


export type QueryPayoutForArgs = {
  entryId: Scalars['ID']['input'];
};


export type QueryRecentWorkItemsArgs = {
  first?: Scalars['Int']['input'];
};


export type QuerySchedulesArgs = {
  first?: Scalars['Int']['input'];
};


export type QueryWorkItemArgs = {
  id: Scalars['ID']['input'];
};


export type QueryWorkItemByKeyArgs = {
  idempotencyKey: Scalars['String']['input'];
};


export type QueryWorkItemsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  createdFrom?: InputMaybe<Scalars['DateTime']['input']>;
  createdTo?: InputMaybe<Scalars['DateTime']['input']>;
  first?: Scalars['Int']['input'];
  key?: InputMaybe<Scalars['String']['input']>;
  kind?: InputMaybe<Scalars['String']['input']>;
  status?: InputMaybe<WorkItemStatus>;
};

/** An outcome that is final for its idempotency key and is repeated on replay */
export type ReplayableOutcome = AuthorizeHoldSuccess | CaptureHoldSuccess | CloseAccountSuccess | CompleteSuccess | CreateWorkItemSuccess | DepositSuccess | InsufficientFunds | OpenAccountSuccess | ReverseMoveSuccess | ScheduleWorkSuccess | TransferSuccess | VoidHoldSuccess | WithdrawSuccess | { __typename?: "%other" };

/** The replica set the API writes to, as the server reports it */
export type ReplicaSetStatus = {
  __typename?: 'ReplicaSetStatus';
  members: Scalars['Int']['output'];
  name: Scalars['String']['output'];
  /** host:port of the primary, if one is elected */
  primary: Maybe<Scalars['String']['output']>;
};

/** Not decided yet: another move held the account or this requestId (a first attempt still running) for longer than the server retries; ask again with the same requestId */
export type RequestInProgress = {
  __typename?: 'RequestInProgress';
  firstSeenAt: Scalars['DateTime']['output'];
  requestId: Scalars['String']['output'];
};

export type RequeueSuccess = {
  __typename?: 'RequeueSuccess';
  item: WorkItem;
};

export type RequeueWorkItemInput = {
  id: Scalars['ID']['input'];
  /** The version you looked at (query workItem(id) { version } first) */
  version: Scalars['Int']['input'];
};

export type RequeueWorkItemResult = ConflictLost | RequeueSuccess | WorkItemNotFound | { __typename?: "%other" };

/** Why events were, or may have been, missed */
export type ResyncReason =
  | 'CATCH_UP_TOO_LONG'
  | 'HISTORY_LOST'
  | 'INVALIDATED'
  | 'SLOW_SUBSCRIBER'
  | 'STREAM_FAILED';

/** Events were, or may have been, missed: re-read the state you need, then resume from `cursor` */
export type ResyncRequired = {
  __typename?: 'ResyncRequired';
  /** Where to resume (as `after`) once resynced */
  cursor: Scalars['String']['output'];
  reason: ResyncReason;
};

/** The reversal would take back more than the original moved, counting every earlier reversal of it. Nothing was recorded */
export type ReversalExceedsOriginal = {
  __typename?: 'ReversalExceedsOriginal';
  /** What this reversal asked (0: nothing was left) */
  amount: Scalars['SafeInt']['output'];
  originalAmount: Scalars['SafeInt']['output'];
  originalRequestId: Scalars['String']['output'];
  /** Reversed of it so far */
  reversedAmount: Scalars['SafeInt']['output'];
};

export type ReverseMoveInput = {
  /** Positive integer minor units; absent: all that is left to reverse of the original */
  amount?: InputMaybe<Scalars['SafeInt']['input']>;
  /** The requestId of the deposit or transfer to reverse */
  originalRequestId: Scalars['String']['input'];
  /** Your key for this movement (printable, at most 128 characters): the same key and parameters replay the first answer */
  requestId: Scalars['String']['input'];
};

export type ReverseMoveResult = AccountClosed | DuplicateReplayed | IdempotencyKeyReused | InsufficientFunds | MoveNotFound | NotReversible | OutcomeUnknown | RequestInProgress | ReversalExceedsOriginal | ReverseMoveSuccess | { __typename?: "%other" };

/** The reversal applied: the money went back the way the original came */
export type ReverseMoveSuccess = {
  __typename?: 'ReverseMoveSuccess';
  /** The account the money left, right after the reversal */
  account: Account;
  /** What this reversal moved back */
  amount: Scalars['SafeInt']['output'];
  /** Into the account the original debited (a transfer's reversal only) */
  creditEntry: Maybe<LedgerEntry>;
  /** Out of the account the original credited (depositReversal, or a transfer reversal's transferOut) */
  entry: LedgerEntry;
  /** What the original moved */
  originalAmount: Scalars['SafeInt']['output'];
  originalRequestId: Scalars['String']['output'];
  /** The original's total reversed, this reversal included; never above originalAmount */
  reversedAmount: Scalars['SafeInt']['output'];
  /** The account the money returned to (a transfer's reversal only), right after it */
  toAccount: Maybe<Account>;
};

export type RunLedgerAuditResult = LedgerAuditFinished | LedgerAuditQueued | { __typename?: "%other" };

/** A cron schedule: each period creates one work item, keyed schedule:<name>:<period start ISO> */
export type Schedule = {
  __typename?: 'Schedule';
  catchUp: CatchUp;
  /** By the database server's clock; periods count from here */
  createdAt: Scalars['DateTime']['output'];
  cron: Scalars['String']['output'];
  kind: Scalars['String']['output'];
  /** When it was fired, by the database server's clock */
  lastFiredAt: Maybe<Scalars['DateTime']['output']>;
  /** The start of the last period that created an item */
  lastFiredPeriod: Maybe<Scalars['DateTime']['output']>;
  /** The idempotencyKey of the last period's item */
  lastItemKey: Maybe<Scalars['String']['output']>;
  name: Scalars['String']['output'];
  /** The next period to fire (a period due and not yet fired, if the firer is behind) */
  nextFireAt: Maybe<Scalars['DateTime']['output']>;
  /** The next 10 periods */
  nextFireTimes: Array<Scalars['DateTime']['output']>;
  payload: Maybe<Scalars['JSON']['output']>;
  timeZone: Scalars['String']['output'];
};

export type ScheduleNotFound = {
  __typename?: 'ScheduleNotFound';
  name: Scalars['String']['output'];
};

export type ScheduleWorkInput = {
  /** Periods missed while no API process ran: LATEST (default) fires the latest one, ALL each (the latest 100 at most), NONE none */
  catchUp?: InputMaybe<CatchUp>;
  /** 5 fields (minute hour day-of-month month day-of-week) or 6 (seconds first), e.g. "0 2 * * *" or "*\/10 * * * * *" */
  cron: Scalars['String']['input'];
  /** The kind of the item each period creates */
  kind: Scalars['String']['input'];
  /** The schedule's key (1 to 128 letters, digits or _.-): the same name with the same fields replays, with other fields is IdempotencyKeyReused */
  name: Scalars['String']['input'];
  /** The payload of each period's item; any JSON, at most 65536 bytes */
  payload?: InputMaybe<Scalars['JSON']['input']>;
  /** An IANA time zone the cron is read in (e.g. Europe/Paris); default UTC. Daylight-saving days follow cron-parser */
  timeZone?: InputMaybe<Scalars['String']['input']>;
};

export type ScheduleWorkResult = DuplicateReplayed | IdempotencyKeyReused | InvalidSchedule | ScheduleWorkSuccess | { __typename?: "%other" };

/** The schedule is stored; its first period is the first after its creation (database clock) */
export type ScheduleWorkSuccess = {
  __typename?: 'ScheduleWorkSuccess';
  schedule: Schedule;
};

export type SubmitMovesInput = {
  /** true: every move applies or none does (LinkedMoveFailed for the others) */
  atomic: Scalars['Boolean']['input'];
  /** In order; each move is decided after the ones before it */
  moves: Array<MoveInput>;
};

export type SubmitMovesResult = BatchTooLarge | SubmitMovesSuccess | { __typename?: "%other" };

/** One result per move, in the order of the moves */
export type SubmitMovesSuccess = {
  __typename?: 'SubmitMovesSuccess';
  results: Array<MoveResult>;
};

export type Subscription = {
  __typename?: 'Subscription';
  /** Every balance change of the given accounts (at most 100), in version order per account; `after` resumes from a cursor */
  accountBalanceChanged: AccountBalanceEvent;
  /** Every authorization and resolution (capture, void, expiry) of one account's holds, in order per hold; `after` resumes from a cursor */
  holdChanged: HoldEvent;
  /** Every journal entry written (of one account, or of all), in version order per account; `after` resumes from a cursor */
  ledgerEntryAdded: LedgerEntryEvent;
  /** Every committed transition of matching work items, in version order per item; `after` resumes from a cursor */
  workItemStatusChanged: WorkItemStatusEvent;
};


export type SubscriptionAccountBalanceChangedArgs = {
  accountIds: Array<Scalars['ID']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
};


export type SubscriptionHoldChangedArgs = {
  accountId: Scalars['ID']['input'];
  after?: InputMaybe<Scalars['String']['input']>;
};


export type SubscriptionLedgerEntryAddedArgs = {
  accountId?: InputMaybe<Scalars['ID']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
};


export type SubscriptionWorkItemStatusChangedArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  id?: InputMaybe<Scalars['ID']['input']>;
  kinds?: InputMaybe<Array<Scalars['String']['input']>>;
};

export type TransferInput = {
  /** Positive integer minor units (500 is 5.00 EUR), at most 2^53-1; a number, not a string */
  amount: Scalars['SafeInt']['input'];
  fromAccountId: Scalars['String']['input'];
  /** A JSON object of your own, at most 4096 bytes and 8 levels: returned on the move's entries, part of what a replay must match */
  metadata?: InputMaybe<Scalars['JSON']['input']>;
  /** Your reference for the move (an invoice or bank transaction id), at most 128 characters: returned on its entries, found by ledgerEntries(reference:), part of what a replay must match */
  reference?: InputMaybe<Scalars['String']['input']>;
  /** Your key for this movement (printable, at most 128 characters): the same key and parameters replay the first answer */
  requestId: Scalars['String']['input'];
  toAccountId: Scalars['String']['input'];
};

export type TransferResult = AccountClosed | AccountNotFound | BalanceLimitExceeded | CurrencyMismatch | DuplicateReplayed | IdempotencyKeyReused | InsufficientFunds | OutcomeUnknown | RequestInProgress | TransferSuccess | { __typename?: "%other" };

/** Both legs of a transfer, each with its account right after it */
export type TransferSuccess = {
  __typename?: 'TransferSuccess';
  credit: LedgerEntry;
  debit: LedgerEntry;
  from: Account;
  to: Account;
};

export type UnscheduleWorkInput = {
  name: Scalars['String']['input'];
};

export type UnscheduleWorkResult = ScheduleNotFound | UnscheduleWorkSuccess | { __typename?: "%other" };

/** The schedule is removed: no period after this fires; items already made stay */
export type UnscheduleWorkSuccess = {
  __typename?: 'UnscheduleWorkSuccess';
  /** The schedule as it was */
  schedule: Schedule;
};

export type Viewer = {
  __typename?: 'Viewer';
  /** Whether this key may requeue FAILED work items */
  mayRequeue: Scalars['Boolean']['output'];
  /** Whether this key may open subscriptions */
  maySubscribe: Scalars['Boolean']['output'];
  /** dashboard, ops, worker, service or admin */
  role: Scalars['String']['output'];
  /** The subscription fields this key may open (e.g. a worker: workItemStatusChanged only) */
  subscriptions: Array<Scalars['String']['output']>;
};

export type VoidHoldInput = {
  holdId: Scalars['String']['input'];
  /** Your key for this movement (printable, at most 128 characters): the same key and parameters replay the first answer */
  requestId: Scalars['String']['input'];
};

export type VoidHoldResult = DuplicateReplayed | HoldNotFound | HoldNotPending | IdempotencyKeyReused | OutcomeUnknown | RequestInProgress | VoidHoldSuccess | { __typename?: "%other" };

/** Voided: the whole hold was released */
export type VoidHoldSuccess = {
  __typename?: 'VoidHoldSuccess';
  /** The account as this decision left it (the same on every replay) */
  account: Account;
  /** The hold as this decision left it (the same on every replay) */
  hold: Hold;
};

export type WithdrawInput = {
  accountId: Scalars['String']['input'];
  /** Positive integer minor units (500 is 5.00 EUR), at most 2^53-1; a number, not a string */
  amount: Scalars['SafeInt']['input'];
  /** A JSON object of your own, at most 4096 bytes and 8 levels: returned on the move's entries, part of what a replay must match */
  metadata?: InputMaybe<Scalars['JSON']['input']>;
  /** Your reference for the move (an invoice or bank transaction id), at most 128 characters: returned on its entries, found by ledgerEntries(reference:), part of what a replay must match */
  reference?: InputMaybe<Scalars['String']['input']>;
  /** Your key for this movement (printable, at most 128 characters): the same key and parameters replay the first answer */
  requestId: Scalars['String']['input'];
};

export type WithdrawResult = AccountClosed | AccountNotFound | DuplicateReplayed | IdempotencyKeyReused | InsufficientFunds | OutcomeUnknown | RequestInProgress | WithdrawSuccess | { __typename?: "%other" };

export type WithdrawSuccess = {
  __typename?: 'WithdrawSuccess';
  /** The account as it stood right after this write (the same on every replay) */
  account: Account;
  entry: LedgerEntry;
};

/** One group's queue within its kind (W9) */
export type WorkGroupStats = {
  __typename?: 'WorkGroupStats';
  /** A count stopped at 10,000 */
  capped: Scalars['Boolean']['output'];
  group: Scalars['String']['output'];
  kind: Scalars['String']['output'];
  /** Most items of each group of the kind PROCESSING with a live lease (WORK_GROUP_LIMITS); null: unlimited */
  limit: Maybe<Scalars['Int']['output']>;
  /** PROCESSING */
  running: Scalars['Int']['output'];
  /** PENDING and due */
  waiting: Scalars['Int']['output'];
};

export type WorkItem = {
  __typename?: 'WorkItem';
  attempts: Scalars['Int']['output'];
  /** When a PENDING item may next be claimed */
  availableAt: Scalars['DateTime']['output'];
  createdAt: Scalars['DateTime']['output'];
  /** The tenant or merchant it belongs to within its kind; null: none */
  group: Maybe<Scalars['String']['output']>;
  /** The most recent transitions, oldest first (bounded) */
  history: Array<WorkItemTransition>;
  id: Scalars['ID']['output'];
  /** Namespaced: client:<key>, payout:<entryId> or schedule:<name>:<period start ISO> */
  idempotencyKey: Scalars['String']['output'];
  kind: Scalars['String']['output'];
  leaseExpiresAt: Maybe<Scalars['DateTime']['output']>;
  lockedBy: Maybe<Scalars['String']['output']>;
  maxAttempts: Scalars['Int']['output'];
  payload: Maybe<Scalars['JSON']['output']>;
  previousStatus: Maybe<WorkItemStatus>;
  /** Among the due items of its kind, higher is claimed first */
  priority: Scalars['Int']['output'];
  result: Maybe<Scalars['JSON']['output']>;
  /** Not claimable before this instant of the database clock, as its creation asked (null: at once) */
  runAt: Maybe<Scalars['DateTime']['output']>;
  status: WorkItemStatus;
  /** The W3C traceparent of what created it (the withdrawal, for a payout), when that request was traced; its second field is the trace id */
  traceparent: Maybe<Scalars['String']['output']>;
  updatedAt: Scalars['DateTime']['output'];
  /** Bumped by every transition; the fencing token a lease holder presents */
  version: Scalars['Int']['output'];
};

export type WorkItemNotFound = {
  __typename?: 'WorkItemNotFound';
  id: Scalars['ID']['output'];
};

export type WorkItemPage = {
  __typename?: 'WorkItemPage';
  /** Pass as `after` for the next page */
  endCursor: Maybe<Scalars['String']['output']>;
  hasNextPage: Scalars['Boolean']['output'];
  items: Array<WorkItem>;
  /** Matching items, counted on the index up to 10000 */
  totalCount: Scalars['Int']['output'];
  /** True when there are more than `totalCount` */
  totalCountCapped: Scalars['Boolean']['output'];
};

/** Where a work item is in the transition table */
export type WorkItemStatus =
  | 'DONE'
  | 'FAILED'
  | 'PENDING'
  | 'PROCESSING';

/** One committed transition of a work item (or its creation), in version order per item */
export type WorkItemStatusChanged = {
  __typename?: 'WorkItemStatusChanged';
  /** By the database server's clock */
  at: Scalars['DateTime']['output'];
  /** Opaque; pass it as `after` to resume right after this event, on any API process */
  cursor: Scalars['String']['output'];
  itemId: Scalars['ID']['output'];
  kind: Scalars['String']['output'];
  /** Null for the creation */
  previousStatus: Maybe<WorkItemStatus>;
  status: WorkItemStatus;
  /** The version this transition produced */
  version: Scalars['Int']['output'];
};

export type WorkItemStatusEvent = ResyncRequired | WorkItemStatusChanged | { __typename?: "%other" };

/** One transition, as the write that made it recorded it */
export type WorkItemTransition = {
  __typename?: 'WorkItemTransition';
  /** By the database server's clock */
  at: Scalars['DateTime']['output'];
  /** Null for the creation */
  from: Maybe<WorkItemStatus>;
  to: WorkItemStatus;
  /** The version this transition produced */
  version: Scalars['Int']['output'];
  workerId: Maybe<Scalars['String']['output']>;
};

/** One kind's queue: waiting and delayed split on the database clock, as claims judge them */
export type WorkKindStats = {
  __typename?: 'WorkKindStats';
  /** A count stopped at 10,000 */
  capped: Scalars['Boolean']['output'];
  /** PENDING before their availableAt (runAt, or a retry backoff) */
  delayed: Scalars['Int']['output'];
  kind: Scalars['String']['output'];
  /** Most items of the kind PROCESSING with a live lease, across all API processes (WORK_KIND_LIMITS); null: unlimited */
  limit: Maybe<Scalars['Int']['output']>;
  /** PROCESSING (leased to a worker, or stalled until reclaimed) */
  running: Scalars['Int']['output'];
  /** PENDING and due: claimable now (unless the kind is at its limit) */
  waiting: Scalars['Int']['output'];
};

export type WorkQueueCount = {
  __typename?: 'WorkQueueCount';
  capped: Scalars['Boolean']['output'];
  /** Counted on the index up to 10,000 (`capped` then says so) */
  count: Scalars['Int']['output'];
  kind: Scalars['String']['output'];
  status: WorkItemStatus;
};

export type WorkQueueStats = {
  __typename?: 'WorkQueueStats';
  /** ConflictLost answers counted by this API process since it started */
  conflictsSinceStart: Scalars['Int']['output'];
  /** Items per status and kind */
  counts: Array<WorkQueueCount>;
  /** Waiting and running items per group of each kind (groups with some; at most 100 per kind) */
  groups: Array<WorkGroupStats>;
  /** Waiting, delayed and running items per kind, with its limit */
  kinds: Array<WorkKindStats>;
  /** How long the oldest due PENDING item has waited, by the server's clock */
  oldestPendingAgeSeconds: Maybe<Scalars['Float']['output']>;
};

export type AccountQueryVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type AccountQuery = { __typename?: 'Query', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } | null };

export type AccountBalanceChangedSubscriptionVariables = Exact<{
  accountIds: Array<Scalars['ID']['input']> | Scalars['ID']['input'];
  after?: InputMaybe<Scalars['String']['input']>;
}>;


export type AccountBalanceChangedSubscription = { __typename?: 'Subscription', accountBalanceChanged:
    | { __typename: 'AccountBalanceChanged', cursor: string, accountId: string, balance: number, version: number, at: string }
    | { __typename: 'ResyncRequired', cursor: string, reason: ResyncReason }
   };

export type AccountsQueryVariables = Exact<{
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
}>;


export type AccountsQuery = { __typename?: 'Query', accounts: { __typename?: 'AccountPage', endCursor: string | null, hasNextPage: boolean, items: Array<{ __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }> } };

export type AuthorizeHoldMutationVariables = Exact<{
  input: AuthorizeHoldInput;
}>;


export type AuthorizeHoldMutation = { __typename?: 'Mutation', authorizeHold:
    | { __typename: 'AccountClosed', accountId: string, closedAt: string | null }
    | { __typename: 'AccountNotFound', accountId: string }
    | { __typename: 'AuthorizeHoldSuccess', hold: { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string }, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } }
    | { __typename: 'DuplicateReplayed', requestId: string, firstSeenAt: string, original:
        | { __typename: 'AuthorizeHoldSuccess', hold: { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string }, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } }
        | { __typename: 'CaptureHoldSuccess', hold: { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }, creditEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, toAccount: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } | null }
        | { __typename: 'CloseAccountSuccess', movedAmount: number, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, transferredTo: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, debitEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null, creditEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null }
        | { __typename: 'CompleteSuccess', item: { __typename?: 'WorkItem', id: string, kind: string, status: WorkItemStatus, previousStatus: WorkItemStatus | null, version: number, attempts: number, maxAttempts: number, idempotencyKey: string, group: string | null, payload: unknown | null, result: unknown | null, lockedBy: string | null, leaseExpiresAt: string | null, availableAt: string, priority: number, runAt: string | null, createdAt: string, updatedAt: string, traceparent: string | null, history: Array<{ __typename?: 'WorkItemTransition', from: WorkItemStatus | null, to: WorkItemStatus, version: number, at: string, workerId: string | null }> } }
        | { __typename: 'CreateWorkItemSuccess', item: { __typename?: 'WorkItem', id: string, kind: string, status: WorkItemStatus, previousStatus: WorkItemStatus | null, version: number, attempts: number, maxAttempts: number, idempotencyKey: string, group: string | null, payload: unknown | null, result: unknown | null, lockedBy: string | null, leaseExpiresAt: string | null, availableAt: string, priority: number, runAt: string | null, createdAt: string, updatedAt: string, traceparent: string | null, history: Array<{ __typename?: 'WorkItemTransition', from: WorkItemStatus | null, to: WorkItemStatus, version: number, at: string, workerId: string | null }> } }
        | { __typename: 'DepositSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } }
        | { __typename: 'InsufficientFunds', accountId: string, amount: number, balance: number }
        | { __typename: 'OpenAccountSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } }
        | { __typename: 'ReverseMoveSuccess', originalRequestId: string, amount: number, originalAmount: number, reversedAmount: number, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }, creditEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, toAccount: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } | null }
        | { __typename: 'ScheduleWorkSuccess', schedule: { __typename?: 'Schedule', name: string, kind: string, cron: string, timeZone: string, payload: unknown | null, catchUp: CatchUp, createdAt: string, nextFireAt: string | null, nextFireTimes: Array<string>, lastFiredPeriod: string | null, lastFiredAt: string | null, lastItemKey: string | null } }
        | { __typename: 'TransferSuccess', from: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, to: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, debit: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }, credit: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } }
        | { __typename: 'VoidHoldSuccess', hold: { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string }, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } }
        | { __typename: 'WithdrawSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } }
       }
    | { __typename: 'IdempotencyKeyReused', requestId: string, field: string | null, detail: string }
    | { __typename: 'InsufficientFunds', accountId: string, amount: number, balance: number }
    | { __typename: 'OutcomeUnknown', requestId: string, firstSeenAt: string }
    | { __typename: 'RequestInProgress', requestId: string, firstSeenAt: string }
   };

export type BalanceAtQueryVariables = Exact<{
  accountId: Scalars['ID']['input'];
  at: Scalars['DateTime']['input'];
}>;


export type BalanceAtQuery = { __typename?: 'Query', balanceAt: number | null };

export type BalanceHistoryQueryVariables = Exact<{
  accountId: Scalars['ID']['input'];
  at?: InputMaybe<Scalars['DateTime']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
}>;


export type BalanceHistoryQuery = { __typename?: 'Query', balanceHistory: { __typename?: 'BalanceHistoryPage', endCursor: string | null, hasNextPage: boolean, items: Array<{ __typename?: 'BalancePoint', at: string, balance: number, version: number, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } }> } };

export type CaptureHoldMutationVariables = Exact<{
  input: CaptureHoldInput;
}>;


export type CaptureHoldMutation = { __typename?: 'Mutation', captureHold:
    | { __typename: 'AccountClosed', accountId: string, closedAt: string | null }
    | { __typename: 'AccountNotFound', accountId: string }
    | { __typename: 'BalanceLimitExceeded', accountId: string, amount: number, balance: number }
    | { __typename: 'CaptureExceedsHold', holdId: string, holdAmount: number, amount: number }
    | { __typename: 'CaptureHoldSuccess', hold: { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }, creditEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, toAccount: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } | null }
    | { __typename: 'CurrencyMismatch', fromAccountId: string, fromCurrency: string, toAccountId: string, toCurrency: string }
    | { __typename: 'DuplicateReplayed', requestId: string, firstSeenAt: string, original:
        | { __typename: 'AuthorizeHoldSuccess', hold: { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string }, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } }
        | { __typename: 'CaptureHoldSuccess', hold: { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }, creditEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, toAccount: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } | null }
        | { __typename: 'CloseAccountSuccess', movedAmount: number, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, transferredTo: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, debitEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null, creditEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null }
        | { __typename: 'CompleteSuccess', item: { __typename?: 'WorkItem', id: string, kind: string, status: WorkItemStatus, previousStatus: WorkItemStatus | null, version: number, attempts: number, maxAttempts: number, idempotencyKey: string, group: string | null, payload: unknown | null, result: unknown | null, lockedBy: string | null, leaseExpiresAt: string | null, availableAt: string, priority: number, runAt: string | null, createdAt: string, updatedAt: string, traceparent: string | null, history: Array<{ __typename?: 'WorkItemTransition', from: WorkItemStatus | null, to: WorkItemStatus, version: number, at: string, workerId: string | null }> } }
        | { __typename: 'CreateWorkItemSuccess', item: { __typename?: 'WorkItem', id: string, kind: string, status: WorkItemStatus, previousStatus: WorkItemStatus | null, version: number, attempts: number, maxAttempts: number, idempotencyKey: string, group: string | null, payload: unknown | null, result: unknown | null, lockedBy: string | null, leaseExpiresAt: string | null, availableAt: string, priority: number, runAt: string | null, createdAt: string, updatedAt: string, traceparent: string | null, history: Array<{ __typename?: 'WorkItemTransition', from: WorkItemStatus | null, to: WorkItemStatus, version: number, at: string, workerId: string | null }> } }
        | { __typename: 'DepositSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } }
        | { __typename: 'InsufficientFunds', accountId: string, amount: number, balance: number }
        | { __typename: 'OpenAccountSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } }
        | { __typename: 'ReverseMoveSuccess', originalRequestId: string, amount: number, originalAmount: number, reversedAmount: number, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }, creditEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, toAccount: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } | null }
        | { __typename: 'ScheduleWorkSuccess', schedule: { __typename?: 'Schedule', name: string, kind: string, cron: string, timeZone: string, payload: unknown | null, catchUp: CatchUp, createdAt: string, nextFireAt: string | null, nextFireTimes: Array<string>, lastFiredPeriod: string | null, lastFiredAt: string | null, lastItemKey: string | null } }
        | { __typename: 'TransferSuccess', from: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, to: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, debit: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }, credit: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } }
        | { __typename: 'VoidHoldSuccess', hold: { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string }, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } }
        | { __typename: 'WithdrawSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } }
       }
    | { __typename: 'HoldNotFound', holdId: string }
    | { __typename: 'HoldNotPending', holdId: string, status: HoldStatus }
    | { __typename: 'IdempotencyKeyReused', requestId: string, field: string | null, detail: string }
    | { __typename: 'OutcomeUnknown', requestId: string, firstSeenAt: string }
    | { __typename: 'RequestInProgress', requestId: string, firstSeenAt: string }
   };

export type ClaimWorkItemMutationVariables = Exact<{
  input: ClaimWorkItemInput;
}>;


export type ClaimWorkItemMutation = { __typename?: 'Mutation', claimWorkItem:
    | { __typename: 'ClaimSuccess', item: { __typename?: 'WorkItem', id: string, kind: string, status: WorkItemStatus, previousStatus: WorkItemStatus | null, version: number, attempts: number, maxAttempts: number, idempotencyKey: string, group: string | null, payload: unknown | null, result: unknown | null, lockedBy: string | null, leaseExpiresAt: string | null, availableAt: string, priority: number, runAt: string | null, createdAt: string, updatedAt: string, traceparent: string | null, history: Array<{ __typename?: 'WorkItemTransition', from: WorkItemStatus | null, to: WorkItemStatus, version: number, at: string, workerId: string | null }> } }
    | { __typename: 'ConflictLost', operation: string, reason: ConflictReason, detail: string, item: { __typename?: 'WorkItem', id: string, kind: string, status: WorkItemStatus, previousStatus: WorkItemStatus | null, version: number, attempts: number, maxAttempts: number, idempotencyKey: string, group: string | null, payload: unknown | null, result: unknown | null, lockedBy: string | null, leaseExpiresAt: string | null, availableAt: string, priority: number, runAt: string | null, createdAt: string, updatedAt: string, traceparent: string | null, history: Array<{ __typename?: 'WorkItemTransition', from: WorkItemStatus | null, to: WorkItemStatus, version: number, at: string, workerId: string | null }> } }
    | { __typename: 'NothingToClaim', kinds: Array<string> }
    | { __typename: 'WorkItemNotFound', id: string }
   };

export type ClaimWorkItemsMutationVariables = Exact<{
  input: ClaimWorkItemsInput;
}>;


export type ClaimWorkItemsMutation = { __typename?: 'Mutation', claimWorkItems:
    | { __typename: 'ClaimWorkItemsSuccess', conflicts: number, items: Array<{ __typename?: 'WorkItem', id: string, kind: string, status: WorkItemStatus, previousStatus: WorkItemStatus | null, version: number, attempts: number, maxAttempts: number, idempotencyKey: string, group: string | null, payload: unknown | null, result: unknown | null, lockedBy: string | null, leaseExpiresAt: string | null, availableAt: string, priority: number, runAt: string | null, createdAt: string, updatedAt: string, traceparent: string | null, history: Array<{ __typename?: 'WorkItemTransition', from: WorkItemStatus | null, to: WorkItemStatus, version: number, at: string, workerId: string | null }> }> }
    | { __typename: 'NothingToClaim', kinds: Array<string> }
   };

export type CloseAccountMutationVariables = Exact<{
  input: CloseAccountInput;
}>;


export type CloseAccountMutation = { __typename?: 'Mutation', closeAccount:
    | { __typename: 'AccountClosed', accountId: string, closedAt: string | null }
    | { __typename: 'AccountHasHolds', accountId: string, held: number }
    | { __typename: 'AccountNotFound', accountId: string }
    | { __typename: 'CloseAccountSuccess', movedAmount: number, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, transferredTo: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, debitEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null, creditEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null }
    | { __typename: 'CurrencyMismatch', fromAccountId: string, fromCurrency: string, toAccountId: string, toCurrency: string }
    | { __typename: 'DuplicateReplayed', requestId: string, firstSeenAt: string, original:
        | { __typename: 'AuthorizeHoldSuccess', hold: { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string }, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } }
        | { __typename: 'CaptureHoldSuccess', hold: { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }, creditEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, toAccount: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } | null }
        | { __typename: 'CloseAccountSuccess', movedAmount: number, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, transferredTo: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, debitEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null, creditEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null }
        | { __typename: 'CompleteSuccess', item: { __typename?: 'WorkItem', id: string, kind: string, status: WorkItemStatus, previousStatus: WorkItemStatus | null, version: number, attempts: number, maxAttempts: number, idempotencyKey: string, group: string | null, payload: unknown | null, result: unknown | null, lockedBy: string | null, leaseExpiresAt: string | null, availableAt: string, priority: number, runAt: string | null, createdAt: string, updatedAt: string, traceparent: string | null, history: Array<{ __typename?: 'WorkItemTransition', from: WorkItemStatus | null, to: WorkItemStatus, version: number, at: string, workerId: string | null }> } }
        | { __typename: 'CreateWorkItemSuccess', item: { __typename?: 'WorkItem', id: string, kind: string, status: WorkItemStatus, previousStatus: WorkItemStatus | null, version: number, attempts: number, maxAttempts: number, idempotencyKey: string, group: string | null, payload: unknown | null, result: unknown | null, lockedBy: string | null, leaseExpiresAt: string | null, availableAt: string, priority: number, runAt: string | null, createdAt: string, updatedAt: string, traceparent: string | null, history: Array<{ __typename?: 'WorkItemTransition', from: WorkItemStatus | null, to: WorkItemStatus, version: number, at: string, workerId: string | null }> } }
        | { __typename: 'DepositSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } }
        | { __typename: 'InsufficientFunds', accountId: string, amount: number, balance: number }
        | { __typename: 'OpenAccountSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } }
        | { __typename: 'ReverseMoveSuccess', originalRequestId: string, amount: number, originalAmount: number, reversedAmount: number, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }, creditEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, toAccount: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } | null }
        | { __typename: 'ScheduleWorkSuccess', schedule: { __typename?: 'Schedule', name: string, kind: string, cron: string, timeZone: string, payload: unknown | null, catchUp: CatchUp, createdAt: string, nextFireAt: string | null, nextFireTimes: Array<string>, lastFiredPeriod: string | null, lastFiredAt: string | null, lastItemKey: string | null } }
        | { __typename: 'TransferSuccess', from: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, to: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, debit: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }, credit: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } }
        | { __typename: 'VoidHoldSuccess', hold: { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string }, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } }
        | { __typename: 'WithdrawSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } }
       }
    | { __typename: 'IdempotencyKeyReused', requestId: string, field: string | null, detail: string }
    | { __typename: 'OutcomeUnknown', requestId: string, firstSeenAt: string }
    | { __typename: 'RequestInProgress', requestId: string, firstSeenAt: string }
   };

export type CompleteWorkItemMutationVariables = Exact<{
  input: CompleteWorkItemInput;
}>;


export type CompleteWorkItemMutation = { __typename?: 'Mutation', completeWorkItem:
    | { __typename: 'CompleteSuccess', item: { __typename?: 'WorkItem', id: string, kind: string, status: WorkItemStatus, previousStatus: WorkItemStatus | null, version: number, attempts: number, maxAttempts: number, idempotencyKey: string, group: string | null, payload: unknown | null, result: unknown | null, lockedBy: string | null, leaseExpiresAt: string | null, availableAt: string, priority: number, runAt: string | null, createdAt: string, updatedAt: string, traceparent: string | null, history: Array<{ __typename?: 'WorkItemTransition', from: WorkItemStatus | null, to: WorkItemStatus, version: number, at: string, workerId: string | null }> } }
    | { __typename: 'ConflictLost', operation: string, reason: ConflictReason, detail: string, item: { __typename?: 'WorkItem', id: string, kind: string, status: WorkItemStatus, previousStatus: WorkItemStatus | null, version: number, attempts: number, maxAttempts: number, idempotencyKey: string, group: string | null, payload: unknown | null, result: unknown | null, lockedBy: string | null, leaseExpiresAt: string | null, availableAt: string, priority: number, runAt: string | null, createdAt: string, updatedAt: string, traceparent: string | null, history: Array<{ __typename?: 'WorkItemTransition', from: WorkItemStatus | null, to: WorkItemStatus, version: number, at: string, workerId: string | null }> } }
    | { __typename: 'DuplicateReplayed', requestId: string, firstSeenAt: string, original:
        | { __typename: 'AuthorizeHoldSuccess', hold: { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string }, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } }
        | { __typename: 'CaptureHoldSuccess', hold: { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }, creditEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, toAccount: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } | null }
        | { __typename: 'CloseAccountSuccess', movedAmount: number, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, transferredTo: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, debitEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null, creditEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null }
        | { __typename: 'CompleteSuccess', item: { __typename?: 'WorkItem', id: string, kind: string, status: WorkItemStatus, previousStatus: WorkItemStatus | null, version: number, attempts: number, maxAttempts: number, idempotencyKey: string, group: string | null, payload: unknown | null, result: unknown | null, lockedBy: string | null, leaseExpiresAt: string | null, availableAt: string, priority: number, runAt: string | null, createdAt: string, updatedAt: string, traceparent: string | null, history: Array<{ __typename?: 'WorkItemTransition', from: WorkItemStatus | null, to: WorkItemStatus, version: number, at: string, workerId: string | null }> } }
        | { __typename: 'CreateWorkItemSuccess', item: { __typename?: 'WorkItem', id: string, kind: string, status: WorkItemStatus, previousStatus: WorkItemStatus | null, version: number, attempts: number, maxAttempts: number, idempotencyKey: string, group: string | null, payload: unknown | null, result: unknown | null, lockedBy: string | null, leaseExpiresAt: string | null, availableAt: string, priority: number, runAt: string | null, createdAt: string, updatedAt: string, traceparent: string | null, history: Array<{ __typename?: 'WorkItemTransition', from: WorkItemStatus | null, to: WorkItemStatus, version: number, at: string, workerId: string | null }> } }
        | { __typename: 'DepositSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } }
        | { __typename: 'InsufficientFunds', accountId: string, amount: number, balance: number }
        | { __typename: 'OpenAccountSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } }
        | { __typename: 'ReverseMoveSuccess', originalRequestId: string, amount: number, originalAmount: number, reversedAmount: number, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }, creditEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, toAccount: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } | null }
        | { __typename: 'ScheduleWorkSuccess', schedule: { __typename?: 'Schedule', name: string, kind: string, cron: string, timeZone: string, payload: unknown | null, catchUp: CatchUp, createdAt: string, nextFireAt: string | null, nextFireTimes: Array<string>, lastFiredPeriod: string | null, lastFiredAt: string | null, lastItemKey: string | null } }
        | { __typename: 'TransferSuccess', from: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, to: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, debit: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }, credit: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } }
        | { __typename: 'VoidHoldSuccess', hold: { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string }, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } }
        | { __typename: 'WithdrawSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } }
       }
    | { __typename: 'WorkItemNotFound', id: string }
   };

export type CompleteWorkItemsMutationVariables = Exact<{
  input: CompleteWorkItemsInput;
}>;


export type CompleteWorkItemsMutation = { __typename?: 'Mutation', completeWorkItems: { __typename?: 'CompleteWorkItemsResult', results: Array<
      | { __typename: 'CompleteSuccess', item: { __typename?: 'WorkItem', id: string, status: WorkItemStatus, version: number } }
      | { __typename: 'ConflictLost', operation: string, reason: ConflictReason, detail: string, item: { __typename?: 'WorkItem', id: string, status: WorkItemStatus, version: number, lockedBy: string | null } }
      | { __typename: 'DuplicateReplayed', requestId: string, firstSeenAt: string }
      | { __typename: 'WorkItemNotFound', id: string }
    > } };

export type CreateWorkItemMutationVariables = Exact<{
  input: CreateWorkItemInput;
}>;


export type CreateWorkItemMutation = { __typename?: 'Mutation', createWorkItem:
    | { __typename: 'CreateWorkItemSuccess', item: { __typename?: 'WorkItem', id: string, kind: string, status: WorkItemStatus, previousStatus: WorkItemStatus | null, version: number, attempts: number, maxAttempts: number, idempotencyKey: string, group: string | null, payload: unknown | null, result: unknown | null, lockedBy: string | null, leaseExpiresAt: string | null, availableAt: string, priority: number, runAt: string | null, createdAt: string, updatedAt: string, traceparent: string | null, history: Array<{ __typename?: 'WorkItemTransition', from: WorkItemStatus | null, to: WorkItemStatus, version: number, at: string, workerId: string | null }> } }
    | { __typename: 'DuplicateReplayed', requestId: string, firstSeenAt: string, original:
        | { __typename: 'AuthorizeHoldSuccess', hold: { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string }, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } }
        | { __typename: 'CaptureHoldSuccess', hold: { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }, creditEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, toAccount: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } | null }
        | { __typename: 'CloseAccountSuccess', movedAmount: number, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, transferredTo: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, debitEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null, creditEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null }
        | { __typename: 'CompleteSuccess', item: { __typename?: 'WorkItem', id: string, kind: string, status: WorkItemStatus, previousStatus: WorkItemStatus | null, version: number, attempts: number, maxAttempts: number, idempotencyKey: string, group: string | null, payload: unknown | null, result: unknown | null, lockedBy: string | null, leaseExpiresAt: string | null, availableAt: string, priority: number, runAt: string | null, createdAt: string, updatedAt: string, traceparent: string | null, history: Array<{ __typename?: 'WorkItemTransition', from: WorkItemStatus | null, to: WorkItemStatus, version: number, at: string, workerId: string | null }> } }
        | { __typename: 'CreateWorkItemSuccess', item: { __typename?: 'WorkItem', id: string, kind: string, status: WorkItemStatus, previousStatus: WorkItemStatus | null, version: number, attempts: number, maxAttempts: number, idempotencyKey: string, group: string | null, payload: unknown | null, result: unknown | null, lockedBy: string | null, leaseExpiresAt: string | null, availableAt: string, priority: number, runAt: string | null, createdAt: string, updatedAt: string, traceparent: string | null, history: Array<{ __typename?: 'WorkItemTransition', from: WorkItemStatus | null, to: WorkItemStatus, version: number, at: string, workerId: string | null }> } }
        | { __typename: 'DepositSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } }
        | { __typename: 'InsufficientFunds', accountId: string, amount: number, balance: number }
        | { __typename: 'OpenAccountSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } }
        | { __typename: 'ReverseMoveSuccess', originalRequestId: string, amount: number, originalAmount: number, reversedAmount: number, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }, creditEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, toAccount: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } | null }
        | { __typename: 'ScheduleWorkSuccess', schedule: { __typename?: 'Schedule', name: string, kind: string, cron: string, timeZone: string, payload: unknown | null, catchUp: CatchUp, createdAt: string, nextFireAt: string | null, nextFireTimes: Array<string>, lastFiredPeriod: string | null, lastFiredAt: string | null, lastItemKey: string | null } }
        | { __typename: 'TransferSuccess', from: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, to: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, debit: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }, credit: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } }
        | { __typename: 'VoidHoldSuccess', hold: { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string }, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } }
        | { __typename: 'WithdrawSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } }
       }
    | { __typename: 'IdempotencyKeyReused', requestId: string, field: string | null, detail: string }
   };

export type DepositMutationVariables = Exact<{
  input: DepositInput;
}>;


export type DepositMutation = { __typename?: 'Mutation', deposit:
    | { __typename: 'AccountClosed', accountId: string, closedAt: string | null }
    | { __typename: 'AccountNotFound', accountId: string }
    | { __typename: 'BalanceLimitExceeded', accountId: string, amount: number, balance: number }
    | { __typename: 'DepositSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } }
    | { __typename: 'DuplicateReplayed', requestId: string, firstSeenAt: string, original:
        | { __typename: 'AuthorizeHoldSuccess', hold: { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string }, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } }
        | { __typename: 'CaptureHoldSuccess', hold: { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }, creditEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, toAccount: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } | null }
        | { __typename: 'CloseAccountSuccess', movedAmount: number, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, transferredTo: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, debitEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null, creditEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null }
        | { __typename: 'CompleteSuccess', item: { __typename?: 'WorkItem', id: string, kind: string, status: WorkItemStatus, previousStatus: WorkItemStatus | null, version: number, attempts: number, maxAttempts: number, idempotencyKey: string, group: string | null, payload: unknown | null, result: unknown | null, lockedBy: string | null, leaseExpiresAt: string | null, availableAt: string, priority: number, runAt: string | null, createdAt: string, updatedAt: string, traceparent: string | null, history: Array<{ __typename?: 'WorkItemTransition', from: WorkItemStatus | null, to: WorkItemStatus, version: number, at: string, workerId: string | null }> } }
        | { __typename: 'CreateWorkItemSuccess', item: { __typename?: 'WorkItem', id: string, kind: string, status: WorkItemStatus, previousStatus: WorkItemStatus | null, version: number, attempts: number, maxAttempts: number, idempotencyKey: string, group: string | null, payload: unknown | null, result: unknown | null, lockedBy: string | null, leaseExpiresAt: string | null, availableAt: string, priority: number, runAt: string | null, createdAt: string, updatedAt: string, traceparent: string | null, history: Array<{ __typename?: 'WorkItemTransition', from: WorkItemStatus | null, to: WorkItemStatus, version: number, at: string, workerId: string | null }> } }
        | { __typename: 'DepositSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } }
        | { __typename: 'InsufficientFunds', accountId: string, amount: number, balance: number }
        | { __typename: 'OpenAccountSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } }
        | { __typename: 'ReverseMoveSuccess', originalRequestId: string, amount: number, originalAmount: number, reversedAmount: number, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }, creditEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, toAccount: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } | null }
        | { __typename: 'ScheduleWorkSuccess', schedule: { __typename?: 'Schedule', name: string, kind: string, cron: string, timeZone: string, payload: unknown | null, catchUp: CatchUp, createdAt: string, nextFireAt: string | null, nextFireTimes: Array<string>, lastFiredPeriod: string | null, lastFiredAt: string | null, lastItemKey: string | null } }
        | { __typename: 'TransferSuccess', from: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, to: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, debit: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }, credit: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } }
        | { __typename: 'VoidHoldSuccess', hold: { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string }, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } }
        | { __typename: 'WithdrawSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } }
       }
    | { __typename: 'IdempotencyKeyReused', requestId: string, field: string | null, detail: string }
    | { __typename: 'OutcomeUnknown', requestId: string, firstSeenAt: string }
    | { __typename: 'RequestInProgress', requestId: string, firstSeenAt: string }
   };

export type AccountFieldsFragment = { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null };

export type HoldFieldsFragment = { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string };

export type LedgerEntryFieldsFragment = { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number };

export type WorkItemFieldsFragment = { __typename?: 'WorkItem', id: string, kind: string, status: WorkItemStatus, previousStatus: WorkItemStatus | null, version: number, attempts: number, maxAttempts: number, idempotencyKey: string, group: string | null, payload: unknown | null, result: unknown | null, lockedBy: string | null, leaseExpiresAt: string | null, availableAt: string, priority: number, runAt: string | null, createdAt: string, updatedAt: string, traceparent: string | null, history: Array<{ __typename?: 'WorkItemTransition', from: WorkItemStatus | null, to: WorkItemStatus, version: number, at: string, workerId: string | null }> };

type ReplayableOutcomeFields_AuthorizeHoldSuccess_Fragment = { __typename: 'AuthorizeHoldSuccess', hold: { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string }, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } };

type ReplayableOutcomeFields_CaptureHoldSuccess_Fragment = { __typename: 'CaptureHoldSuccess', hold: { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }, creditEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, toAccount: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } | null };

type ReplayableOutcomeFields_CloseAccountSuccess_Fragment = { __typename: 'CloseAccountSuccess', movedAmount: number, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, transferredTo: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, debitEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null, creditEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null };

type ReplayableOutcomeFields_CompleteSuccess_Fragment = { __typename: 'CompleteSuccess', item: { __typename?: 'WorkItem', id: string, kind: string, status: WorkItemStatus, previousStatus: WorkItemStatus | null, version: number, attempts: number, maxAttempts: number, idempotencyKey: string, group: string | null, payload: unknown | null, result: unknown | null, lockedBy: string | null, leaseExpiresAt: string | null, availableAt: string, priority: number, runAt: string | null, createdAt: string, updatedAt: string, traceparent: string | null, history: Array<{ __typename?: 'WorkItemTransition', from: WorkItemStatus | null, to: WorkItemStatus, version: number, at: string, workerId: string | null }> } };

type ReplayableOutcomeFields_CreateWorkItemSuccess_Fragment = { __typename: 'CreateWorkItemSuccess', item: { __typename?: 'WorkItem', id: string, kind: string, status: WorkItemStatus, previousStatus: WorkItemStatus | null, version: number, attempts: number, maxAttempts: number, idempotencyKey: string, group: string | null, payload: unknown | null, result: unknown | null, lockedBy: string | null, leaseExpiresAt: string | null, availableAt: string, priority: number, runAt: string | null, createdAt: string, updatedAt: string, traceparent: string | null, history: Array<{ __typename?: 'WorkItemTransition', from: WorkItemStatus | null, to: WorkItemStatus, version: number, at: string, workerId: string | null }> } };

type ReplayableOutcomeFields_DepositSuccess_Fragment = { __typename: 'DepositSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } };

type ReplayableOutcomeFields_InsufficientFunds_Fragment = { __typename: 'InsufficientFunds', accountId: string, amount: number, balance: number };

type ReplayableOutcomeFields_OpenAccountSuccess_Fragment = { __typename: 'OpenAccountSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } };

type ReplayableOutcomeFields_ReverseMoveSuccess_Fragment = { __typename: 'ReverseMoveSuccess', originalRequestId: string, amount: number, originalAmount: number, reversedAmount: number, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }, creditEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, toAccount: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } | null };

type ReplayableOutcomeFields_ScheduleWorkSuccess_Fragment = { __typename: 'ScheduleWorkSuccess', schedule: { __typename?: 'Schedule', name: string, kind: string, cron: string, timeZone: string, payload: unknown | null, catchUp: CatchUp, createdAt: string, nextFireAt: string | null, nextFireTimes: Array<string>, lastFiredPeriod: string | null, lastFiredAt: string | null, lastItemKey: string | null } };

type ReplayableOutcomeFields_TransferSuccess_Fragment = { __typename: 'TransferSuccess', from: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, to: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, debit: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }, credit: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } };

type ReplayableOutcomeFields_VoidHoldSuccess_Fragment = { __typename: 'VoidHoldSuccess', hold: { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string }, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } };

type ReplayableOutcomeFields_WithdrawSuccess_Fragment = { __typename: 'WithdrawSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } };

export type ReplayableOutcomeFieldsFragment =
  | ReplayableOutcomeFields_AuthorizeHoldSuccess_Fragment
  | ReplayableOutcomeFields_CaptureHoldSuccess_Fragment
  | ReplayableOutcomeFields_CloseAccountSuccess_Fragment
  | ReplayableOutcomeFields_CompleteSuccess_Fragment
  | ReplayableOutcomeFields_CreateWorkItemSuccess_Fragment
  | ReplayableOutcomeFields_DepositSuccess_Fragment
  | ReplayableOutcomeFields_InsufficientFunds_Fragment
  | ReplayableOutcomeFields_OpenAccountSuccess_Fragment
  | ReplayableOutcomeFields_ReverseMoveSuccess_Fragment
  | ReplayableOutcomeFields_ScheduleWorkSuccess_Fragment
  | ReplayableOutcomeFields_TransferSuccess_Fragment
  | ReplayableOutcomeFields_VoidHoldSuccess_Fragment
  | ReplayableOutcomeFields_WithdrawSuccess_Fragment
;

export type DuplicateReplayedFieldsFragment = { __typename?: 'DuplicateReplayed', requestId: string, firstSeenAt: string, original:
    | { __typename: 'AuthorizeHoldSuccess', hold: { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string }, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } }
    | { __typename: 'CaptureHoldSuccess', hold: { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }, creditEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, toAccount: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } | null }
    | { __typename: 'CloseAccountSuccess', movedAmount: number, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, transferredTo: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, debitEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null, creditEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null }
    | { __typename: 'CompleteSuccess', item: { __typename?: 'WorkItem', id: string, kind: string, status: WorkItemStatus, previousStatus: WorkItemStatus | null, version: number, attempts: number, maxAttempts: number, idempotencyKey: string, group: string | null, payload: unknown | null, result: unknown | null, lockedBy: string | null, leaseExpiresAt: string | null, availableAt: string, priority: number, runAt: string | null, createdAt: string, updatedAt: string, traceparent: string | null, history: Array<{ __typename?: 'WorkItemTransition', from: WorkItemStatus | null, to: WorkItemStatus, version: number, at: string, workerId: string | null }> } }
    | { __typename: 'CreateWorkItemSuccess', item: { __typename?: 'WorkItem', id: string, kind: string, status: WorkItemStatus, previousStatus: WorkItemStatus | null, version: number, attempts: number, maxAttempts: number, idempotencyKey: string, group: string | null, payload: unknown | null, result: unknown | null, lockedBy: string | null, leaseExpiresAt: string | null, availableAt: string, priority: number, runAt: string | null, createdAt: string, updatedAt: string, traceparent: string | null, history: Array<{ __typename?: 'WorkItemTransition', from: WorkItemStatus | null, to: WorkItemStatus, version: number, at: string, workerId: string | null }> } }
    | { __typename: 'DepositSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } }
    | { __typename: 'InsufficientFunds', accountId: string, amount: number, balance: number }
    | { __typename: 'OpenAccountSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } }
    | { __typename: 'ReverseMoveSuccess', originalRequestId: string, amount: number, originalAmount: number, reversedAmount: number, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }, creditEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, toAccount: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } | null }
    | { __typename: 'ScheduleWorkSuccess', schedule: { __typename?: 'Schedule', name: string, kind: string, cron: string, timeZone: string, payload: unknown | null, catchUp: CatchUp, createdAt: string, nextFireAt: string | null, nextFireTimes: Array<string>, lastFiredPeriod: string | null, lastFiredAt: string | null, lastItemKey: string | null } }
    | { __typename: 'TransferSuccess', from: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, to: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, debit: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }, credit: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } }
    | { __typename: 'VoidHoldSuccess', hold: { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string }, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } }
    | { __typename: 'WithdrawSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } }
   };

export type LedgerAuditFieldsFragment = { __typename?: 'LedgerAudit', scope: string, lastRunAt: string, accountsChecked: number, entriesChecked: number, mismatchCount: number, mismatches: Array<{ __typename?: 'LedgerAuditMismatch', kind: string, subject: string, accountId: string | null, expected: number, actual: number }> };

export type ScheduleFieldsFragment = { __typename?: 'Schedule', name: string, kind: string, cron: string, timeZone: string, payload: unknown | null, catchUp: CatchUp, createdAt: string, nextFireAt: string | null, nextFireTimes: Array<string>, lastFiredPeriod: string | null, lastFiredAt: string | null, lastItemKey: string | null };

export type HealthQueryVariables = Exact<{ [key: string]: never; }>;


export type HealthQuery = { __typename?: 'Query', health: { __typename?: 'Health', engine: string, engineReason: string, version: string, replicaSet: { __typename?: 'ReplicaSetStatus', name: string, members: number, primary: string | null } | null } };

export type HeartbeatWorkItemMutationVariables = Exact<{
  input: HeartbeatWorkItemInput;
}>;


export type HeartbeatWorkItemMutation = { __typename?: 'Mutation', heartbeatWorkItem:
    | { __typename: 'ConflictLost', operation: string, reason: ConflictReason, detail: string, item: { __typename?: 'WorkItem', id: string, kind: string, status: WorkItemStatus, previousStatus: WorkItemStatus | null, version: number, attempts: number, maxAttempts: number, idempotencyKey: string, group: string | null, payload: unknown | null, result: unknown | null, lockedBy: string | null, leaseExpiresAt: string | null, availableAt: string, priority: number, runAt: string | null, createdAt: string, updatedAt: string, traceparent: string | null, history: Array<{ __typename?: 'WorkItemTransition', from: WorkItemStatus | null, to: WorkItemStatus, version: number, at: string, workerId: string | null }> } }
    | { __typename: 'HeartbeatSuccess', item: { __typename?: 'WorkItem', id: string, kind: string, status: WorkItemStatus, previousStatus: WorkItemStatus | null, version: number, attempts: number, maxAttempts: number, idempotencyKey: string, group: string | null, payload: unknown | null, result: unknown | null, lockedBy: string | null, leaseExpiresAt: string | null, availableAt: string, priority: number, runAt: string | null, createdAt: string, updatedAt: string, traceparent: string | null, history: Array<{ __typename?: 'WorkItemTransition', from: WorkItemStatus | null, to: WorkItemStatus, version: number, at: string, workerId: string | null }> } }
    | { __typename: 'WorkItemNotFound', id: string }
   };

export type HeartbeatWorkItemsMutationVariables = Exact<{
  input: HeartbeatWorkItemsInput;
}>;


export type HeartbeatWorkItemsMutation = { __typename?: 'Mutation', heartbeatWorkItems: { __typename?: 'HeartbeatWorkItemsResult', results: Array<
      | { __typename: 'ConflictLost', operation: string, reason: ConflictReason, detail: string, item: { __typename?: 'WorkItem', id: string, status: WorkItemStatus, version: number, lockedBy: string | null } }
      | { __typename: 'HeartbeatSuccess', item: { __typename?: 'WorkItem', id: string, version: number, leaseExpiresAt: string | null } }
      | { __typename: 'WorkItemNotFound', id: string }
    > } };

export type HoldQueryVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type HoldQuery = { __typename?: 'Query', hold: { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string } | null };

export type HoldChangedSubscriptionVariables = Exact<{
  accountId: Scalars['ID']['input'];
  after?: InputMaybe<Scalars['String']['input']>;
}>;


export type HoldChangedSubscription = { __typename?: 'Subscription', holdChanged:
    | { __typename: 'HoldChanged', cursor: string, holdId: string, accountId: string, status: HoldStatus, amount: number, capturedAmount: number, at: string }
    | { __typename: 'ResyncRequired', cursor: string, reason: ResyncReason }
   };

export type HoldsQueryVariables = Exact<{
  accountId: Scalars['ID']['input'];
  status?: InputMaybe<HoldStatus>;
  first?: InputMaybe<Scalars['Int']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
}>;


export type HoldsQuery = { __typename?: 'Query', holds: { __typename?: 'HoldPage', endCursor: string | null, hasNextPage: boolean, items: Array<{ __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string }> } };

export type LedgerAuditQueryVariables = Exact<{ [key: string]: never; }>;


export type LedgerAuditQuery = { __typename?: 'Query', ledgerAudit: { __typename?: 'LedgerAudit', scope: string, lastRunAt: string, accountsChecked: number, entriesChecked: number, mismatchCount: number, mismatches: Array<{ __typename?: 'LedgerAuditMismatch', kind: string, subject: string, accountId: string | null, expected: number, actual: number }> } | null };

export type LedgerEntriesQueryVariables = Exact<{
  accountId?: InputMaybe<Scalars['ID']['input']>;
  reference?: InputMaybe<Scalars['String']['input']>;
  kinds?: InputMaybe<Array<LedgerEntryKind> | LedgerEntryKind>;
  currency?: InputMaybe<Scalars['String']['input']>;
  from?: InputMaybe<Scalars['DateTime']['input']>;
  to?: InputMaybe<Scalars['DateTime']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
}>;


export type LedgerEntriesQuery = { __typename?: 'Query', ledgerEntries: { __typename?: 'LedgerEntryList', endCursor: string | null, hasNextPage: boolean, totalCount: number, totalCountCapped: boolean, items: Array<{ __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }> } };

export type LedgerEntryQueryVariables = Exact<{
  requestId: Scalars['String']['input'];
}>;


export type LedgerEntryQuery = { __typename?: 'Query', ledgerEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null };

export type LedgerEntryAddedSubscriptionVariables = Exact<{
  accountId?: InputMaybe<Scalars['ID']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
}>;


export type LedgerEntryAddedSubscription = { __typename?: 'Subscription', ledgerEntryAdded:
    | { __typename: 'LedgerEntryAdded', cursor: string, entryId: string, requestId: string, accountId: string, currency: string, kind: LedgerEntryKind, amount: number, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, createdAt: string }
    | { __typename: 'ResyncRequired', cursor: string, reason: ResyncReason }
   };

export type LedgerRequestQueryVariables = Exact<{
  requestId: Scalars['String']['input'];
}>;


export type LedgerRequestQuery = { __typename?: 'Query', ledgerRequest: { __typename?: 'LedgerRequest', requestId: string, operation: string, status: LedgerRequestStatus, amount: number, fromAccountId: string | null, toAccountId: string | null, firstSeenAt: string, decidedAt: string | null, rejection: { __typename?: 'LedgerRejection', accountId: string, amount: number, balance: number } | null, entries: Array<{ __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }> } | null };

export type LedgerTotalsQueryVariables = Exact<{
  currency: Scalars['String']['input'];
  from?: InputMaybe<Scalars['DateTime']['input']>;
  to?: InputMaybe<Scalars['DateTime']['input']>;
}>;


export type LedgerTotalsQuery = { __typename?: 'Query', ledgerTotals: { __typename?: 'LedgerTotals', currency: string, accounts: number, moneyHeld: string, moneyOnHold: string, deposits: { __typename?: 'MoneyFlow', amount: string, count: number }, withdrawals: { __typename?: 'MoneyFlow', amount: string, count: number }, transfers: { __typename?: 'MoneyFlow', amount: string, count: number } } };

export type LiveFeedsQueryVariables = Exact<{ [key: string]: never; }>;


export type LiveFeedsQuery = { __typename?: 'Query', liveFeeds: Array<{ __typename?: 'LiveFeedState', feed: string, up: boolean, status: LiveFeedStatus, subscribers: number, eventsDelivered: number, resyncs: number }> };

export type MoveOutcomesQueryVariables = Exact<{ [key: string]: never; }>;


export type MoveOutcomesQuery = { __typename?: 'Query', moveOutcomes: Array<{ __typename?: 'MoveOutcomeCount', operation: string, outcome: string, count: number }> };

export type OpenAccountMutationVariables = Exact<{
  input: OpenAccountInput;
}>;


export type OpenAccountMutation = { __typename?: 'Mutation', openAccount:
    | { __typename: 'DuplicateReplayed', requestId: string, firstSeenAt: string, original:
        | { __typename: 'AuthorizeHoldSuccess', hold: { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string }, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } }
        | { __typename: 'CaptureHoldSuccess', hold: { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }, creditEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, toAccount: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } | null }
        | { __typename: 'CloseAccountSuccess', movedAmount: number, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, transferredTo: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, debitEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null, creditEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null }
        | { __typename: 'CompleteSuccess', item: { __typename?: 'WorkItem', id: string, kind: string, status: WorkItemStatus, previousStatus: WorkItemStatus | null, version: number, attempts: number, maxAttempts: number, idempotencyKey: string, group: string | null, payload: unknown | null, result: unknown | null, lockedBy: string | null, leaseExpiresAt: string | null, availableAt: string, priority: number, runAt: string | null, createdAt: string, updatedAt: string, traceparent: string | null, history: Array<{ __typename?: 'WorkItemTransition', from: WorkItemStatus | null, to: WorkItemStatus, version: number, at: string, workerId: string | null }> } }
        | { __typename: 'CreateWorkItemSuccess', item: { __typename?: 'WorkItem', id: string, kind: string, status: WorkItemStatus, previousStatus: WorkItemStatus | null, version: number, attempts: number, maxAttempts: number, idempotencyKey: string, group: string | null, payload: unknown | null, result: unknown | null, lockedBy: string | null, leaseExpiresAt: string | null, availableAt: string, priority: number, runAt: string | null, createdAt: string, updatedAt: string, traceparent: string | null, history: Array<{ __typename?: 'WorkItemTransition', from: WorkItemStatus | null, to: WorkItemStatus, version: number, at: string, workerId: string | null }> } }
        | { __typename: 'DepositSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } }
        | { __typename: 'InsufficientFunds', accountId: string, amount: number, balance: number }
        | { __typename: 'OpenAccountSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } }
        | { __typename: 'ReverseMoveSuccess', originalRequestId: string, amount: number, originalAmount: number, reversedAmount: number, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }, creditEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, toAccount: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } | null }
        | { __typename: 'ScheduleWorkSuccess', schedule: { __typename?: 'Schedule', name: string, kind: string, cron: string, timeZone: string, payload: unknown | null, catchUp: CatchUp, createdAt: string, nextFireAt: string | null, nextFireTimes: Array<string>, lastFiredPeriod: string | null, lastFiredAt: string | null, lastItemKey: string | null } }
        | { __typename: 'TransferSuccess', from: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, to: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, debit: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }, credit: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } }
        | { __typename: 'VoidHoldSuccess', hold: { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string }, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } }
        | { __typename: 'WithdrawSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } }
       }
    | { __typename: 'IdempotencyKeyReused', requestId: string, field: string | null, detail: string }
    | { __typename: 'OpenAccountSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } }
   };

export type PayoutForQueryVariables = Exact<{
  entryId: Scalars['ID']['input'];
}>;


export type PayoutForQuery = { __typename?: 'Query', payoutFor: { __typename?: 'WorkItem', id: string, kind: string, status: WorkItemStatus, previousStatus: WorkItemStatus | null, version: number, attempts: number, maxAttempts: number, idempotencyKey: string, group: string | null, payload: unknown | null, result: unknown | null, lockedBy: string | null, leaseExpiresAt: string | null, availableAt: string, priority: number, runAt: string | null, createdAt: string, updatedAt: string, traceparent: string | null, history: Array<{ __typename?: 'WorkItemTransition', from: WorkItemStatus | null, to: WorkItemStatus, version: number, at: string, workerId: string | null }> } | null };

export type PayoutProjectionStateQueryVariables = Exact<{ [key: string]: never; }>;


export type PayoutProjectionStateQuery = { __typename?: 'Query', payoutProjectionState: { __typename?: 'PayoutProjectionState', holder: string | null, leaseActive: boolean, leaseExpiresAt: string | null, leaseVersion: number | null, lagSeconds: number | null, sink: string, queueName: string | null } };

export type RecentWorkItemsQueryVariables = Exact<{
  first?: InputMaybe<Scalars['Int']['input']>;
}>;


export type RecentWorkItemsQuery = { __typename?: 'Query', recentWorkItems: Array<{ __typename?: 'WorkItem', id: string, kind: string, status: WorkItemStatus, previousStatus: WorkItemStatus | null, version: number, attempts: number, maxAttempts: number, idempotencyKey: string, group: string | null, payload: unknown | null, result: unknown | null, lockedBy: string | null, leaseExpiresAt: string | null, availableAt: string, priority: number, runAt: string | null, createdAt: string, updatedAt: string, traceparent: string | null, history: Array<{ __typename?: 'WorkItemTransition', from: WorkItemStatus | null, to: WorkItemStatus, version: number, at: string, workerId: string | null }> }> };

export type RequeueWorkItemMutationVariables = Exact<{
  input: RequeueWorkItemInput;
}>;


export type RequeueWorkItemMutation = { __typename?: 'Mutation', requeueWorkItem:
    | { __typename: 'ConflictLost', operation: string, reason: ConflictReason, detail: string, item: { __typename?: 'WorkItem', id: string, kind: string, status: WorkItemStatus, previousStatus: WorkItemStatus | null, version: number, attempts: number, maxAttempts: number, idempotencyKey: string, group: string | null, payload: unknown | null, result: unknown | null, lockedBy: string | null, leaseExpiresAt: string | null, availableAt: string, priority: number, runAt: string | null, createdAt: string, updatedAt: string, traceparent: string | null, history: Array<{ __typename?: 'WorkItemTransition', from: WorkItemStatus | null, to: WorkItemStatus, version: number, at: string, workerId: string | null }> } }
    | { __typename: 'RequeueSuccess', item: { __typename?: 'WorkItem', id: string, kind: string, status: WorkItemStatus, previousStatus: WorkItemStatus | null, version: number, attempts: number, maxAttempts: number, idempotencyKey: string, group: string | null, payload: unknown | null, result: unknown | null, lockedBy: string | null, leaseExpiresAt: string | null, availableAt: string, priority: number, runAt: string | null, createdAt: string, updatedAt: string, traceparent: string | null, history: Array<{ __typename?: 'WorkItemTransition', from: WorkItemStatus | null, to: WorkItemStatus, version: number, at: string, workerId: string | null }> } }
    | { __typename: 'WorkItemNotFound', id: string }
   };

export type ReverseMoveMutationVariables = Exact<{
  input: ReverseMoveInput;
}>;


export type ReverseMoveMutation = { __typename?: 'Mutation', reverseMove:
    | { __typename: 'AccountClosed', accountId: string, closedAt: string | null }
    | { __typename: 'DuplicateReplayed', requestId: string, firstSeenAt: string, original:
        | { __typename: 'AuthorizeHoldSuccess', hold: { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string }, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } }
        | { __typename: 'CaptureHoldSuccess', hold: { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }, creditEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, toAccount: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } | null }
        | { __typename: 'CloseAccountSuccess', movedAmount: number, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, transferredTo: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, debitEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null, creditEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null }
        | { __typename: 'CompleteSuccess', item: { __typename?: 'WorkItem', id: string, kind: string, status: WorkItemStatus, previousStatus: WorkItemStatus | null, version: number, attempts: number, maxAttempts: number, idempotencyKey: string, group: string | null, payload: unknown | null, result: unknown | null, lockedBy: string | null, leaseExpiresAt: string | null, availableAt: string, priority: number, runAt: string | null, createdAt: string, updatedAt: string, traceparent: string | null, history: Array<{ __typename?: 'WorkItemTransition', from: WorkItemStatus | null, to: WorkItemStatus, version: number, at: string, workerId: string | null }> } }
        | { __typename: 'CreateWorkItemSuccess', item: { __typename?: 'WorkItem', id: string, kind: string, status: WorkItemStatus, previousStatus: WorkItemStatus | null, version: number, attempts: number, maxAttempts: number, idempotencyKey: string, group: string | null, payload: unknown | null, result: unknown | null, lockedBy: string | null, leaseExpiresAt: string | null, availableAt: string, priority: number, runAt: string | null, createdAt: string, updatedAt: string, traceparent: string | null, history: Array<{ __typename?: 'WorkItemTransition', from: WorkItemStatus | null, to: WorkItemStatus, version: number, at: string, workerId: string | null }> } }
        | { __typename: 'DepositSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } }
        | { __typename: 'InsufficientFunds', accountId: string, amount: number, balance: number }
        | { __typename: 'OpenAccountSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } }
        | { __typename: 'ReverseMoveSuccess', originalRequestId: string, amount: number, originalAmount: number, reversedAmount: number, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }, creditEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, toAccount: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } | null }
        | { __typename: 'ScheduleWorkSuccess', schedule: { __typename?: 'Schedule', name: string, kind: string, cron: string, timeZone: string, payload: unknown | null, catchUp: CatchUp, createdAt: string, nextFireAt: string | null, nextFireTimes: Array<string>, lastFiredPeriod: string | null, lastFiredAt: string | null, lastItemKey: string | null } }
        | { __typename: 'TransferSuccess', from: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, to: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, debit: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }, credit: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } }
        | { __typename: 'VoidHoldSuccess', hold: { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string }, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } }
        | { __typename: 'WithdrawSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } }
       }
    | { __typename: 'IdempotencyKeyReused', requestId: string, field: string | null, detail: string }
    | { __typename: 'InsufficientFunds', accountId: string, amount: number, balance: number }
    | { __typename: 'MoveNotFound', requestId: string }
    | { __typename: 'NotReversible', originalRequestId: string, operation: string, detail: string }
    | { __typename: 'OutcomeUnknown', requestId: string, firstSeenAt: string }
    | { __typename: 'RequestInProgress', requestId: string, firstSeenAt: string }
    | { __typename: 'ReversalExceedsOriginal', originalRequestId: string, originalAmount: number, reversedAmount: number, amount: number }
    | { __typename: 'ReverseMoveSuccess', originalRequestId: string, amount: number, originalAmount: number, reversedAmount: number, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }, creditEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, toAccount: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } | null }
   };

export type RunLedgerAuditMutationVariables = Exact<{ [key: string]: never; }>;


export type RunLedgerAuditMutation = { __typename?: 'Mutation', runLedgerAudit:
    | { __typename: 'LedgerAuditFinished', audit: { __typename?: 'LedgerAudit', scope: string, lastRunAt: string, accountsChecked: number, entriesChecked: number, mismatchCount: number, mismatches: Array<{ __typename?: 'LedgerAuditMismatch', kind: string, subject: string, accountId: string | null, expected: number, actual: number }> } }
    | { __typename: 'LedgerAuditQueued', requestedAt: string }
   };

export type ScheduleWorkMutationVariables = Exact<{
  input: ScheduleWorkInput;
}>;


export type ScheduleWorkMutation = { __typename?: 'Mutation', scheduleWork:
    | { __typename: 'DuplicateReplayed', requestId: string, firstSeenAt: string, original:
        | { __typename: 'AuthorizeHoldSuccess', hold: { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string }, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } }
        | { __typename: 'CaptureHoldSuccess', hold: { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }, creditEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, toAccount: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } | null }
        | { __typename: 'CloseAccountSuccess', movedAmount: number, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, transferredTo: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, debitEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null, creditEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null }
        | { __typename: 'CompleteSuccess', item: { __typename?: 'WorkItem', id: string, kind: string, status: WorkItemStatus, previousStatus: WorkItemStatus | null, version: number, attempts: number, maxAttempts: number, idempotencyKey: string, group: string | null, payload: unknown | null, result: unknown | null, lockedBy: string | null, leaseExpiresAt: string | null, availableAt: string, priority: number, runAt: string | null, createdAt: string, updatedAt: string, traceparent: string | null, history: Array<{ __typename?: 'WorkItemTransition', from: WorkItemStatus | null, to: WorkItemStatus, version: number, at: string, workerId: string | null }> } }
        | { __typename: 'CreateWorkItemSuccess', item: { __typename?: 'WorkItem', id: string, kind: string, status: WorkItemStatus, previousStatus: WorkItemStatus | null, version: number, attempts: number, maxAttempts: number, idempotencyKey: string, group: string | null, payload: unknown | null, result: unknown | null, lockedBy: string | null, leaseExpiresAt: string | null, availableAt: string, priority: number, runAt: string | null, createdAt: string, updatedAt: string, traceparent: string | null, history: Array<{ __typename?: 'WorkItemTransition', from: WorkItemStatus | null, to: WorkItemStatus, version: number, at: string, workerId: string | null }> } }
        | { __typename: 'DepositSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } }
        | { __typename: 'InsufficientFunds', accountId: string, amount: number, balance: number }
        | { __typename: 'OpenAccountSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } }
        | { __typename: 'ReverseMoveSuccess', originalRequestId: string, amount: number, originalAmount: number, reversedAmount: number, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }, creditEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, toAccount: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } | null }
        | { __typename: 'ScheduleWorkSuccess', schedule: { __typename?: 'Schedule', name: string, kind: string, cron: string, timeZone: string, payload: unknown | null, catchUp: CatchUp, createdAt: string, nextFireAt: string | null, nextFireTimes: Array<string>, lastFiredPeriod: string | null, lastFiredAt: string | null, lastItemKey: string | null } }
        | { __typename: 'TransferSuccess', from: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, to: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, debit: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }, credit: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } }
        | { __typename: 'VoidHoldSuccess', hold: { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string }, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } }
        | { __typename: 'WithdrawSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } }
       }
    | { __typename: 'IdempotencyKeyReused', requestId: string, field: string | null, detail: string }
    | { __typename: 'InvalidSchedule', name: string, detail: string }
    | { __typename: 'ScheduleWorkSuccess', schedule: { __typename?: 'Schedule', name: string, kind: string, cron: string, timeZone: string, payload: unknown | null, catchUp: CatchUp, createdAt: string, nextFireAt: string | null, nextFireTimes: Array<string>, lastFiredPeriod: string | null, lastFiredAt: string | null, lastItemKey: string | null } }
   };

export type SchedulesQueryVariables = Exact<{
  first?: InputMaybe<Scalars['Int']['input']>;
}>;


export type SchedulesQuery = { __typename?: 'Query', schedules: Array<{ __typename?: 'Schedule', name: string, kind: string, cron: string, timeZone: string, payload: unknown | null, catchUp: CatchUp, createdAt: string, nextFireAt: string | null, nextFireTimes: Array<string>, lastFiredPeriod: string | null, lastFiredAt: string | null, lastItemKey: string | null }> };

export type SubmitMovesMutationVariables = Exact<{
  input: SubmitMovesInput;
}>;


export type SubmitMovesMutation = { __typename?: 'Mutation', submitMoves:
    | { __typename: 'BatchTooLarge', moves: number, movesMax: number }
    | { __typename: 'SubmitMovesSuccess', results: Array<
        | { __typename: 'AccountClosed', accountId: string, closedAt: string | null }
        | { __typename: 'AccountNotFound', accountId: string }
        | { __typename: 'BalanceLimitExceeded', accountId: string, amount: number, balance: number }
        | { __typename: 'CurrencyMismatch', fromAccountId: string, fromCurrency: string, toAccountId: string, toCurrency: string }
        | { __typename: 'DepositSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } }
        | { __typename: 'DuplicateReplayed', requestId: string, firstSeenAt: string, original:
            | { __typename: 'AuthorizeHoldSuccess', hold: { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string }, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } }
            | { __typename: 'CaptureHoldSuccess', hold: { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }, creditEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, toAccount: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } | null }
            | { __typename: 'CloseAccountSuccess', movedAmount: number, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, transferredTo: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, debitEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null, creditEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null }
            | { __typename: 'CompleteSuccess', item: { __typename?: 'WorkItem', id: string, kind: string, status: WorkItemStatus, previousStatus: WorkItemStatus | null, version: number, attempts: number, maxAttempts: number, idempotencyKey: string, group: string | null, payload: unknown | null, result: unknown | null, lockedBy: string | null, leaseExpiresAt: string | null, availableAt: string, priority: number, runAt: string | null, createdAt: string, updatedAt: string, traceparent: string | null, history: Array<{ __typename?: 'WorkItemTransition', from: WorkItemStatus | null, to: WorkItemStatus, version: number, at: string, workerId: string | null }> } }
            | { __typename: 'CreateWorkItemSuccess', item: { __typename?: 'WorkItem', id: string, kind: string, status: WorkItemStatus, previousStatus: WorkItemStatus | null, version: number, attempts: number, maxAttempts: number, idempotencyKey: string, group: string | null, payload: unknown | null, result: unknown | null, lockedBy: string | null, leaseExpiresAt: string | null, availableAt: string, priority: number, runAt: string | null, createdAt: string, updatedAt: string, traceparent: string | null, history: Array<{ __typename?: 'WorkItemTransition', from: WorkItemStatus | null, to: WorkItemStatus, version: number, at: string, workerId: string | null }> } }
            | { __typename: 'DepositSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } }
            | { __typename: 'InsufficientFunds', accountId: string, amount: number, balance: number }
            | { __typename: 'OpenAccountSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } }
            | { __typename: 'ReverseMoveSuccess', originalRequestId: string, amount: number, originalAmount: number, reversedAmount: number, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }, creditEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, toAccount: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } | null }
            | { __typename: 'ScheduleWorkSuccess', schedule: { __typename?: 'Schedule', name: string, kind: string, cron: string, timeZone: string, payload: unknown | null, catchUp: CatchUp, createdAt: string, nextFireAt: string | null, nextFireTimes: Array<string>, lastFiredPeriod: string | null, lastFiredAt: string | null, lastItemKey: string | null } }
            | { __typename: 'TransferSuccess', from: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, to: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, debit: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }, credit: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } }
            | { __typename: 'VoidHoldSuccess', hold: { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string }, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } }
            | { __typename: 'WithdrawSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } }
           }
        | { __typename: 'IdempotencyKeyReused', requestId: string }
        | { __typename: 'InsufficientFunds', accountId: string, amount: number, balance: number }
        | { __typename: 'LinkedMoveFailed', requestId: string }
        | { __typename: 'OutcomeUnknown', requestId: string, firstSeenAt: string }
        | { __typename: 'RequestInProgress', requestId: string, firstSeenAt: string }
        | { __typename: 'TransferSuccess', from: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, to: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, debit: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }, credit: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } }
        | { __typename: 'WithdrawSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } }
      > }
   };

export type TransferMutationVariables = Exact<{
  input: TransferInput;
}>;


export type TransferMutation = { __typename?: 'Mutation', transfer:
    | { __typename: 'AccountClosed', accountId: string, closedAt: string | null }
    | { __typename: 'AccountNotFound', accountId: string }
    | { __typename: 'BalanceLimitExceeded', accountId: string, amount: number, balance: number }
    | { __typename: 'CurrencyMismatch', fromAccountId: string, fromCurrency: string, toAccountId: string, toCurrency: string }
    | { __typename: 'DuplicateReplayed', requestId: string, firstSeenAt: string, original:
        | { __typename: 'AuthorizeHoldSuccess', hold: { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string }, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } }
        | { __typename: 'CaptureHoldSuccess', hold: { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }, creditEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, toAccount: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } | null }
        | { __typename: 'CloseAccountSuccess', movedAmount: number, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, transferredTo: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, debitEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null, creditEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null }
        | { __typename: 'CompleteSuccess', item: { __typename?: 'WorkItem', id: string, kind: string, status: WorkItemStatus, previousStatus: WorkItemStatus | null, version: number, attempts: number, maxAttempts: number, idempotencyKey: string, group: string | null, payload: unknown | null, result: unknown | null, lockedBy: string | null, leaseExpiresAt: string | null, availableAt: string, priority: number, runAt: string | null, createdAt: string, updatedAt: string, traceparent: string | null, history: Array<{ __typename?: 'WorkItemTransition', from: WorkItemStatus | null, to: WorkItemStatus, version: number, at: string, workerId: string | null }> } }
        | { __typename: 'CreateWorkItemSuccess', item: { __typename?: 'WorkItem', id: string, kind: string, status: WorkItemStatus, previousStatus: WorkItemStatus | null, version: number, attempts: number, maxAttempts: number, idempotencyKey: string, group: string | null, payload: unknown | null, result: unknown | null, lockedBy: string | null, leaseExpiresAt: string | null, availableAt: string, priority: number, runAt: string | null, createdAt: string, updatedAt: string, traceparent: string | null, history: Array<{ __typename?: 'WorkItemTransition', from: WorkItemStatus | null, to: WorkItemStatus, version: number, at: string, workerId: string | null }> } }
        | { __typename: 'DepositSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } }
        | { __typename: 'InsufficientFunds', accountId: string, amount: number, balance: number }
        | { __typename: 'OpenAccountSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } }
        | { __typename: 'ReverseMoveSuccess', originalRequestId: string, amount: number, originalAmount: number, reversedAmount: number, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }, creditEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, toAccount: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } | null }
        | { __typename: 'ScheduleWorkSuccess', schedule: { __typename?: 'Schedule', name: string, kind: string, cron: string, timeZone: string, payload: unknown | null, catchUp: CatchUp, createdAt: string, nextFireAt: string | null, nextFireTimes: Array<string>, lastFiredPeriod: string | null, lastFiredAt: string | null, lastItemKey: string | null } }
        | { __typename: 'TransferSuccess', from: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, to: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, debit: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }, credit: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } }
        | { __typename: 'VoidHoldSuccess', hold: { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string }, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } }
        | { __typename: 'WithdrawSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } }
       }
    | { __typename: 'IdempotencyKeyReused', requestId: string, field: string | null, detail: string }
    | { __typename: 'InsufficientFunds', accountId: string, amount: number, balance: number }
    | { __typename: 'OutcomeUnknown', requestId: string, firstSeenAt: string }
    | { __typename: 'RequestInProgress', requestId: string, firstSeenAt: string }
    | { __typename: 'TransferSuccess', from: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, to: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, debit: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }, credit: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } }
   };

export type UnscheduleWorkMutationVariables = Exact<{
  input: UnscheduleWorkInput;
}>;


export type UnscheduleWorkMutation = { __typename?: 'Mutation', unscheduleWork:
    | { __typename: 'ScheduleNotFound', name: string }
    | { __typename: 'UnscheduleWorkSuccess', schedule: { __typename?: 'Schedule', name: string, kind: string, cron: string, timeZone: string, payload: unknown | null, catchUp: CatchUp, createdAt: string, nextFireAt: string | null, nextFireTimes: Array<string>, lastFiredPeriod: string | null, lastFiredAt: string | null, lastItemKey: string | null } }
   };

export type ViewerQueryVariables = Exact<{ [key: string]: never; }>;


export type ViewerQuery = { __typename?: 'Query', viewer: { __typename?: 'Viewer', role: string, maySubscribe: boolean, mayRequeue: boolean, subscriptions: Array<string> } };

export type VoidHoldMutationVariables = Exact<{
  input: VoidHoldInput;
}>;


export type VoidHoldMutation = { __typename?: 'Mutation', voidHold:
    | { __typename: 'DuplicateReplayed', requestId: string, firstSeenAt: string, original:
        | { __typename: 'AuthorizeHoldSuccess', hold: { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string }, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } }
        | { __typename: 'CaptureHoldSuccess', hold: { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }, creditEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, toAccount: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } | null }
        | { __typename: 'CloseAccountSuccess', movedAmount: number, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, transferredTo: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, debitEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null, creditEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null }
        | { __typename: 'CompleteSuccess', item: { __typename?: 'WorkItem', id: string, kind: string, status: WorkItemStatus, previousStatus: WorkItemStatus | null, version: number, attempts: number, maxAttempts: number, idempotencyKey: string, group: string | null, payload: unknown | null, result: unknown | null, lockedBy: string | null, leaseExpiresAt: string | null, availableAt: string, priority: number, runAt: string | null, createdAt: string, updatedAt: string, traceparent: string | null, history: Array<{ __typename?: 'WorkItemTransition', from: WorkItemStatus | null, to: WorkItemStatus, version: number, at: string, workerId: string | null }> } }
        | { __typename: 'CreateWorkItemSuccess', item: { __typename?: 'WorkItem', id: string, kind: string, status: WorkItemStatus, previousStatus: WorkItemStatus | null, version: number, attempts: number, maxAttempts: number, idempotencyKey: string, group: string | null, payload: unknown | null, result: unknown | null, lockedBy: string | null, leaseExpiresAt: string | null, availableAt: string, priority: number, runAt: string | null, createdAt: string, updatedAt: string, traceparent: string | null, history: Array<{ __typename?: 'WorkItemTransition', from: WorkItemStatus | null, to: WorkItemStatus, version: number, at: string, workerId: string | null }> } }
        | { __typename: 'DepositSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } }
        | { __typename: 'InsufficientFunds', accountId: string, amount: number, balance: number }
        | { __typename: 'OpenAccountSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } }
        | { __typename: 'ReverseMoveSuccess', originalRequestId: string, amount: number, originalAmount: number, reversedAmount: number, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }, creditEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, toAccount: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } | null }
        | { __typename: 'ScheduleWorkSuccess', schedule: { __typename?: 'Schedule', name: string, kind: string, cron: string, timeZone: string, payload: unknown | null, catchUp: CatchUp, createdAt: string, nextFireAt: string | null, nextFireTimes: Array<string>, lastFiredPeriod: string | null, lastFiredAt: string | null, lastItemKey: string | null } }
        | { __typename: 'TransferSuccess', from: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, to: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, debit: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }, credit: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } }
        | { __typename: 'VoidHoldSuccess', hold: { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string }, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } }
        | { __typename: 'WithdrawSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } }
       }
    | { __typename: 'HoldNotFound', holdId: string }
    | { __typename: 'HoldNotPending', holdId: string, status: HoldStatus }
    | { __typename: 'IdempotencyKeyReused', requestId: string, field: string | null, detail: string }
    | { __typename: 'OutcomeUnknown', requestId: string, firstSeenAt: string }
    | { __typename: 'RequestInProgress', requestId: string, firstSeenAt: string }
    | { __typename: 'VoidHoldSuccess', hold: { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string }, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } }
   };

export type WithdrawMutationVariables = Exact<{
  input: WithdrawInput;
}>;


export type WithdrawMutation = { __typename?: 'Mutation', withdraw:
    | { __typename: 'AccountClosed', accountId: string, closedAt: string | null }
    | { __typename: 'AccountNotFound', accountId: string }
    | { __typename: 'DuplicateReplayed', requestId: string, firstSeenAt: string, original:
        | { __typename: 'AuthorizeHoldSuccess', hold: { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string }, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } }
        | { __typename: 'CaptureHoldSuccess', hold: { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }, creditEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, toAccount: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } | null }
        | { __typename: 'CloseAccountSuccess', movedAmount: number, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, transferredTo: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, debitEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null, creditEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null }
        | { __typename: 'CompleteSuccess', item: { __typename?: 'WorkItem', id: string, kind: string, status: WorkItemStatus, previousStatus: WorkItemStatus | null, version: number, attempts: number, maxAttempts: number, idempotencyKey: string, group: string | null, payload: unknown | null, result: unknown | null, lockedBy: string | null, leaseExpiresAt: string | null, availableAt: string, priority: number, runAt: string | null, createdAt: string, updatedAt: string, traceparent: string | null, history: Array<{ __typename?: 'WorkItemTransition', from: WorkItemStatus | null, to: WorkItemStatus, version: number, at: string, workerId: string | null }> } }
        | { __typename: 'CreateWorkItemSuccess', item: { __typename?: 'WorkItem', id: string, kind: string, status: WorkItemStatus, previousStatus: WorkItemStatus | null, version: number, attempts: number, maxAttempts: number, idempotencyKey: string, group: string | null, payload: unknown | null, result: unknown | null, lockedBy: string | null, leaseExpiresAt: string | null, availableAt: string, priority: number, runAt: string | null, createdAt: string, updatedAt: string, traceparent: string | null, history: Array<{ __typename?: 'WorkItemTransition', from: WorkItemStatus | null, to: WorkItemStatus, version: number, at: string, workerId: string | null }> } }
        | { __typename: 'DepositSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } }
        | { __typename: 'InsufficientFunds', accountId: string, amount: number, balance: number }
        | { __typename: 'OpenAccountSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } }
        | { __typename: 'ReverseMoveSuccess', originalRequestId: string, amount: number, originalAmount: number, reversedAmount: number, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }, creditEntry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } | null, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, toAccount: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } | null }
        | { __typename: 'ScheduleWorkSuccess', schedule: { __typename?: 'Schedule', name: string, kind: string, cron: string, timeZone: string, payload: unknown | null, catchUp: CatchUp, createdAt: string, nextFireAt: string | null, nextFireTimes: Array<string>, lastFiredPeriod: string | null, lastFiredAt: string | null, lastItemKey: string | null } }
        | { __typename: 'TransferSuccess', from: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, to: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, debit: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number }, credit: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } }
        | { __typename: 'VoidHoldSuccess', hold: { __typename?: 'Hold', id: string, accountId: string, currency: string, amount: number, capturedAmount: number, status: HoldStatus, expiresAt: string }, account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null } }
        | { __typename: 'WithdrawSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } }
       }
    | { __typename: 'IdempotencyKeyReused', requestId: string, field: string | null, detail: string }
    | { __typename: 'InsufficientFunds', accountId: string, amount: number, balance: number }
    | { __typename: 'OutcomeUnknown', requestId: string, firstSeenAt: string }
    | { __typename: 'RequestInProgress', requestId: string, firstSeenAt: string }
    | { __typename: 'WithdrawSuccess', account: { __typename?: 'Account', id: string, currency: string, balance: number, version: number, held: number | null, available: number | null, status: AccountStatus, closedAt: string | null }, entry: { __typename?: 'LedgerEntry', id: string, accountId: string, kind: LedgerEntryKind, amount: number, currency: string, balanceAfter: number, versionAfter: number, counterpartyAccountId: string | null, requestId: string, createdAt: string, committedAt: string | null, reference: string | null, metadata: unknown | null, reversalOf: string | null, reversedAmount: number } }
   };

export type WorkItemQueryVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type WorkItemQuery = { __typename?: 'Query', workItem: { __typename?: 'WorkItem', id: string, kind: string, status: WorkItemStatus, previousStatus: WorkItemStatus | null, version: number, attempts: number, maxAttempts: number, idempotencyKey: string, group: string | null, payload: unknown | null, result: unknown | null, lockedBy: string | null, leaseExpiresAt: string | null, availableAt: string, priority: number, runAt: string | null, createdAt: string, updatedAt: string, traceparent: string | null, history: Array<{ __typename?: 'WorkItemTransition', from: WorkItemStatus | null, to: WorkItemStatus, version: number, at: string, workerId: string | null }> } | null };

export type WorkItemByKeyQueryVariables = Exact<{
  idempotencyKey: Scalars['String']['input'];
}>;


export type WorkItemByKeyQuery = { __typename?: 'Query', workItemByKey: { __typename?: 'WorkItem', id: string, kind: string, status: WorkItemStatus, previousStatus: WorkItemStatus | null, version: number, attempts: number, maxAttempts: number, idempotencyKey: string, group: string | null, payload: unknown | null, result: unknown | null, lockedBy: string | null, leaseExpiresAt: string | null, availableAt: string, priority: number, runAt: string | null, createdAt: string, updatedAt: string, traceparent: string | null, history: Array<{ __typename?: 'WorkItemTransition', from: WorkItemStatus | null, to: WorkItemStatus, version: number, at: string, workerId: string | null }> } | null };

export type WorkItemStatusChangedSubscriptionVariables = Exact<{
  after?: InputMaybe<Scalars['String']['input']>;
  id?: InputMaybe<Scalars['ID']['input']>;
  kinds?: InputMaybe<Array<Scalars['String']['input']> | Scalars['String']['input']>;
}>;


export type WorkItemStatusChangedSubscription = { __typename?: 'Subscription', workItemStatusChanged:
    | { __typename: 'ResyncRequired', cursor: string, reason: ResyncReason }
    | { __typename: 'WorkItemStatusChanged', cursor: string, itemId: string, kind: string, status: WorkItemStatus, previousStatus: WorkItemStatus | null, version: number, at: string }
   };

export type WorkItemsQueryVariables = Exact<{
  status?: InputMaybe<WorkItemStatus>;
  kind?: InputMaybe<Scalars['String']['input']>;
  createdFrom?: InputMaybe<Scalars['DateTime']['input']>;
  createdTo?: InputMaybe<Scalars['DateTime']['input']>;
  key?: InputMaybe<Scalars['String']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
}>;


export type WorkItemsQuery = { __typename?: 'Query', workItems: { __typename?: 'WorkItemPage', endCursor: string | null, hasNextPage: boolean, totalCount: number, totalCountCapped: boolean, items: Array<{ __typename?: 'WorkItem', id: string, kind: string, status: WorkItemStatus, previousStatus: WorkItemStatus | null, version: number, attempts: number, maxAttempts: number, idempotencyKey: string, group: string | null, payload: unknown | null, result: unknown | null, lockedBy: string | null, leaseExpiresAt: string | null, availableAt: string, priority: number, runAt: string | null, createdAt: string, updatedAt: string, traceparent: string | null, history: Array<{ __typename?: 'WorkItemTransition', from: WorkItemStatus | null, to: WorkItemStatus, version: number, at: string, workerId: string | null }> }> } };

export type WorkQueueStatsQueryVariables = Exact<{ [key: string]: never; }>;


export type WorkQueueStatsQuery = { __typename?: 'Query', workQueueStats: { __typename?: 'WorkQueueStats', conflictsSinceStart: number, oldestPendingAgeSeconds: number | null, counts: Array<{ __typename?: 'WorkQueueCount', kind: string, status: WorkItemStatus, count: number, capped: boolean }>, kinds: Array<{ __typename?: 'WorkKindStats', kind: string, waiting: number, delayed: number, running: number, capped: boolean, limit: number | null }>, groups: Array<{ __typename?: 'WorkGroupStats', kind: string, group: string, waiting: number, running: number, capped: boolean, limit: number | null }> } };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}
export const AccountFieldsFragmentDoc = new TypedDocumentString(`
    fragment AccountFields on Account {
  id
  currency
  balance
  version
  held
  available
  status
  closedAt
}
    `, {"fragmentName":"AccountFields"}) as unknown as TypedDocumentString<AccountFieldsFragment, unknown>;
export const LedgerEntryFieldsFragmentDoc = new TypedDocumentString(`
    fragment LedgerEntryFields on LedgerEntry {
  id
  accountId
  kind
  amount
  currency
  balanceAfter
  versionAfter
  counterpartyAccountId
  requestId
  createdAt
  committedAt
  reference
  metadata
  reversalOf
  reversedAmount
}
    `, {"fragmentName":"LedgerEntryFields"}) as unknown as TypedDocumentString<LedgerEntryFieldsFragment, unknown>;
export const HoldFieldsFragmentDoc = new TypedDocumentString(`
    fragment HoldFields on Hold {
  id
  accountId
  currency
  amount
  capturedAmount
  status
  expiresAt
}
    `, {"fragmentName":"HoldFields"}) as unknown as TypedDocumentString<HoldFieldsFragment, unknown>;
export const WorkItemFieldsFragmentDoc = new TypedDocumentString(`
    fragment WorkItemFields on WorkItem {
  id
  kind
  status
  previousStatus
  version
  attempts
  maxAttempts
  idempotencyKey
  group
  payload
  result
  lockedBy
  leaseExpiresAt
  availableAt
  priority
  runAt
  createdAt
  updatedAt
  traceparent
  history {
    from
    to
    version
    at
    workerId
  }
}
    `, {"fragmentName":"WorkItemFields"}) as unknown as TypedDocumentString<WorkItemFieldsFragment, unknown>;
export const ScheduleFieldsFragmentDoc = new TypedDocumentString(`
    fragment ScheduleFields on Schedule {
  name
  kind
  cron
  timeZone
  payload
  catchUp
  createdAt
  nextFireAt
  nextFireTimes
  lastFiredPeriod
  lastFiredAt
  lastItemKey
}
    `, {"fragmentName":"ScheduleFields"}) as unknown as TypedDocumentString<ScheduleFieldsFragment, unknown>;
export const ReplayableOutcomeFieldsFragmentDoc = new TypedDocumentString(`
    fragment ReplayableOutcomeFields on ReplayableOutcome {
  __typename
  ... on WithdrawSuccess {
    account {
      ...AccountFields
    }
    entry {
      ...LedgerEntryFields
    }
  }
  ... on DepositSuccess {
    account {
      ...AccountFields
    }
    entry {
      ...LedgerEntryFields
    }
  }
  ... on TransferSuccess {
    from {
      ...AccountFields
    }
    to {
      ...AccountFields
    }
    debit {
      ...LedgerEntryFields
    }
    credit {
      ...LedgerEntryFields
    }
  }
  ... on InsufficientFunds {
    accountId
    amount
    balance
  }
  ... on OpenAccountSuccess {
    account {
      ...AccountFields
    }
  }
  ... on AuthorizeHoldSuccess {
    hold {
      ...HoldFields
    }
    account {
      ...AccountFields
    }
  }
  ... on CaptureHoldSuccess {
    hold {
      ...HoldFields
    }
    entry {
      ...LedgerEntryFields
    }
    creditEntry {
      ...LedgerEntryFields
    }
    account {
      ...AccountFields
    }
    toAccount {
      ...AccountFields
    }
  }
  ... on VoidHoldSuccess {
    hold {
      ...HoldFields
    }
    account {
      ...AccountFields
    }
  }
  ... on ReverseMoveSuccess {
    originalRequestId
    amount
    originalAmount
    reversedAmount
    entry {
      ...LedgerEntryFields
    }
    creditEntry {
      ...LedgerEntryFields
    }
    account {
      ...AccountFields
    }
    toAccount {
      ...AccountFields
    }
  }
  ... on CloseAccountSuccess {
    account {
      ...AccountFields
    }
    movedAmount
    transferredTo {
      ...AccountFields
    }
    debitEntry {
      ...LedgerEntryFields
    }
    creditEntry {
      ...LedgerEntryFields
    }
  }
  ... on CreateWorkItemSuccess {
    item {
      ...WorkItemFields
    }
  }
  ... on CompleteSuccess {
    item {
      ...WorkItemFields
    }
  }
  ... on ScheduleWorkSuccess {
    schedule {
      ...ScheduleFields
    }
  }
}
    fragment AccountFields on Account {
  id
  currency
  balance
  version
  held
  available
  status
  closedAt
}
fragment HoldFields on Hold {
  id
  accountId
  currency
  amount
  capturedAmount
  status
  expiresAt
}
fragment LedgerEntryFields on LedgerEntry {
  id
  accountId
  kind
  amount
  currency
  balanceAfter
  versionAfter
  counterpartyAccountId
  requestId
  createdAt
  committedAt
  reference
  metadata
  reversalOf
  reversedAmount
}
fragment WorkItemFields on WorkItem {
  id
  kind
  status
  previousStatus
  version
  attempts
  maxAttempts
  idempotencyKey
  group
  payload
  result
  lockedBy
  leaseExpiresAt
  availableAt
  priority
  runAt
  createdAt
  updatedAt
  traceparent
  history {
    from
    to
    version
    at
    workerId
  }
}
fragment ScheduleFields on Schedule {
  name
  kind
  cron
  timeZone
  payload
  catchUp
  createdAt
  nextFireAt
  nextFireTimes
  lastFiredPeriod
  lastFiredAt
  lastItemKey
}`, {"fragmentName":"ReplayableOutcomeFields"}) as unknown as TypedDocumentString<ReplayableOutcomeFieldsFragment, unknown>;
export const DuplicateReplayedFieldsFragmentDoc = new TypedDocumentString(`
    fragment DuplicateReplayedFields on DuplicateReplayed {
  requestId
  firstSeenAt
  original {
    ...ReplayableOutcomeFields
  }
}
    fragment AccountFields on Account {
  id
  currency
  balance
  version
  held
  available
  status
  closedAt
}
fragment HoldFields on Hold {
  id
  accountId
  currency
  amount
  capturedAmount
  status
  expiresAt
}
fragment LedgerEntryFields on LedgerEntry {
  id
  accountId
  kind
  amount
  currency
  balanceAfter
  versionAfter
  counterpartyAccountId
  requestId
  createdAt
  committedAt
  reference
  metadata
  reversalOf
  reversedAmount
}
fragment WorkItemFields on WorkItem {
  id
  kind
  status
  previousStatus
  version
  attempts
  maxAttempts
  idempotencyKey
  group
  payload
  result
  lockedBy
  leaseExpiresAt
  availableAt
  priority
  runAt
  createdAt
  updatedAt
  traceparent
  history {
    from
    to
    version
    at
    workerId
  }
}
fragment ReplayableOutcomeFields on ReplayableOutcome {
  __typename
  ... on WithdrawSuccess {
    account {
      ...AccountFields
    }
    entry {
      ...LedgerEntryFields
    }
  }
  ... on DepositSuccess {
    account {
      ...AccountFields
    }
    entry {
      ...LedgerEntryFields
    }
  }
  ... on TransferSuccess {
    from {
      ...AccountFields
    }
    to {
      ...AccountFields
    }
    debit {
      ...LedgerEntryFields
    }
    credit {
      ...LedgerEntryFields
    }
  }
  ... on InsufficientFunds {
    accountId
    amount
    balance
  }
  ... on OpenAccountSuccess {
    account {
      ...AccountFields
    }
  }
  ... on AuthorizeHoldSuccess {
    hold {
      ...HoldFields
    }
    account {
      ...AccountFields
    }
  }
  ... on CaptureHoldSuccess {
    hold {
      ...HoldFields
    }
    entry {
      ...LedgerEntryFields
    }
    creditEntry {
      ...LedgerEntryFields
    }
    account {
      ...AccountFields
    }
    toAccount {
      ...AccountFields
    }
  }
  ... on VoidHoldSuccess {
    hold {
      ...HoldFields
    }
    account {
      ...AccountFields
    }
  }
  ... on ReverseMoveSuccess {
    originalRequestId
    amount
    originalAmount
    reversedAmount
    entry {
      ...LedgerEntryFields
    }
    creditEntry {
      ...LedgerEntryFields
    }
    account {
      ...AccountFields
    }
    toAccount {
      ...AccountFields
    }
  }
  ... on CloseAccountSuccess {
    account {
      ...AccountFields
    }
    movedAmount
    transferredTo {
      ...AccountFields
    }
    debitEntry {
      ...LedgerEntryFields
    }
    creditEntry {
      ...LedgerEntryFields
    }
  }
  ... on CreateWorkItemSuccess {
    item {
      ...WorkItemFields
    }
  }
  ... on CompleteSuccess {
    item {
      ...WorkItemFields
    }
  }
  ... on ScheduleWorkSuccess {
    schedule {
      ...ScheduleFields
    }
  }
}
fragment ScheduleFields on Schedule {
  name
  kind
  cron
  timeZone
  payload
  catchUp
  createdAt
  nextFireAt
  nextFireTimes
  lastFiredPeriod
  lastFiredAt
  lastItemKey
}`, {"fragmentName":"DuplicateReplayedFields"}) as unknown as TypedDocumentString<DuplicateReplayedFieldsFragment, unknown>;
export const LedgerAuditFieldsFragmentDoc = new TypedDocumentString(`
    fragment LedgerAuditFields on LedgerAudit {
  scope
  lastRunAt
  accountsChecked
  entriesChecked
  mismatchCount
  mismatches {
    kind
    subject
    accountId
    expected
    actual
  }
}
    `, {"fragmentName":"LedgerAuditFields"}) as unknown as TypedDocumentString<LedgerAuditFieldsFragment, unknown>;
export const AccountDocument = new TypedDocumentString(`
    query Account($id: ID!) {
  account(id: $id) {
    ...AccountFields
  }
}
    fragment AccountFields on Account {
  id
  currency
  balance
  version
  held
  available
  status
  closedAt
}`) as unknown as TypedDocumentString<AccountQuery, AccountQueryVariables>;
export const AccountBalanceChangedDocument = new TypedDocumentString(`
    subscription AccountBalanceChanged($accountIds: [ID!]!, $after: String) {
  accountBalanceChanged(accountIds: $accountIds, after: $after) {
    __typename
    ... on AccountBalanceChanged {
      cursor
      accountId
      balance
      version
      at
    }
    ... on ResyncRequired {
      cursor
      reason
    }
  }
}
    `) as unknown as TypedDocumentString<AccountBalanceChangedSubscription, AccountBalanceChangedSubscriptionVariables>;
export const AccountsDocument = new TypedDocumentString(`
    query Accounts($after: String, $first: Int) {
  accounts(after: $after, first: $first) {
    items {
      ...AccountFields
    }
    endCursor
    hasNextPage
  }
}
    fragment AccountFields on Account {
  id
  currency
  balance
  version
  held
  available
  status
  closedAt
}`) as unknown as TypedDocumentString<AccountsQuery, AccountsQueryVariables>;
export const AuthorizeHoldDocument = new TypedDocumentString(`
    mutation AuthorizeHold($input: AuthorizeHoldInput!) {
  authorizeHold(input: $input) {
    __typename
    ... on AuthorizeHoldSuccess {
      hold {
        ...HoldFields
      }
      account {
        ...AccountFields
      }
    }
    ... on InsufficientFunds {
      accountId
      amount
      balance
    }
    ... on AccountNotFound {
      accountId
    }
    ... on AccountClosed {
      accountId
      closedAt
    }
    ... on DuplicateReplayed {
      ...DuplicateReplayedFields
    }
    ... on IdempotencyKeyReused {
      requestId
      field
      detail
    }
    ... on RequestInProgress {
      requestId
      firstSeenAt
    }
    ... on OutcomeUnknown {
      requestId
      firstSeenAt
    }
  }
}
    fragment AccountFields on Account {
  id
  currency
  balance
  version
  held
  available
  status
  closedAt
}
fragment HoldFields on Hold {
  id
  accountId
  currency
  amount
  capturedAmount
  status
  expiresAt
}
fragment LedgerEntryFields on LedgerEntry {
  id
  accountId
  kind
  amount
  currency
  balanceAfter
  versionAfter
  counterpartyAccountId
  requestId
  createdAt
  committedAt
  reference
  metadata
  reversalOf
  reversedAmount
}
fragment WorkItemFields on WorkItem {
  id
  kind
  status
  previousStatus
  version
  attempts
  maxAttempts
  idempotencyKey
  group
  payload
  result
  lockedBy
  leaseExpiresAt
  availableAt
  priority
  runAt
  createdAt
  updatedAt
  traceparent
  history {
    from
    to
    version
    at
    workerId
  }
}
fragment ReplayableOutcomeFields on ReplayableOutcome {
  __typename
  ... on WithdrawSuccess {
    account {
      ...AccountFields
    }
    entry {
      ...LedgerEntryFields
    }
  }
  ... on DepositSuccess {
    account {
      ...AccountFields
    }
    entry {
      ...LedgerEntryFields
    }
  }
  ... on TransferSuccess {
    from {
      ...AccountFields
    }
    to {
      ...AccountFields
    }
    debit {
      ...LedgerEntryFields
    }
    credit {
      ...LedgerEntryFields
    }
  }
  ... on InsufficientFunds {
    accountId
    amount
    balance
  }
  ... on OpenAccountSuccess {
    account {
      ...AccountFields
    }
  }
  ... on AuthorizeHoldSuccess {
    hold {
      ...HoldFields
    }
    account {
      ...AccountFields
    }
  }
  ... on CaptureHoldSuccess {
    hold {
      ...HoldFields
    }
    entry {
      ...LedgerEntryFields
    }
    creditEntry {
      ...LedgerEntryFields
    }
    account {
      ...AccountFields
    }
    toAccount {
      ...AccountFields
    }
  }
  ... on VoidHoldSuccess {
    hold {
      ...HoldFields
    }
    account {
      ...AccountFields
    }
  }
  ... on ReverseMoveSuccess {
    originalRequestId
    amount
    originalAmount
    reversedAmount
    entry {
      ...LedgerEntryFields
    }
    creditEntry {
      ...LedgerEntryFields
    }
    account {
      ...AccountFields
    }
    toAccount {
      ...AccountFields
    }
  }
  ... on CloseAccountSuccess {
    account {
      ...AccountFields
    }
    movedAmount
    transferredTo {
      ...AccountFields
    }
    debitEntry {
      ...LedgerEntryFields
    }
    creditEntry {
      ...LedgerEntryFields
    }
  }
  ... on CreateWorkItemSuccess {
    item {
      ...WorkItemFields
    }
  }
  ... on CompleteSuccess {
    item {
      ...WorkItemFields
    }
  }
  ... on ScheduleWorkSuccess {
    schedule {
      ...ScheduleFields
    }
  }
}
fragment DuplicateReplayedFields on DuplicateReplayed {
  requestId
  firstSeenAt
  original {
    ...ReplayableOutcomeFields
  }
}
fragment ScheduleFields on Schedule {
  name
  kind
  cron
  timeZone
  payload
  catchUp
  createdAt
  nextFireAt
  nextFireTimes
  lastFiredPeriod
  lastFiredAt
  lastItemKey
}`) as unknown as TypedDocumentString<AuthorizeHoldMutation, AuthorizeHoldMutationVariables>;
export const BalanceAtDocument = new TypedDocumentString(`
    query BalanceAt($accountId: ID!, $at: DateTime!) {
  balanceAt(accountId: $accountId, at: $at)
}
    `) as unknown as TypedDocumentString<BalanceAtQuery, BalanceAtQueryVariables>;
export const BalanceHistoryDocument = new TypedDocumentString(`
    query BalanceHistory($accountId: ID!, $at: DateTime, $first: Int, $after: String) {
  balanceHistory(accountId: $accountId, at: $at, first: $first, after: $after) {
    items {
      at
      balance
      version
      entry {
        ...LedgerEntryFields
      }
    }
    endCursor
    hasNextPage
  }
}
    fragment LedgerEntryFields on LedgerEntry {
  id
  accountId
  kind
  amount
  currency
  balanceAfter
  versionAfter
  counterpartyAccountId
  requestId
  createdAt
  committedAt
  reference
  metadata
  reversalOf
  reversedAmount
}`) as unknown as TypedDocumentString<BalanceHistoryQuery, BalanceHistoryQueryVariables>;
export const CaptureHoldDocument = new TypedDocumentString(`
    mutation CaptureHold($input: CaptureHoldInput!) {
  captureHold(input: $input) {
    __typename
    ... on CaptureHoldSuccess {
      hold {
        ...HoldFields
      }
      entry {
        ...LedgerEntryFields
      }
      creditEntry {
        ...LedgerEntryFields
      }
      account {
        ...AccountFields
      }
      toAccount {
        ...AccountFields
      }
    }
    ... on HoldNotPending {
      holdId
      status
    }
    ... on CaptureExceedsHold {
      holdId
      holdAmount
      amount
    }
    ... on HoldNotFound {
      holdId
    }
    ... on CurrencyMismatch {
      fromAccountId
      fromCurrency
      toAccountId
      toCurrency
    }
    ... on AccountNotFound {
      accountId
    }
    ... on AccountClosed {
      accountId
      closedAt
    }
    ... on BalanceLimitExceeded {
      accountId
      amount
      balance
    }
    ... on DuplicateReplayed {
      ...DuplicateReplayedFields
    }
    ... on IdempotencyKeyReused {
      requestId
      field
      detail
    }
    ... on RequestInProgress {
      requestId
      firstSeenAt
    }
    ... on OutcomeUnknown {
      requestId
      firstSeenAt
    }
  }
}
    fragment AccountFields on Account {
  id
  currency
  balance
  version
  held
  available
  status
  closedAt
}
fragment HoldFields on Hold {
  id
  accountId
  currency
  amount
  capturedAmount
  status
  expiresAt
}
fragment LedgerEntryFields on LedgerEntry {
  id
  accountId
  kind
  amount
  currency
  balanceAfter
  versionAfter
  counterpartyAccountId
  requestId
  createdAt
  committedAt
  reference
  metadata
  reversalOf
  reversedAmount
}
fragment WorkItemFields on WorkItem {
  id
  kind
  status
  previousStatus
  version
  attempts
  maxAttempts
  idempotencyKey
  group
  payload
  result
  lockedBy
  leaseExpiresAt
  availableAt
  priority
  runAt
  createdAt
  updatedAt
  traceparent
  history {
    from
    to
    version
    at
    workerId
  }
}
fragment ReplayableOutcomeFields on ReplayableOutcome {
  __typename
  ... on WithdrawSuccess {
    account {
      ...AccountFields
    }
    entry {
      ...LedgerEntryFields
    }
  }
  ... on DepositSuccess {
    account {
      ...AccountFields
    }
    entry {
      ...LedgerEntryFields
    }
  }
  ... on TransferSuccess {
    from {
      ...AccountFields
    }
    to {
      ...AccountFields
    }
    debit {
      ...LedgerEntryFields
    }
    credit {
      ...LedgerEntryFields
    }
  }
  ... on InsufficientFunds {
    accountId
    amount
    balance
  }
  ... on OpenAccountSuccess {
    account {
      ...AccountFields
    }
  }
  ... on AuthorizeHoldSuccess {
    hold {
      ...HoldFields
    }
    account {
      ...AccountFields
    }
  }
  ... on CaptureHoldSuccess {
    hold {
      ...HoldFields
    }
    entry {
      ...LedgerEntryFields
    }
    creditEntry {
      ...LedgerEntryFields
    }
    account {
      ...AccountFields
    }
    toAccount {
      ...AccountFields
    }
  }
  ... on VoidHoldSuccess {
    hold {
      ...HoldFields
    }
    account {
      ...AccountFields
    }
  }
  ... on ReverseMoveSuccess {
    originalRequestId
    amount
    originalAmount
    reversedAmount
    entry {
      ...LedgerEntryFields
    }
    creditEntry {
      ...LedgerEntryFields
    }
    account {
      ...AccountFields
    }
    toAccount {
      ...AccountFields
    }
  }
  ... on CloseAccountSuccess {
    account {
      ...AccountFields
    }
    movedAmount
    transferredTo {
      ...AccountFields
    }
    debitEntry {
      ...LedgerEntryFields
    }
    creditEntry {
      ...LedgerEntryFields
    }
  }
  ... on CreateWorkItemSuccess {
    item {
      ...WorkItemFields
    }
  }
  ... on CompleteSuccess {
    item {
      ...WorkItemFields
    }
  }
  ... on ScheduleWorkSuccess {
    schedule {
      ...ScheduleFields
    }
  }
}
fragment DuplicateReplayedFields on DuplicateReplayed {
  requestId
  firstSeenAt
  original {
    ...ReplayableOutcomeFields
  }
}
fragment ScheduleFields on Schedule {
  name
  kind
  cron
  timeZone
  payload
  catchUp
  createdAt
  nextFireAt
  nextFireTimes
  lastFiredPeriod
  lastFiredAt
  lastItemKey
}`) as unknown as TypedDocumentString<CaptureHoldMutation, CaptureHoldMutationVariables>;
export const ClaimWorkItemDocument = new TypedDocumentString(`
    mutation ClaimWorkItem($input: ClaimWorkItemInput!) {
  claimWorkItem(input: $input) {
    __typename
    ... on ClaimSuccess {
      item {
        ...WorkItemFields
      }
    }
    ... on NothingToClaim {
      kinds
    }
    ... on ConflictLost {
      operation
      reason
      detail
      item {
        ...WorkItemFields
      }
    }
    ... on WorkItemNotFound {
      id
    }
  }
}
    fragment WorkItemFields on WorkItem {
  id
  kind
  status
  previousStatus
  version
  attempts
  maxAttempts
  idempotencyKey
  group
  payload
  result
  lockedBy
  leaseExpiresAt
  availableAt
  priority
  runAt
  createdAt
  updatedAt
  traceparent
  history {
    from
    to
    version
    at
    workerId
  }
}`) as unknown as TypedDocumentString<ClaimWorkItemMutation, ClaimWorkItemMutationVariables>;
export const ClaimWorkItemsDocument = new TypedDocumentString(`
    mutation ClaimWorkItems($input: ClaimWorkItemsInput!) {
  claimWorkItems(input: $input) {
    __typename
    ... on ClaimWorkItemsSuccess {
      items {
        ...WorkItemFields
      }
      conflicts
    }
    ... on NothingToClaim {
      kinds
    }
  }
}
    fragment WorkItemFields on WorkItem {
  id
  kind
  status
  previousStatus
  version
  attempts
  maxAttempts
  idempotencyKey
  group
  payload
  result
  lockedBy
  leaseExpiresAt
  availableAt
  priority
  runAt
  createdAt
  updatedAt
  traceparent
  history {
    from
    to
    version
    at
    workerId
  }
}`) as unknown as TypedDocumentString<ClaimWorkItemsMutation, ClaimWorkItemsMutationVariables>;
export const CloseAccountDocument = new TypedDocumentString(`
    mutation CloseAccount($input: CloseAccountInput!) {
  closeAccount(input: $input) {
    __typename
    ... on CloseAccountSuccess {
      account {
        ...AccountFields
      }
      movedAmount
      transferredTo {
        ...AccountFields
      }
      debitEntry {
        ...LedgerEntryFields
      }
      creditEntry {
        ...LedgerEntryFields
      }
    }
    ... on AccountNotFound {
      accountId
    }
    ... on AccountHasHolds {
      accountId
      held
    }
    ... on CurrencyMismatch {
      fromAccountId
      fromCurrency
      toAccountId
      toCurrency
    }
    ... on AccountClosed {
      accountId
      closedAt
    }
    ... on DuplicateReplayed {
      ...DuplicateReplayedFields
    }
    ... on IdempotencyKeyReused {
      requestId
      field
      detail
    }
    ... on RequestInProgress {
      requestId
      firstSeenAt
    }
    ... on OutcomeUnknown {
      requestId
      firstSeenAt
    }
  }
}
    fragment AccountFields on Account {
  id
  currency
  balance
  version
  held
  available
  status
  closedAt
}
fragment HoldFields on Hold {
  id
  accountId
  currency
  amount
  capturedAmount
  status
  expiresAt
}
fragment LedgerEntryFields on LedgerEntry {
  id
  accountId
  kind
  amount
  currency
  balanceAfter
  versionAfter
  counterpartyAccountId
  requestId
  createdAt
  committedAt
  reference
  metadata
  reversalOf
  reversedAmount
}
fragment WorkItemFields on WorkItem {
  id
  kind
  status
  previousStatus
  version
  attempts
  maxAttempts
  idempotencyKey
  group
  payload
  result
  lockedBy
  leaseExpiresAt
  availableAt
  priority
  runAt
  createdAt
  updatedAt
  traceparent
  history {
    from
    to
    version
    at
    workerId
  }
}
fragment ReplayableOutcomeFields on ReplayableOutcome {
  __typename
  ... on WithdrawSuccess {
    account {
      ...AccountFields
    }
    entry {
      ...LedgerEntryFields
    }
  }
  ... on DepositSuccess {
    account {
      ...AccountFields
    }
    entry {
      ...LedgerEntryFields
    }
  }
  ... on TransferSuccess {
    from {
      ...AccountFields
    }
    to {
      ...AccountFields
    }
    debit {
      ...LedgerEntryFields
    }
    credit {
      ...LedgerEntryFields
    }
  }
  ... on InsufficientFunds {
    accountId
    amount
    balance
  }
  ... on OpenAccountSuccess {
    account {
      ...AccountFields
    }
  }
  ... on AuthorizeHoldSuccess {
    hold {
      ...HoldFields
    }
    account {
      ...AccountFields
    }
  }
  ... on CaptureHoldSuccess {
    hold {
      ...HoldFields
    }
    entry {
      ...LedgerEntryFields
    }
    creditEntry {
      ...LedgerEntryFields
    }
    account {
      ...AccountFields
    }
    toAccount {
      ...AccountFields
    }
  }
  ... on VoidHoldSuccess {
    hold {
      ...HoldFields
    }
    account {
      ...AccountFields
    }
  }
  ... on ReverseMoveSuccess {
    originalRequestId
    amount
    originalAmount
    reversedAmount
    entry {
      ...LedgerEntryFields
    }
    creditEntry {
      ...LedgerEntryFields
    }
    account {
      ...AccountFields
    }
    toAccount {
      ...AccountFields
    }
  }
  ... on CloseAccountSuccess {
    account {
      ...AccountFields
    }
    movedAmount
    transferredTo {
      ...AccountFields
    }
    debitEntry {
      ...LedgerEntryFields
    }
    creditEntry {
      ...LedgerEntryFields
    }
  }
  ... on CreateWorkItemSuccess {
    item {
      ...WorkItemFields
    }
  }
  ... on CompleteSuccess {
    item {
      ...WorkItemFields
    }
  }
  ... on ScheduleWorkSuccess {
    schedule {
      ...ScheduleFields
    }
  }
}
fragment DuplicateReplayedFields on DuplicateReplayed {
  requestId
  firstSeenAt
  original {
    ...ReplayableOutcomeFields
  }
}
fragment ScheduleFields on Schedule {
  name
  kind
  cron
  timeZone
  payload
  catchUp
  createdAt
  nextFireAt
  nextFireTimes
  lastFiredPeriod
  lastFiredAt
  lastItemKey
}`) as unknown as TypedDocumentString<CloseAccountMutation, CloseAccountMutationVariables>;
export const CompleteWorkItemDocument = new TypedDocumentString(`
    mutation CompleteWorkItem($input: CompleteWorkItemInput!) {
  completeWorkItem(input: $input) {
    __typename
    ... on CompleteSuccess {
      item {
        ...WorkItemFields
      }
    }
    ... on ConflictLost {
      operation
      reason
      detail
      item {
        ...WorkItemFields
      }
    }
    ... on DuplicateReplayed {
      ...DuplicateReplayedFields
    }
    ... on WorkItemNotFound {
      id
    }
  }
}
    fragment AccountFields on Account {
  id
  currency
  balance
  version
  held
  available
  status
  closedAt
}
fragment HoldFields on Hold {
  id
  accountId
  currency
  amount
  capturedAmount
  status
  expiresAt
}
fragment LedgerEntryFields on LedgerEntry {
  id
  accountId
  kind
  amount
  currency
  balanceAfter
  versionAfter
  counterpartyAccountId
  requestId
  createdAt
  committedAt
  reference
  metadata
  reversalOf
  reversedAmount
}
fragment WorkItemFields on WorkItem {
  id
  kind
  status
  previousStatus
  version
  attempts
  maxAttempts
  idempotencyKey
  group
  payload
  result
  lockedBy
  leaseExpiresAt
  availableAt
  priority
  runAt
  createdAt
  updatedAt
  traceparent
  history {
    from
    to
    version
    at
    workerId
  }
}
fragment ReplayableOutcomeFields on ReplayableOutcome {
  __typename
  ... on WithdrawSuccess {
    account {
      ...AccountFields
    }
    entry {
      ...LedgerEntryFields
    }
  }
  ... on DepositSuccess {
    account {
      ...AccountFields
    }
    entry {
      ...LedgerEntryFields
    }
  }
  ... on TransferSuccess {
    from {
      ...AccountFields
    }
    to {
      ...AccountFields
    }
    debit {
      ...LedgerEntryFields
    }
    credit {
      ...LedgerEntryFields
    }
  }
  ... on InsufficientFunds {
    accountId
    amount
    balance
  }
  ... on OpenAccountSuccess {
    account {
      ...AccountFields
    }
  }
  ... on AuthorizeHoldSuccess {
    hold {
      ...HoldFields
    }
    account {
      ...AccountFields
    }
  }
  ... on CaptureHoldSuccess {
    hold {
      ...HoldFields
    }
    entry {
      ...LedgerEntryFields
    }
    creditEntry {
      ...LedgerEntryFields
    }
    account {
      ...AccountFields
    }
    toAccount {
      ...AccountFields
    }
  }
  ... on VoidHoldSuccess {
    hold {
      ...HoldFields
    }
    account {
      ...AccountFields
    }
  }
  ... on ReverseMoveSuccess {
    originalRequestId
    amount
    originalAmount
    reversedAmount
    entry {
      ...LedgerEntryFields
    }
    creditEntry {
      ...LedgerEntryFields
    }
    account {
      ...AccountFields
    }
    toAccount {
      ...AccountFields
    }
  }
  ... on CloseAccountSuccess {
    account {
      ...AccountFields
    }
    movedAmount
    transferredTo {
      ...AccountFields
    }
    debitEntry {
      ...LedgerEntryFields
    }
    creditEntry {
      ...LedgerEntryFields
    }
  }
  ... on CreateWorkItemSuccess {
    item {
      ...WorkItemFields
    }
  }
  ... on CompleteSuccess {
    item {
      ...WorkItemFields
    }
  }
  ... on ScheduleWorkSuccess {
    schedule {
      ...ScheduleFields
    }
  }
}
fragment DuplicateReplayedFields on DuplicateReplayed {
  requestId
  firstSeenAt
  original {
    ...ReplayableOutcomeFields
  }
}
fragment ScheduleFields on Schedule {
  name
  kind
  cron
  timeZone
  payload
  catchUp
  createdAt
  nextFireAt
  nextFireTimes
  lastFiredPeriod
  lastFiredAt
  lastItemKey
}`) as unknown as TypedDocumentString<CompleteWorkItemMutation, CompleteWorkItemMutationVariables>;
export const CompleteWorkItemsDocument = new TypedDocumentString(`
    mutation CompleteWorkItems($input: CompleteWorkItemsInput!) {
  completeWorkItems(input: $input) {
    results {
      __typename
      ... on CompleteSuccess {
        item {
          id
          status
          version
        }
      }
      ... on ConflictLost {
        operation
        reason
        detail
        item {
          id
          status
          version
          lockedBy
        }
      }
      ... on DuplicateReplayed {
        requestId
        firstSeenAt
      }
      ... on WorkItemNotFound {
        id
      }
    }
  }
}
    `) as unknown as TypedDocumentString<CompleteWorkItemsMutation, CompleteWorkItemsMutationVariables>;
export const CreateWorkItemDocument = new TypedDocumentString(`
    mutation CreateWorkItem($input: CreateWorkItemInput!) {
  createWorkItem(input: $input) {
    __typename
    ... on CreateWorkItemSuccess {
      item {
        ...WorkItemFields
      }
    }
    ... on DuplicateReplayed {
      ...DuplicateReplayedFields
    }
    ... on IdempotencyKeyReused {
      requestId
      field
      detail
    }
  }
}
    fragment AccountFields on Account {
  id
  currency
  balance
  version
  held
  available
  status
  closedAt
}
fragment HoldFields on Hold {
  id
  accountId
  currency
  amount
  capturedAmount
  status
  expiresAt
}
fragment LedgerEntryFields on LedgerEntry {
  id
  accountId
  kind
  amount
  currency
  balanceAfter
  versionAfter
  counterpartyAccountId
  requestId
  createdAt
  committedAt
  reference
  metadata
  reversalOf
  reversedAmount
}
fragment WorkItemFields on WorkItem {
  id
  kind
  status
  previousStatus
  version
  attempts
  maxAttempts
  idempotencyKey
  group
  payload
  result
  lockedBy
  leaseExpiresAt
  availableAt
  priority
  runAt
  createdAt
  updatedAt
  traceparent
  history {
    from
    to
    version
    at
    workerId
  }
}
fragment ReplayableOutcomeFields on ReplayableOutcome {
  __typename
  ... on WithdrawSuccess {
    account {
      ...AccountFields
    }
    entry {
      ...LedgerEntryFields
    }
  }
  ... on DepositSuccess {
    account {
      ...AccountFields
    }
    entry {
      ...LedgerEntryFields
    }
  }
  ... on TransferSuccess {
    from {
      ...AccountFields
    }
    to {
      ...AccountFields
    }
    debit {
      ...LedgerEntryFields
    }
    credit {
      ...LedgerEntryFields
    }
  }
  ... on InsufficientFunds {
    accountId
    amount
    balance
  }
  ... on OpenAccountSuccess {
    account {
      ...AccountFields
    }
  }
  ... on AuthorizeHoldSuccess {
    hold {
      ...HoldFields
    }
    account {
      ...AccountFields
    }
  }
  ... on CaptureHoldSuccess {
    hold {
      ...HoldFields
    }
    entry {
      ...LedgerEntryFields
    }
    creditEntry {
      ...LedgerEntryFields
    }
    account {
      ...AccountFields
    }
    toAccount {
      ...AccountFields
    }
  }
  ... on VoidHoldSuccess {
    hold {
      ...HoldFields
    }
    account {
      ...AccountFields
    }
  }
  ... on ReverseMoveSuccess {
    originalRequestId
    amount
    originalAmount
    reversedAmount
    entry {
      ...LedgerEntryFields
    }
    creditEntry {
      ...LedgerEntryFields
    }
    account {
      ...AccountFields
    }
    toAccount {
      ...AccountFields
    }
  }
  ... on CloseAccountSuccess {
    account {
      ...AccountFields
    }
    movedAmount
    transferredTo {
      ...AccountFields
    }
    debitEntry {
      ...LedgerEntryFields
    }
    creditEntry {
      ...LedgerEntryFields
    }
  }
  ... on CreateWorkItemSuccess {
    item {
      ...WorkItemFields
    }
  }
  ... on CompleteSuccess {
    item {
      ...WorkItemFields
    }
  }
  ... on ScheduleWorkSuccess {
    schedule {
      ...ScheduleFields
    }
  }
}
fragment DuplicateReplayedFields on DuplicateReplayed {
  requestId
  firstSeenAt
  original {
    ...ReplayableOutcomeFields
  }
}
fragment ScheduleFields on Schedule {
  name
  kind
  cron
  timeZone
  payload
  catchUp
  createdAt
  nextFireAt
  nextFireTimes
  lastFiredPeriod
  lastFiredAt
  lastItemKey
}`) as unknown as TypedDocumentString<CreateWorkItemMutation, CreateWorkItemMutationVariables>;
export const DepositDocument = new TypedDocumentString(`
    mutation Deposit($input: DepositInput!) {
  deposit(input: $input) {
    __typename
    ... on DepositSuccess {
      account {
        ...AccountFields
      }
      entry {
        ...LedgerEntryFields
      }
    }
    ... on AccountNotFound {
      accountId
    }
    ... on AccountClosed {
      accountId
      closedAt
    }
    ... on DuplicateReplayed {
      ...DuplicateReplayedFields
    }
    ... on IdempotencyKeyReused {
      requestId
      field
      detail
    }
    ... on RequestInProgress {
      requestId
      firstSeenAt
    }
    ... on OutcomeUnknown {
      requestId
      firstSeenAt
    }
    ... on BalanceLimitExceeded {
      accountId
      amount
      balance
    }
  }
}
    fragment AccountFields on Account {
  id
  currency
  balance
  version
  held
  available
  status
  closedAt
}
fragment HoldFields on Hold {
  id
  accountId
  currency
  amount
  capturedAmount
  status
  expiresAt
}
fragment LedgerEntryFields on LedgerEntry {
  id
  accountId
  kind
  amount
  currency
  balanceAfter
  versionAfter
  counterpartyAccountId
  requestId
  createdAt
  committedAt
  reference
  metadata
  reversalOf
  reversedAmount
}
fragment WorkItemFields on WorkItem {
  id
  kind
  status
  previousStatus
  version
  attempts
  maxAttempts
  idempotencyKey
  group
  payload
  result
  lockedBy
  leaseExpiresAt
  availableAt
  priority
  runAt
  createdAt
  updatedAt
  traceparent
  history {
    from
    to
    version
    at
    workerId
  }
}
fragment ReplayableOutcomeFields on ReplayableOutcome {
  __typename
  ... on WithdrawSuccess {
    account {
      ...AccountFields
    }
    entry {
      ...LedgerEntryFields
    }
  }
  ... on DepositSuccess {
    account {
      ...AccountFields
    }
    entry {
      ...LedgerEntryFields
    }
  }
  ... on TransferSuccess {
    from {
      ...AccountFields
    }
    to {
      ...AccountFields
    }
    debit {
      ...LedgerEntryFields
    }
    credit {
      ...LedgerEntryFields
    }
  }
  ... on InsufficientFunds {
    accountId
    amount
    balance
  }
  ... on OpenAccountSuccess {
    account {
      ...AccountFields
    }
  }
  ... on AuthorizeHoldSuccess {
    hold {
      ...HoldFields
    }
    account {
      ...AccountFields
    }
  }
  ... on CaptureHoldSuccess {
    hold {
      ...HoldFields
    }
    entry {
      ...LedgerEntryFields
    }
    creditEntry {
      ...LedgerEntryFields
    }
    account {
      ...AccountFields
    }
    toAccount {
      ...AccountFields
    }
  }
  ... on VoidHoldSuccess {
    hold {
      ...HoldFields
    }
    account {
      ...AccountFields
    }
  }
  ... on ReverseMoveSuccess {
    originalRequestId
    amount
    originalAmount
    reversedAmount
    entry {
      ...LedgerEntryFields
    }
    creditEntry {
      ...LedgerEntryFields
    }
    account {
      ...AccountFields
    }
    toAccount {
      ...AccountFields
    }
  }
  ... on CloseAccountSuccess {
    account {
      ...AccountFields
    }
    movedAmount
    transferredTo {
      ...AccountFields
    }
    debitEntry {
      ...LedgerEntryFields
    }
    creditEntry {
      ...LedgerEntryFields
    }
  }
  ... on CreateWorkItemSuccess {
    item {
      ...WorkItemFields
    }
  }
  ... on CompleteSuccess {
    item {
      ...WorkItemFields
    }
  }
  ... on ScheduleWorkSuccess {
    schedule {
      ...ScheduleFields
    }
  }
}
fragment DuplicateReplayedFields on DuplicateReplayed {
  requestId
  firstSeenAt
  original {
    ...ReplayableOutcomeFields
  }
}
fragment ScheduleFields on Schedule {
  name
  kind
  cron
  timeZone
  payload
  catchUp
  createdAt
  nextFireAt
  nextFireTimes
  lastFiredPeriod
  lastFiredAt
  lastItemKey
}`) as unknown as TypedDocumentString<DepositMutation, DepositMutationVariables>;
export const HealthDocument = new TypedDocumentString(`
    query Health {
  health {
    engine
    engineReason
    version
    replicaSet {
      name
      members
      primary
    }
  }
}
    `) as unknown as TypedDocumentString<HealthQuery, HealthQueryVariables>;
export const HeartbeatWorkItemDocument = new TypedDocumentString(`
    mutation HeartbeatWorkItem($input: HeartbeatWorkItemInput!) {
  heartbeatWorkItem(input: $input) {
    __typename
    ... on HeartbeatSuccess {
      item {
        ...WorkItemFields
      }
    }
    ... on ConflictLost {
      operation
      reason
      detail
      item {
        ...WorkItemFields
      }
    }
    ... on WorkItemNotFound {
      id
    }
  }
}
    fragment WorkItemFields on WorkItem {
  id
  kind
  status
  previousStatus
  version
  attempts
  maxAttempts
  idempotencyKey
  group
  payload
  result
  lockedBy
  leaseExpiresAt
  availableAt
  priority
  runAt
  createdAt
  updatedAt
  traceparent
  history {
    from
    to
    version
    at
    workerId
  }
}`) as unknown as TypedDocumentString<HeartbeatWorkItemMutation, HeartbeatWorkItemMutationVariables>;
export const HeartbeatWorkItemsDocument = new TypedDocumentString(`
    mutation HeartbeatWorkItems($input: HeartbeatWorkItemsInput!) {
  heartbeatWorkItems(input: $input) {
    results {
      __typename
      ... on HeartbeatSuccess {
        item {
          id
          version
          leaseExpiresAt
        }
      }
      ... on ConflictLost {
        operation
        reason
        detail
        item {
          id
          status
          version
          lockedBy
        }
      }
      ... on WorkItemNotFound {
        id
      }
    }
  }
}
    `) as unknown as TypedDocumentString<HeartbeatWorkItemsMutation, HeartbeatWorkItemsMutationVariables>;
export const HoldDocument = new TypedDocumentString(`
    query Hold($id: ID!) {
  hold(id: $id) {
    ...HoldFields
  }
}
    fragment HoldFields on Hold {
  id
  accountId
  currency
  amount
  capturedAmount
  status
  expiresAt
}`) as unknown as TypedDocumentString<HoldQuery, HoldQueryVariables>;
export const HoldChangedDocument = new TypedDocumentString(`
    subscription HoldChanged($accountId: ID!, $after: String) {
  holdChanged(accountId: $accountId, after: $after) {
    __typename
    ... on HoldChanged {
      cursor
      holdId
      accountId
      status
      amount
      capturedAmount
      at
    }
    ... on ResyncRequired {
      cursor
      reason
    }
  }
}
    `) as unknown as TypedDocumentString<HoldChangedSubscription, HoldChangedSubscriptionVariables>;
export const HoldsDocument = new TypedDocumentString(`
    query Holds($accountId: ID!, $status: HoldStatus, $first: Int, $after: String) {
  holds(accountId: $accountId, status: $status, first: $first, after: $after) {
    items {
      ...HoldFields
    }
    endCursor
    hasNextPage
  }
}
    fragment HoldFields on Hold {
  id
  accountId
  currency
  amount
  capturedAmount
  status
  expiresAt
}`) as unknown as TypedDocumentString<HoldsQuery, HoldsQueryVariables>;
export const LedgerAuditDocument = new TypedDocumentString(`
    query LedgerAudit {
  ledgerAudit {
    ...LedgerAuditFields
  }
}
    fragment LedgerAuditFields on LedgerAudit {
  scope
  lastRunAt
  accountsChecked
  entriesChecked
  mismatchCount
  mismatches {
    kind
    subject
    accountId
    expected
    actual
  }
}`) as unknown as TypedDocumentString<LedgerAuditQuery, LedgerAuditQueryVariables>;
export const LedgerEntriesDocument = new TypedDocumentString(`
    query LedgerEntries($accountId: ID, $reference: String, $kinds: [LedgerEntryKind!], $currency: String, $from: DateTime, $to: DateTime, $after: String, $first: Int) {
  ledgerEntries(
    accountId: $accountId
    reference: $reference
    kinds: $kinds
    currency: $currency
    from: $from
    to: $to
    after: $after
    first: $first
  ) {
    items {
      ...LedgerEntryFields
    }
    endCursor
    hasNextPage
    totalCount
    totalCountCapped
  }
}
    fragment LedgerEntryFields on LedgerEntry {
  id
  accountId
  kind
  amount
  currency
  balanceAfter
  versionAfter
  counterpartyAccountId
  requestId
  createdAt
  committedAt
  reference
  metadata
  reversalOf
  reversedAmount
}`) as unknown as TypedDocumentString<LedgerEntriesQuery, LedgerEntriesQueryVariables>;
export const LedgerEntryDocument = new TypedDocumentString(`
    query LedgerEntry($requestId: String!) {
  ledgerEntry(requestId: $requestId) {
    ...LedgerEntryFields
  }
}
    fragment LedgerEntryFields on LedgerEntry {
  id
  accountId
  kind
  amount
  currency
  balanceAfter
  versionAfter
  counterpartyAccountId
  requestId
  createdAt
  committedAt
  reference
  metadata
  reversalOf
  reversedAmount
}`) as unknown as TypedDocumentString<LedgerEntryQuery, LedgerEntryQueryVariables>;
export const LedgerEntryAddedDocument = new TypedDocumentString(`
    subscription LedgerEntryAdded($accountId: ID, $after: String) {
  ledgerEntryAdded(accountId: $accountId, after: $after) {
    __typename
    ... on LedgerEntryAdded {
      cursor
      entryId
      requestId
      accountId
      currency
      kind
      amount
      balanceAfter
      versionAfter
      counterpartyAccountId
      createdAt
    }
    ... on ResyncRequired {
      cursor
      reason
    }
  }
}
    `) as unknown as TypedDocumentString<LedgerEntryAddedSubscription, LedgerEntryAddedSubscriptionVariables>;
export const LedgerRequestDocument = new TypedDocumentString(`
    query LedgerRequest($requestId: String!) {
  ledgerRequest(requestId: $requestId) {
    requestId
    operation
    status
    amount
    fromAccountId
    toAccountId
    firstSeenAt
    decidedAt
    rejection {
      accountId
      amount
      balance
    }
    entries {
      ...LedgerEntryFields
    }
  }
}
    fragment LedgerEntryFields on LedgerEntry {
  id
  accountId
  kind
  amount
  currency
  balanceAfter
  versionAfter
  counterpartyAccountId
  requestId
  createdAt
  committedAt
  reference
  metadata
  reversalOf
  reversedAmount
}`) as unknown as TypedDocumentString<LedgerRequestQuery, LedgerRequestQueryVariables>;
export const LedgerTotalsDocument = new TypedDocumentString(`
    query LedgerTotals($currency: String!, $from: DateTime, $to: DateTime) {
  ledgerTotals(currency: $currency, from: $from, to: $to) {
    currency
    accounts
    moneyHeld
    moneyOnHold
    deposits {
      amount
      count
    }
    withdrawals {
      amount
      count
    }
    transfers {
      amount
      count
    }
  }
}
    `) as unknown as TypedDocumentString<LedgerTotalsQuery, LedgerTotalsQueryVariables>;
export const LiveFeedsDocument = new TypedDocumentString(`
    query LiveFeeds {
  liveFeeds {
    feed
    up
    status
    subscribers
    eventsDelivered
    resyncs
  }
}
    `) as unknown as TypedDocumentString<LiveFeedsQuery, LiveFeedsQueryVariables>;
export const MoveOutcomesDocument = new TypedDocumentString(`
    query MoveOutcomes {
  moveOutcomes {
    operation
    outcome
    count
  }
}
    `) as unknown as TypedDocumentString<MoveOutcomesQuery, MoveOutcomesQueryVariables>;
export const OpenAccountDocument = new TypedDocumentString(`
    mutation OpenAccount($input: OpenAccountInput!) {
  openAccount(input: $input) {
    __typename
    ... on OpenAccountSuccess {
      account {
        ...AccountFields
      }
    }
    ... on DuplicateReplayed {
      ...DuplicateReplayedFields
    }
    ... on IdempotencyKeyReused {
      requestId
      field
      detail
    }
  }
}
    fragment AccountFields on Account {
  id
  currency
  balance
  version
  held
  available
  status
  closedAt
}
fragment HoldFields on Hold {
  id
  accountId
  currency
  amount
  capturedAmount
  status
  expiresAt
}
fragment LedgerEntryFields on LedgerEntry {
  id
  accountId
  kind
  amount
  currency
  balanceAfter
  versionAfter
  counterpartyAccountId
  requestId
  createdAt
  committedAt
  reference
  metadata
  reversalOf
  reversedAmount
}
fragment WorkItemFields on WorkItem {
  id
  kind
  status
  previousStatus
  version
  attempts
  maxAttempts
  idempotencyKey
  group
  payload
  result
  lockedBy
  leaseExpiresAt
  availableAt
  priority
  runAt
  createdAt
  updatedAt
  traceparent
  history {
    from
    to
    version
    at
    workerId
  }
}
fragment ReplayableOutcomeFields on ReplayableOutcome {
  __typename
  ... on WithdrawSuccess {
    account {
      ...AccountFields
    }
    entry {
      ...LedgerEntryFields
    }
  }
  ... on DepositSuccess {
    account {
      ...AccountFields
    }
    entry {
      ...LedgerEntryFields
    }
  }
  ... on TransferSuccess {
    from {
      ...AccountFields
    }
    to {
      ...AccountFields
    }
    debit {
      ...LedgerEntryFields
    }
    credit {
      ...LedgerEntryFields
    }
  }
  ... on InsufficientFunds {
    accountId
    amount
    balance
  }
  ... on OpenAccountSuccess {
    account {
      ...AccountFields
    }
  }
  ... on AuthorizeHoldSuccess {
    hold {
      ...HoldFields
    }
    account {
      ...AccountFields
    }
  }
  ... on CaptureHoldSuccess {
    hold {
      ...HoldFields
    }
    entry {
      ...LedgerEntryFields
    }
    creditEntry {
      ...LedgerEntryFields
    }
    account {
      ...AccountFields
    }
    toAccount {
      ...AccountFields
    }
  }
  ... on VoidHoldSuccess {
    hold {
      ...HoldFields
    }
    account {
      ...AccountFields
    }
  }
  ... on ReverseMoveSuccess {
    originalRequestId
    amount
    originalAmount
    reversedAmount
    entry {
      ...LedgerEntryFields
    }
    creditEntry {
      ...LedgerEntryFields
    }
    account {
      ...AccountFields
    }
    toAccount {
      ...AccountFields
    }
  }
  ... on CloseAccountSuccess {
    account {
      ...AccountFields
    }
    movedAmount
    transferredTo {
      ...AccountFields
    }
    debitEntry {
      ...LedgerEntryFields
    }
    creditEntry {
      ...LedgerEntryFields
    }
  }
  ... on CreateWorkItemSuccess {
    item {
      ...WorkItemFields
    }
  }
  ... on CompleteSuccess {
    item {
      ...WorkItemFields
    }
  }
  ... on ScheduleWorkSuccess {
    schedule {
      ...ScheduleFields
    }
  }
}
fragment DuplicateReplayedFields on DuplicateReplayed {
  requestId
  firstSeenAt
  original {
    ...ReplayableOutcomeFields
  }
}
fragment ScheduleFields on Schedule {
  name
  kind
  cron
  timeZone
  payload
  catchUp
  createdAt
  nextFireAt
  nextFireTimes
  lastFiredPeriod
  lastFiredAt
  lastItemKey
}`) as unknown as TypedDocumentString<OpenAccountMutation, OpenAccountMutationVariables>;
export const PayoutForDocument = new TypedDocumentString(`
    query PayoutFor($entryId: ID!) {
  payoutFor(entryId: $entryId) {
    ...WorkItemFields
  }
}
    fragment WorkItemFields on WorkItem {
  id
  kind
  status
  previousStatus
  version
  attempts
  maxAttempts
  idempotencyKey
  group
  payload
  result
  lockedBy
  leaseExpiresAt
  availableAt
  priority
  runAt
  createdAt
  updatedAt
  traceparent
  history {
    from
    to
    version
    at
    workerId
  }
}`) as unknown as TypedDocumentString<PayoutForQuery, PayoutForQueryVariables>;
export const PayoutProjectionStateDocument = new TypedDocumentString(`
    query PayoutProjectionState {
  payoutProjectionState {
    holder
    leaseActive
    leaseExpiresAt
    leaseVersion
    lagSeconds
    sink
    queueName
  }
}
    `) as unknown as TypedDocumentString<PayoutProjectionStateQuery, PayoutProjectionStateQueryVariables>;
export const RecentWorkItemsDocument = new TypedDocumentString(`
    query RecentWorkItems($first: Int) {
  recentWorkItems(first: $first) {
    ...WorkItemFields
  }
}
    fragment WorkItemFields on WorkItem {
  id
  kind
  status
  previousStatus
  version
  attempts
  maxAttempts
  idempotencyKey
  group
  payload
  result
  lockedBy
  leaseExpiresAt
  availableAt
  priority
  runAt
  createdAt
  updatedAt
  traceparent
  history {
    from
    to
    version
    at
    workerId
  }
}`) as unknown as TypedDocumentString<RecentWorkItemsQuery, RecentWorkItemsQueryVariables>;
export const RequeueWorkItemDocument = new TypedDocumentString(`
    mutation RequeueWorkItem($input: RequeueWorkItemInput!) {
  requeueWorkItem(input: $input) {
    __typename
    ... on RequeueSuccess {
      item {
        ...WorkItemFields
      }
    }
    ... on ConflictLost {
      operation
      reason
      detail
      item {
        ...WorkItemFields
      }
    }
    ... on WorkItemNotFound {
      id
    }
  }
}
    fragment WorkItemFields on WorkItem {
  id
  kind
  status
  previousStatus
  version
  attempts
  maxAttempts
  idempotencyKey
  group
  payload
  result
  lockedBy
  leaseExpiresAt
  availableAt
  priority
  runAt
  createdAt
  updatedAt
  traceparent
  history {
    from
    to
    version
    at
    workerId
  }
}`) as unknown as TypedDocumentString<RequeueWorkItemMutation, RequeueWorkItemMutationVariables>;
export const ReverseMoveDocument = new TypedDocumentString(`
    mutation ReverseMove($input: ReverseMoveInput!) {
  reverseMove(input: $input) {
    __typename
    ... on ReverseMoveSuccess {
      originalRequestId
      amount
      originalAmount
      reversedAmount
      entry {
        ...LedgerEntryFields
      }
      creditEntry {
        ...LedgerEntryFields
      }
      account {
        ...AccountFields
      }
      toAccount {
        ...AccountFields
      }
    }
    ... on MoveNotFound {
      requestId
    }
    ... on NotReversible {
      originalRequestId
      operation
      detail
    }
    ... on ReversalExceedsOriginal {
      originalRequestId
      originalAmount
      reversedAmount
      amount
    }
    ... on InsufficientFunds {
      accountId
      amount
      balance
    }
    ... on AccountClosed {
      accountId
      closedAt
    }
    ... on DuplicateReplayed {
      ...DuplicateReplayedFields
    }
    ... on IdempotencyKeyReused {
      requestId
      field
      detail
    }
    ... on RequestInProgress {
      requestId
      firstSeenAt
    }
    ... on OutcomeUnknown {
      requestId
      firstSeenAt
    }
  }
}
    fragment AccountFields on Account {
  id
  currency
  balance
  version
  held
  available
  status
  closedAt
}
fragment HoldFields on Hold {
  id
  accountId
  currency
  amount
  capturedAmount
  status
  expiresAt
}
fragment LedgerEntryFields on LedgerEntry {
  id
  accountId
  kind
  amount
  currency
  balanceAfter
  versionAfter
  counterpartyAccountId
  requestId
  createdAt
  committedAt
  reference
  metadata
  reversalOf
  reversedAmount
}
fragment WorkItemFields on WorkItem {
  id
  kind
  status
  previousStatus
  version
  attempts
  maxAttempts
  idempotencyKey
  group
  payload
  result
  lockedBy
  leaseExpiresAt
  availableAt
  priority
  runAt
  createdAt
  updatedAt
  traceparent
  history {
    from
    to
    version
    at
    workerId
  }
}
fragment ReplayableOutcomeFields on ReplayableOutcome {
  __typename
  ... on WithdrawSuccess {
    account {
      ...AccountFields
    }
    entry {
      ...LedgerEntryFields
    }
  }
  ... on DepositSuccess {
    account {
      ...AccountFields
    }
    entry {
      ...LedgerEntryFields
    }
  }
  ... on TransferSuccess {
    from {
      ...AccountFields
    }
    to {
      ...AccountFields
    }
    debit {
      ...LedgerEntryFields
    }
    credit {
      ...LedgerEntryFields
    }
  }
  ... on InsufficientFunds {
    accountId
    amount
    balance
  }
  ... on OpenAccountSuccess {
    account {
      ...AccountFields
    }
  }
  ... on AuthorizeHoldSuccess {
    hold {
      ...HoldFields
    }
    account {
      ...AccountFields
    }
  }
  ... on CaptureHoldSuccess {
    hold {
      ...HoldFields
    }
    entry {
      ...LedgerEntryFields
    }
    creditEntry {
      ...LedgerEntryFields
    }
    account {
      ...AccountFields
    }
    toAccount {
      ...AccountFields
    }
  }
  ... on VoidHoldSuccess {
    hold {
      ...HoldFields
    }
    account {
      ...AccountFields
    }
  }
  ... on ReverseMoveSuccess {
    originalRequestId
    amount
    originalAmount
    reversedAmount
    entry {
      ...LedgerEntryFields
    }
    creditEntry {
      ...LedgerEntryFields
    }
    account {
      ...AccountFields
    }
    toAccount {
      ...AccountFields
    }
  }
  ... on CloseAccountSuccess {
    account {
      ...AccountFields
    }
    movedAmount
    transferredTo {
      ...AccountFields
    }
    debitEntry {
      ...LedgerEntryFields
    }
    creditEntry {
      ...LedgerEntryFields
    }
  }
  ... on CreateWorkItemSuccess {
    item {
      ...WorkItemFields
    }
  }
  ... on CompleteSuccess {
    item {
      ...WorkItemFields
    }
  }
  ... on ScheduleWorkSuccess {
    schedule {
      ...ScheduleFields
    }
  }
}
fragment DuplicateReplayedFields on DuplicateReplayed {
  requestId
  firstSeenAt
  original {
    ...ReplayableOutcomeFields
  }
}
fragment ScheduleFields on Schedule {
  name
  kind
  cron
  timeZone
  payload
  catchUp
  createdAt
  nextFireAt
  nextFireTimes
  lastFiredPeriod
  lastFiredAt
  lastItemKey
}`) as unknown as TypedDocumentString<ReverseMoveMutation, ReverseMoveMutationVariables>;
export const RunLedgerAuditDocument = new TypedDocumentString(`
    mutation RunLedgerAudit {
  runLedgerAudit {
    __typename
    ... on LedgerAuditFinished {
      audit {
        ...LedgerAuditFields
      }
    }
    ... on LedgerAuditQueued {
      requestedAt
    }
  }
}
    fragment LedgerAuditFields on LedgerAudit {
  scope
  lastRunAt
  accountsChecked
  entriesChecked
  mismatchCount
  mismatches {
    kind
    subject
    accountId
    expected
    actual
  }
}`) as unknown as TypedDocumentString<RunLedgerAuditMutation, RunLedgerAuditMutationVariables>;
export const ScheduleWorkDocument = new TypedDocumentString(`
    mutation ScheduleWork($input: ScheduleWorkInput!) {
  scheduleWork(input: $input) {
    __typename
    ... on ScheduleWorkSuccess {
      schedule {
        ...ScheduleFields
      }
    }
    ... on InvalidSchedule {
      name
      detail
    }
    ... on DuplicateReplayed {
      ...DuplicateReplayedFields
    }
    ... on IdempotencyKeyReused {
      requestId
      field
      detail
    }
  }
}
    fragment AccountFields on Account {
  id
  currency
  balance
  version
  held
  available
  status
  closedAt
}
fragment HoldFields on Hold {
  id
  accountId
  currency
  amount
  capturedAmount
  status
  expiresAt
}
fragment LedgerEntryFields on LedgerEntry {
  id
  accountId
  kind
  amount
  currency
  balanceAfter
  versionAfter
  counterpartyAccountId
  requestId
  createdAt
  committedAt
  reference
  metadata
  reversalOf
  reversedAmount
}
fragment WorkItemFields on WorkItem {
  id
  kind
  status
  previousStatus
  version
  attempts
  maxAttempts
  idempotencyKey
  group
  payload
  result
  lockedBy
  leaseExpiresAt
  availableAt
  priority
  runAt
  createdAt
  updatedAt
  traceparent
  history {
    from
    to
    version
    at
    workerId
  }
}
fragment ReplayableOutcomeFields on ReplayableOutcome {
  __typename
  ... on WithdrawSuccess {
    account {
      ...AccountFields
    }
    entry {
      ...LedgerEntryFields
    }
  }
  ... on DepositSuccess {
    account {
      ...AccountFields
    }
    entry {
      ...LedgerEntryFields
    }
  }
  ... on TransferSuccess {
    from {
      ...AccountFields
    }
    to {
      ...AccountFields
    }
    debit {
      ...LedgerEntryFields
    }
    credit {
      ...LedgerEntryFields
    }
  }
  ... on InsufficientFunds {
    accountId
    amount
    balance
  }
  ... on OpenAccountSuccess {
    account {
      ...AccountFields
    }
  }
  ... on AuthorizeHoldSuccess {
    hold {
      ...HoldFields
    }
    account {
      ...AccountFields
    }
  }
  ... on CaptureHoldSuccess {
    hold {
      ...HoldFields
    }
    entry {
      ...LedgerEntryFields
    }
    creditEntry {
      ...LedgerEntryFields
    }
    account {
      ...AccountFields
    }
    toAccount {
      ...AccountFields
    }
  }
  ... on VoidHoldSuccess {
    hold {
      ...HoldFields
    }
    account {
      ...AccountFields
    }
  }
  ... on ReverseMoveSuccess {
    originalRequestId
    amount
    originalAmount
    reversedAmount
    entry {
      ...LedgerEntryFields
    }
    creditEntry {
      ...LedgerEntryFields
    }
    account {
      ...AccountFields
    }
    toAccount {
      ...AccountFields
    }
  }
  ... on CloseAccountSuccess {
    account {
      ...AccountFields
    }
    movedAmount
    transferredTo {
      ...AccountFields
    }
    debitEntry {
      ...LedgerEntryFields
    }
    creditEntry {
      ...LedgerEntryFields
    }
  }
  ... on CreateWorkItemSuccess {
    item {
      ...WorkItemFields
    }
  }
  ... on CompleteSuccess {
    item {
      ...WorkItemFields
    }
  }
  ... on ScheduleWorkSuccess {
    schedule {
      ...ScheduleFields
    }
  }
}
fragment DuplicateReplayedFields on DuplicateReplayed {
  requestId
  firstSeenAt
  original {
    ...ReplayableOutcomeFields
  }
}
fragment ScheduleFields on Schedule {
  name
  kind
  cron
  timeZone
  payload
  catchUp
  createdAt
  nextFireAt
  nextFireTimes
  lastFiredPeriod
  lastFiredAt
  lastItemKey
}`) as unknown as TypedDocumentString<ScheduleWorkMutation, ScheduleWorkMutationVariables>;
export const SchedulesDocument = new TypedDocumentString(`
    query Schedules($first: Int) {
  schedules(first: $first) {
    ...ScheduleFields
  }
}
    fragment ScheduleFields on Schedule {
  name
  kind
  cron
  timeZone
  payload
  catchUp
  createdAt
  nextFireAt
  nextFireTimes
  lastFiredPeriod
  lastFiredAt
  lastItemKey
}`) as unknown as TypedDocumentString<SchedulesQuery, SchedulesQueryVariables>;
export const SubmitMovesDocument = new TypedDocumentString(`
    mutation SubmitMoves($input: SubmitMovesInput!) {
  submitMoves(input: $input) {
    __typename
    ... on SubmitMovesSuccess {
      results {
        __typename
        ... on DepositSuccess {
          account {
            ...AccountFields
          }
          entry {
            ...LedgerEntryFields
          }
        }
        ... on WithdrawSuccess {
          account {
            ...AccountFields
          }
          entry {
            ...LedgerEntryFields
          }
        }
        ... on TransferSuccess {
          from {
            ...AccountFields
          }
          to {
            ...AccountFields
          }
          debit {
            ...LedgerEntryFields
          }
          credit {
            ...LedgerEntryFields
          }
        }
        ... on InsufficientFunds {
          accountId
          amount
          balance
        }
        ... on BalanceLimitExceeded {
          accountId
          amount
          balance
        }
        ... on AccountNotFound {
          accountId
        }
        ... on AccountClosed {
          accountId
          closedAt
        }
        ... on CurrencyMismatch {
          fromAccountId
          fromCurrency
          toAccountId
          toCurrency
        }
        ... on DuplicateReplayed {
          ...DuplicateReplayedFields
        }
        ... on IdempotencyKeyReused {
          requestId
        }
        ... on RequestInProgress {
          requestId
          firstSeenAt
        }
        ... on OutcomeUnknown {
          requestId
          firstSeenAt
        }
        ... on LinkedMoveFailed {
          requestId
        }
      }
    }
    ... on BatchTooLarge {
      moves
      movesMax
    }
  }
}
    fragment AccountFields on Account {
  id
  currency
  balance
  version
  held
  available
  status
  closedAt
}
fragment HoldFields on Hold {
  id
  accountId
  currency
  amount
  capturedAmount
  status
  expiresAt
}
fragment LedgerEntryFields on LedgerEntry {
  id
  accountId
  kind
  amount
  currency
  balanceAfter
  versionAfter
  counterpartyAccountId
  requestId
  createdAt
  committedAt
  reference
  metadata
  reversalOf
  reversedAmount
}
fragment WorkItemFields on WorkItem {
  id
  kind
  status
  previousStatus
  version
  attempts
  maxAttempts
  idempotencyKey
  group
  payload
  result
  lockedBy
  leaseExpiresAt
  availableAt
  priority
  runAt
  createdAt
  updatedAt
  traceparent
  history {
    from
    to
    version
    at
    workerId
  }
}
fragment ReplayableOutcomeFields on ReplayableOutcome {
  __typename
  ... on WithdrawSuccess {
    account {
      ...AccountFields
    }
    entry {
      ...LedgerEntryFields
    }
  }
  ... on DepositSuccess {
    account {
      ...AccountFields
    }
    entry {
      ...LedgerEntryFields
    }
  }
  ... on TransferSuccess {
    from {
      ...AccountFields
    }
    to {
      ...AccountFields
    }
    debit {
      ...LedgerEntryFields
    }
    credit {
      ...LedgerEntryFields
    }
  }
  ... on InsufficientFunds {
    accountId
    amount
    balance
  }
  ... on OpenAccountSuccess {
    account {
      ...AccountFields
    }
  }
  ... on AuthorizeHoldSuccess {
    hold {
      ...HoldFields
    }
    account {
      ...AccountFields
    }
  }
  ... on CaptureHoldSuccess {
    hold {
      ...HoldFields
    }
    entry {
      ...LedgerEntryFields
    }
    creditEntry {
      ...LedgerEntryFields
    }
    account {
      ...AccountFields
    }
    toAccount {
      ...AccountFields
    }
  }
  ... on VoidHoldSuccess {
    hold {
      ...HoldFields
    }
    account {
      ...AccountFields
    }
  }
  ... on ReverseMoveSuccess {
    originalRequestId
    amount
    originalAmount
    reversedAmount
    entry {
      ...LedgerEntryFields
    }
    creditEntry {
      ...LedgerEntryFields
    }
    account {
      ...AccountFields
    }
    toAccount {
      ...AccountFields
    }
  }
  ... on CloseAccountSuccess {
    account {
      ...AccountFields
    }
    movedAmount
    transferredTo {
      ...AccountFields
    }
    debitEntry {
      ...LedgerEntryFields
    }
    creditEntry {
      ...LedgerEntryFields
    }
  }
  ... on CreateWorkItemSuccess {
    item {
      ...WorkItemFields
    }
  }
  ... on CompleteSuccess {
    item {
      ...WorkItemFields
    }
  }
  ... on ScheduleWorkSuccess {
    schedule {
      ...ScheduleFields
    }
  }
}
fragment DuplicateReplayedFields on DuplicateReplayed {
  requestId
  firstSeenAt
  original {
    ...ReplayableOutcomeFields
  }
}
fragment ScheduleFields on Schedule {
  name
  kind
  cron
  timeZone
  payload
  catchUp
  createdAt
  nextFireAt
  nextFireTimes
  lastFiredPeriod
  lastFiredAt
  lastItemKey
}`) as unknown as TypedDocumentString<SubmitMovesMutation, SubmitMovesMutationVariables>;
export const TransferDocument = new TypedDocumentString(`
    mutation Transfer($input: TransferInput!) {
  transfer(input: $input) {
    __typename
    ... on TransferSuccess {
      from {
        ...AccountFields
      }
      to {
        ...AccountFields
      }
      debit {
        ...LedgerEntryFields
      }
      credit {
        ...LedgerEntryFields
      }
    }
    ... on InsufficientFunds {
      accountId
      amount
      balance
    }
    ... on AccountNotFound {
      accountId
    }
    ... on AccountClosed {
      accountId
      closedAt
    }
    ... on CurrencyMismatch {
      fromAccountId
      fromCurrency
      toAccountId
      toCurrency
    }
    ... on DuplicateReplayed {
      ...DuplicateReplayedFields
    }
    ... on IdempotencyKeyReused {
      requestId
      field
      detail
    }
    ... on RequestInProgress {
      requestId
      firstSeenAt
    }
    ... on OutcomeUnknown {
      requestId
      firstSeenAt
    }
    ... on BalanceLimitExceeded {
      accountId
      amount
      balance
    }
  }
}
    fragment AccountFields on Account {
  id
  currency
  balance
  version
  held
  available
  status
  closedAt
}
fragment HoldFields on Hold {
  id
  accountId
  currency
  amount
  capturedAmount
  status
  expiresAt
}
fragment LedgerEntryFields on LedgerEntry {
  id
  accountId
  kind
  amount
  currency
  balanceAfter
  versionAfter
  counterpartyAccountId
  requestId
  createdAt
  committedAt
  reference
  metadata
  reversalOf
  reversedAmount
}
fragment WorkItemFields on WorkItem {
  id
  kind
  status
  previousStatus
  version
  attempts
  maxAttempts
  idempotencyKey
  group
  payload
  result
  lockedBy
  leaseExpiresAt
  availableAt
  priority
  runAt
  createdAt
  updatedAt
  traceparent
  history {
    from
    to
    version
    at
    workerId
  }
}
fragment ReplayableOutcomeFields on ReplayableOutcome {
  __typename
  ... on WithdrawSuccess {
    account {
      ...AccountFields
    }
    entry {
      ...LedgerEntryFields
    }
  }
  ... on DepositSuccess {
    account {
      ...AccountFields
    }
    entry {
      ...LedgerEntryFields
    }
  }
  ... on TransferSuccess {
    from {
      ...AccountFields
    }
    to {
      ...AccountFields
    }
    debit {
      ...LedgerEntryFields
    }
    credit {
      ...LedgerEntryFields
    }
  }
  ... on InsufficientFunds {
    accountId
    amount
    balance
  }
  ... on OpenAccountSuccess {
    account {
      ...AccountFields
    }
  }
  ... on AuthorizeHoldSuccess {
    hold {
      ...HoldFields
    }
    account {
      ...AccountFields
    }
  }
  ... on CaptureHoldSuccess {
    hold {
      ...HoldFields
    }
    entry {
      ...LedgerEntryFields
    }
    creditEntry {
      ...LedgerEntryFields
    }
    account {
      ...AccountFields
    }
    toAccount {
      ...AccountFields
    }
  }
  ... on VoidHoldSuccess {
    hold {
      ...HoldFields
    }
    account {
      ...AccountFields
    }
  }
  ... on ReverseMoveSuccess {
    originalRequestId
    amount
    originalAmount
    reversedAmount
    entry {
      ...LedgerEntryFields
    }
    creditEntry {
      ...LedgerEntryFields
    }
    account {
      ...AccountFields
    }
    toAccount {
      ...AccountFields
    }
  }
  ... on CloseAccountSuccess {
    account {
      ...AccountFields
    }
    movedAmount
    transferredTo {
      ...AccountFields
    }
    debitEntry {
      ...LedgerEntryFields
    }
    creditEntry {
      ...LedgerEntryFields
    }
  }
  ... on CreateWorkItemSuccess {
    item {
      ...WorkItemFields
    }
  }
  ... on CompleteSuccess {
    item {
      ...WorkItemFields
    }
  }
  ... on ScheduleWorkSuccess {
    schedule {
      ...ScheduleFields
    }
  }
}
fragment DuplicateReplayedFields on DuplicateReplayed {
  requestId
  firstSeenAt
  original {
    ...ReplayableOutcomeFields
  }
}
fragment ScheduleFields on Schedule {
  name
  kind
  cron
  timeZone
  payload
  catchUp
  createdAt
  nextFireAt
  nextFireTimes
  lastFiredPeriod
  lastFiredAt
  lastItemKey
}`) as unknown as TypedDocumentString<TransferMutation, TransferMutationVariables>;
export const UnscheduleWorkDocument = new TypedDocumentString(`
    mutation UnscheduleWork($input: UnscheduleWorkInput!) {
  unscheduleWork(input: $input) {
    __typename
    ... on UnscheduleWorkSuccess {
      schedule {
        ...ScheduleFields
      }
    }
    ... on ScheduleNotFound {
      name
    }
  }
}
    fragment ScheduleFields on Schedule {
  name
  kind
  cron
  timeZone
  payload
  catchUp
  createdAt
  nextFireAt
  nextFireTimes
  lastFiredPeriod
  lastFiredAt
  lastItemKey
}`) as unknown as TypedDocumentString<UnscheduleWorkMutation, UnscheduleWorkMutationVariables>;
export const ViewerDocument = new TypedDocumentString(`
    query Viewer {
  viewer {
    role
    maySubscribe
    mayRequeue
    subscriptions
  }
}
    `) as unknown as TypedDocumentString<ViewerQuery, ViewerQueryVariables>;
export const VoidHoldDocument = new TypedDocumentString(`
    mutation VoidHold($input: VoidHoldInput!) {
  voidHold(input: $input) {
    __typename
    ... on VoidHoldSuccess {
      hold {
        ...HoldFields
      }
      account {
        ...AccountFields
      }
    }
    ... on HoldNotPending {
      holdId
      status
    }
    ... on HoldNotFound {
      holdId
    }
    ... on DuplicateReplayed {
      ...DuplicateReplayedFields
    }
    ... on IdempotencyKeyReused {
      requestId
      field
      detail
    }
    ... on RequestInProgress {
      requestId
      firstSeenAt
    }
    ... on OutcomeUnknown {
      requestId
      firstSeenAt
    }
  }
}
    fragment AccountFields on Account {
  id
  currency
  balance
  version
  held
  available
  status
  closedAt
}
fragment HoldFields on Hold {
  id
  accountId
  currency
  amount
  capturedAmount
  status
  expiresAt
}
fragment LedgerEntryFields on LedgerEntry {
  id
  accountId
  kind
  amount
  currency
  balanceAfter
  versionAfter
  counterpartyAccountId
  requestId
  createdAt
  committedAt
  reference
  metadata
  reversalOf
  reversedAmount
}
fragment WorkItemFields on WorkItem {
  id
  kind
  status
  previousStatus
  version
  attempts
  maxAttempts
  idempotencyKey
  group
  payload
  result
  lockedBy
  leaseExpiresAt
  availableAt
  priority
  runAt
  createdAt
  updatedAt
  traceparent
  history {
    from
    to
    version
    at
    workerId
  }
}
fragment ReplayableOutcomeFields on ReplayableOutcome {
  __typename
  ... on WithdrawSuccess {
    account {
      ...AccountFields
    }
    entry {
      ...LedgerEntryFields
    }
  }
  ... on DepositSuccess {
    account {
      ...AccountFields
    }
    entry {
      ...LedgerEntryFields
    }
  }
  ... on TransferSuccess {
    from {
      ...AccountFields
    }
    to {
      ...AccountFields
    }
    debit {
      ...LedgerEntryFields
    }
    credit {
      ...LedgerEntryFields
    }
  }
  ... on InsufficientFunds {
    accountId
    amount
    balance
  }
  ... on OpenAccountSuccess {
    account {
      ...AccountFields
    }
  }
  ... on AuthorizeHoldSuccess {
    hold {
      ...HoldFields
    }
    account {
      ...AccountFields
    }
  }
  ... on CaptureHoldSuccess {
    hold {
      ...HoldFields
    }
    entry {
      ...LedgerEntryFields
    }
    creditEntry {
      ...LedgerEntryFields
    }
    account {
      ...AccountFields
    }
    toAccount {
      ...AccountFields
    }
  }
  ... on VoidHoldSuccess {
    hold {
      ...HoldFields
    }
    account {
      ...AccountFields
    }
  }
  ... on ReverseMoveSuccess {
    originalRequestId
    amount
    originalAmount
    reversedAmount
    entry {
      ...LedgerEntryFields
    }
    creditEntry {
      ...LedgerEntryFields
    }
    account {
      ...AccountFields
    }
    toAccount {
      ...AccountFields
    }
  }
  ... on CloseAccountSuccess {
    account {
      ...AccountFields
    }
    movedAmount
    transferredTo {
      ...AccountFields
    }
    debitEntry {
      ...LedgerEntryFields
    }
    creditEntry {
      ...LedgerEntryFields
    }
  }
  ... on CreateWorkItemSuccess {
    item {
      ...WorkItemFields
    }
  }
  ... on CompleteSuccess {
    item {
      ...WorkItemFields
    }
  }
  ... on ScheduleWorkSuccess {
    schedule {
      ...ScheduleFields
    }
  }
}
fragment DuplicateReplayedFields on DuplicateReplayed {
  requestId
  firstSeenAt
  original {
    ...ReplayableOutcomeFields
  }
}
fragment ScheduleFields on Schedule {
  name
  kind
  cron
  timeZone
  payload
  catchUp
  createdAt
  nextFireAt
  nextFireTimes
  lastFiredPeriod
  lastFiredAt
  lastItemKey
}`) as unknown as TypedDocumentString<VoidHoldMutation, VoidHoldMutationVariables>;
export const WithdrawDocument = new TypedDocumentString(`
    mutation Withdraw($input: WithdrawInput!) {
  withdraw(input: $input) {
    __typename
    ... on WithdrawSuccess {
      account {
        ...AccountFields
      }
      entry {
        ...LedgerEntryFields
      }
    }
    ... on InsufficientFunds {
      accountId
      amount
      balance
    }
    ... on AccountNotFound {
      accountId
    }
    ... on AccountClosed {
      accountId
      closedAt
    }
    ... on DuplicateReplayed {
      ...DuplicateReplayedFields
    }
    ... on IdempotencyKeyReused {
      requestId
      field
      detail
    }
    ... on RequestInProgress {
      requestId
      firstSeenAt
    }
    ... on OutcomeUnknown {
      requestId
      firstSeenAt
    }
  }
}
    fragment AccountFields on Account {
  id
  currency
  balance
  version
  held
  available
  status
  closedAt
}
fragment HoldFields on Hold {
  id
  accountId
  currency
  amount
  capturedAmount
  status
  expiresAt
}
fragment LedgerEntryFields on LedgerEntry {
  id
  accountId
  kind
  amount
  currency
  balanceAfter
  versionAfter
  counterpartyAccountId
  requestId
  createdAt
  committedAt
  reference
  metadata
  reversalOf
  reversedAmount
}
fragment WorkItemFields on WorkItem {
  id
  kind
  status
  previousStatus
  version
  attempts
  maxAttempts
  idempotencyKey
  group
  payload
  result
  lockedBy
  leaseExpiresAt
  availableAt
  priority
  runAt
  createdAt
  updatedAt
  traceparent
  history {
    from
    to
    version
    at
    workerId
  }
}
fragment ReplayableOutcomeFields on ReplayableOutcome {
  __typename
  ... on WithdrawSuccess {
    account {
      ...AccountFields
    }
    entry {
      ...LedgerEntryFields
    }
  }
  ... on DepositSuccess {
    account {
      ...AccountFields
    }
    entry {
      ...LedgerEntryFields
    }
  }
  ... on TransferSuccess {
    from {
      ...AccountFields
    }
    to {
      ...AccountFields
    }
    debit {
      ...LedgerEntryFields
    }
    credit {
      ...LedgerEntryFields
    }
  }
  ... on InsufficientFunds {
    accountId
    amount
    balance
  }
  ... on OpenAccountSuccess {
    account {
      ...AccountFields
    }
  }
  ... on AuthorizeHoldSuccess {
    hold {
      ...HoldFields
    }
    account {
      ...AccountFields
    }
  }
  ... on CaptureHoldSuccess {
    hold {
      ...HoldFields
    }
    entry {
      ...LedgerEntryFields
    }
    creditEntry {
      ...LedgerEntryFields
    }
    account {
      ...AccountFields
    }
    toAccount {
      ...AccountFields
    }
  }
  ... on VoidHoldSuccess {
    hold {
      ...HoldFields
    }
    account {
      ...AccountFields
    }
  }
  ... on ReverseMoveSuccess {
    originalRequestId
    amount
    originalAmount
    reversedAmount
    entry {
      ...LedgerEntryFields
    }
    creditEntry {
      ...LedgerEntryFields
    }
    account {
      ...AccountFields
    }
    toAccount {
      ...AccountFields
    }
  }
  ... on CloseAccountSuccess {
    account {
      ...AccountFields
    }
    movedAmount
    transferredTo {
      ...AccountFields
    }
    debitEntry {
      ...LedgerEntryFields
    }
    creditEntry {
      ...LedgerEntryFields
    }
  }
  ... on CreateWorkItemSuccess {
    item {
      ...WorkItemFields
    }
  }
  ... on CompleteSuccess {
    item {
      ...WorkItemFields
    }
  }
  ... on ScheduleWorkSuccess {
    schedule {
      ...ScheduleFields
    }
  }
}
fragment DuplicateReplayedFields on DuplicateReplayed {
  requestId
  firstSeenAt
  original {
    ...ReplayableOutcomeFields
  }
}
fragment ScheduleFields on Schedule {
  name
  kind
  cron
  timeZone
  payload
  catchUp
  createdAt
  nextFireAt
  nextFireTimes
  lastFiredPeriod
  lastFiredAt
  lastItemKey
}`) as unknown as TypedDocumentString<WithdrawMutation, WithdrawMutationVariables>;
export const WorkItemDocument = new TypedDocumentString(`
    query WorkItem($id: ID!) {
  workItem(id: $id) {
    ...WorkItemFields
  }
}
    fragment WorkItemFields on WorkItem {
  id
  kind
  status
  previousStatus
  version
  attempts
  maxAttempts
  idempotencyKey
  group
  payload
  result
  lockedBy
  leaseExpiresAt
  availableAt
  priority
  runAt
  createdAt
  updatedAt
  traceparent
  history {
    from
    to
    version
    at
    workerId
  }
}`) as unknown as TypedDocumentString<WorkItemQuery, WorkItemQueryVariables>;
export const WorkItemByKeyDocument = new TypedDocumentString(`
    query WorkItemByKey($idempotencyKey: String!) {
  workItemByKey(idempotencyKey: $idempotencyKey) {
    ...WorkItemFields
  }
}
    fragment WorkItemFields on WorkItem {
  id
  kind
  status
  previousStatus
  version
  attempts
  maxAttempts
  idempotencyKey
  group
  payload
  result
  lockedBy
  leaseExpiresAt
  availableAt
  priority
  runAt
  createdAt
  updatedAt
  traceparent
  history {
    from
    to
    version
    at
    workerId
  }
}`) as unknown as TypedDocumentString<WorkItemByKeyQuery, WorkItemByKeyQueryVariables>;
export const WorkItemStatusChangedDocument = new TypedDocumentString(`
    subscription WorkItemStatusChanged($after: String, $id: ID, $kinds: [String!]) {
  workItemStatusChanged(after: $after, id: $id, kinds: $kinds) {
    __typename
    ... on WorkItemStatusChanged {
      cursor
      itemId
      kind
      status
      previousStatus
      version
      at
    }
    ... on ResyncRequired {
      cursor
      reason
    }
  }
}
    `) as unknown as TypedDocumentString<WorkItemStatusChangedSubscription, WorkItemStatusChangedSubscriptionVariables>;
export const WorkItemsDocument = new TypedDocumentString(`
    query WorkItems($status: WorkItemStatus, $kind: String, $createdFrom: DateTime, $createdTo: DateTime, $key: String, $after: String, $first: Int) {
  workItems(
    status: $status
    kind: $kind
    createdFrom: $createdFrom
    createdTo: $createdTo
    key: $key
    after: $after
    first: $first
  ) {
    items {
      ...WorkItemFields
    }
    endCursor
    hasNextPage
    totalCount
    totalCountCapped
  }
}
    fragment WorkItemFields on WorkItem {
  id
  kind
  status
  previousStatus
  version
  attempts
  maxAttempts
  idempotencyKey
  group
  payload
  result
  lockedBy
  leaseExpiresAt
  availableAt
  priority
  runAt
  createdAt
  updatedAt
  traceparent
  history {
    from
    to
    version
    at
    workerId
  }
}`) as unknown as TypedDocumentString<WorkItemsQuery, WorkItemsQueryVariables>;
export const WorkQueueStatsDocument = new TypedDocumentString(`
    query WorkQueueStats {
  workQueueStats {
    conflictsSinceStart
    oldestPendingAgeSeconds
    counts {
      kind
      status
      count
      capped
    }
    kinds {
      kind
      waiting
      delayed
      running
      capped
      limit
    }
    groups {
      kind
      group
      waiting
      running
      capped
      limit
    }
  }
}
    `) as unknown as TypedDocumentString<WorkQueueStatsQuery, WorkQueueStatsQueryVariables>;