import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
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
  /** Integer minor units */
  balance: Scalars['SafeInt']['output'];
  /** ISO 4217 code, fixed when the account is opened */
  currency: Scalars['String']['output'];
  /** Newest first; at most 100 per page */
  entries: LedgerEntryPage;
  id: Scalars['ID']['output'];
  /** Decisions recorded on the account (each applied or refused movement adds one) */
  version: Scalars['SafeInt']['output'];
};


/** An account; `entries` is its journal, newest first */
export type AccountEntriesArgs = {
  after: InputMaybe<Scalars['String']['input']>;
  first: InputMaybe<Scalars['Int']['input']>;
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

export type AccountBalanceEvent = AccountBalanceChanged | ResyncRequired;

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

/** The item is yours until leaseExpiresAt; present its version to heartbeat and complete */
export type ClaimSuccess = {
  __typename?: 'ClaimSuccess';
  item: WorkItem;
};

export type ClaimWorkItemInput = {
  /** With `id`: only at this version */
  expectedVersion: InputMaybe<Scalars['Int']['input']>;
  /** Claim this item if it is claimable; without: the oldest available of `kinds` */
  id: InputMaybe<Scalars['ID']['input']>;
  kinds: InputMaybe<Array<Scalars['String']['input']>>;
  leaseSeconds: InputMaybe<Scalars['Int']['input']>;
  workerId: Scalars['String']['input'];
};

export type ClaimWorkItemResult = ClaimSuccess | ConflictLost | NothingToClaim | WorkItemNotFound;

export type CompleteSuccess = {
  __typename?: 'CompleteSuccess';
  item: WorkItem;
};

export type CompleteWorkItemInput = {
  id: Scalars['ID']['input'];
  outcome: CompletionOutcome;
  result: InputMaybe<Scalars['JSON']['input']>;
  /** The version your claim returned (the fencing token) */
  version: Scalars['Int']['input'];
  workerId: Scalars['String']['input'];
};

export type CompleteWorkItemResult = CompleteSuccess | ConflictLost | DuplicateReplayed | WorkItemNotFound;

/** DONE is terminal; FAILED retries or dead-letters */
export type CompletionOutcome =
  | 'DONE'
  | 'FAILED';

/** The item was not in the state you expected (status, version or lease holder): someone else got there first. Nothing was written; move on. */
export type ConflictLost = {
  __typename?: 'ConflictLost';
  /** The item as it is now */
  item: WorkItem;
  /** claim, heartbeat, complete or requeue */
  operation: Scalars['String']['output'];
};

export type CreateWorkItemInput = {
  /** Your key: the same key and parameters replay the first answer */
  idempotencyKey: Scalars['String']['input'];
  kind: Scalars['String']['input'];
  maxAttempts: InputMaybe<Scalars['Int']['input']>;
  payload: InputMaybe<Scalars['JSON']['input']>;
};

export type CreateWorkItemResult = CreateWorkItemSuccess | DuplicateReplayed | IdempotencyKeyReused;

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
  /** Positive integer minor units */
  amount: Scalars['SafeInt']['input'];
  /** Your key for this movement: the same key and parameters replay the first answer */
  requestId: Scalars['String']['input'];
};

export type DepositResult = AccountNotFound | DepositSuccess | DuplicateReplayed | IdempotencyKeyReused | RequestInProgress;

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
  workerId: Scalars['String']['input'];
};

export type HeartbeatWorkItemResult = ConflictLost | HeartbeatSuccess | WorkItemNotFound;

/** The key was already used with different parameters: refused, nothing was done */
export type IdempotencyKeyReused = {
  __typename?: 'IdempotencyKeyReused';
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
  /** The other account of a transfer, as it is now */
  counterparty: Maybe<Account>;
  /** The other account of a transfer */
  counterpartyAccountId: Maybe<Scalars['ID']['output']>;
  createdAt: Scalars['DateTime']['output'];
  currency: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  kind: LedgerEntryKind;
  /** The caller key of the request that wrote it */
  requestId: Scalars['String']['output'];
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

export type LedgerEntryEvent = LedgerEntryAdded | ResyncRequired;

/** Which way the money of an entry went */
export type LedgerEntryKind =
  | 'deposit'
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
  /** The sum of the currency's account balances now (not as of `to`) */
  moneyHeld: Scalars['SafeInt']['output'];
  /** Money moved between accounts, each transfer counted once */
  transfers: MoneyFlow;
  withdrawals: MoneyFlow;
};

export type MoneyFlow = {
  __typename?: 'MoneyFlow';
  /** Integer minor units */
  amount: Scalars['SafeInt']['output'];
  count: Scalars['Int']['output'];
};

export type Mutation = {
  __typename?: 'Mutation';
  claimWorkItem: ClaimWorkItemResult;
  completeWorkItem: CompleteWorkItemResult;
  createWorkItem: CreateWorkItemResult;
  deposit: DepositResult;
  heartbeatWorkItem: HeartbeatWorkItemResult;
  openAccount: OpenAccountResult;
  requeueWorkItem: RequeueWorkItemResult;
  transfer: TransferResult;
  withdraw: WithdrawResult;
};


export type MutationClaimWorkItemArgs = {
  input: ClaimWorkItemInput;
};


export type MutationCompleteWorkItemArgs = {
  input: CompleteWorkItemInput;
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


export type MutationOpenAccountArgs = {
  input: OpenAccountInput;
};


export type MutationRequeueWorkItemArgs = {
  input: RequeueWorkItemInput;
};


export type MutationTransferArgs = {
  input: TransferInput;
};


export type MutationWithdrawArgs = {
  input: WithdrawInput;
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

export type OpenAccountResult = DuplicateReplayed | IdempotencyKeyReused | OpenAccountSuccess;

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
};

export type Query = {
  __typename?: 'Query';
  account: Maybe<Account>;
  /** In id order; at most 100 per page */
  accounts: AccountPage;
  /** The engine in use and the replica-set status */
  health: Health;
  /** Entries across accounts, newest first, filtered by account, kinds, currency and createdAt in [from, to); at most 100 per page */
  ledgerEntries: LedgerEntryList;
  /** The entry a request wrote; a transfer's debit leg */
  ledgerEntry: Maybe<LedgerEntry>;
  /** A money request by its caller key, whatever its state; null when never seen */
  ledgerRequest: Maybe<LedgerRequest>;
  /** Money held in a currency now, and its deposits, withdrawals and transfers with createdAt in [from, to) */
  ledgerTotals: LedgerTotals;
  /** The PAYOUT item of a withdrawal entry; null until the projection has made it */
  payoutFor: Maybe<WorkItem>;
  /** The payout projection's lease holder and lag */
  payoutProjectionState: PayoutProjectionState;
  /** The caller's role and what it may do */
  viewer: Viewer;
  workItem: Maybe<WorkItem>;
  /** The item created with this idempotency key (as the client sent it) */
  workItemByKey: Maybe<WorkItem>;
  /** Oldest first, filtered by status, kind, createdAt in [createdFrom, createdTo) and client key; at most 100 per page */
  workItems: WorkItemPage;
  workQueueStats: WorkQueueStats;
};


export type QueryAccountArgs = {
  id: Scalars['ID']['input'];
};


export type QueryAccountsArgs = {
  after: InputMaybe<Scalars['String']['input']>;
  first: InputMaybe<Scalars['Int']['input']>;
};


export type QueryLedgerEntriesArgs = {
  accountId: InputMaybe<Scalars['ID']['input']>;
  after: InputMaybe<Scalars['String']['input']>;
  currency: InputMaybe<Scalars['String']['input']>;
  first: InputMaybe<Scalars['Int']['input']>;
  from: InputMaybe<Scalars['DateTime']['input']>;
  kinds: InputMaybe<Array<LedgerEntryKind>>;
  to: InputMaybe<Scalars['DateTime']['input']>;
};


export type QueryLedgerEntryArgs = {
  requestId: Scalars['String']['input'];
};


export type QueryLedgerRequestArgs = {
  requestId: Scalars['String']['input'];
};


export type QueryLedgerTotalsArgs = {
  currency: Scalars['String']['input'];
  from: InputMaybe<Scalars['DateTime']['input']>;
  to: InputMaybe<Scalars['DateTime']['input']>;
};


export type QueryPayoutForArgs = {
  entryId: Scalars['ID']['input'];
};


export type QueryWorkItemArgs = {
  id: Scalars['ID']['input'];
};


export type QueryWorkItemByKeyArgs = {
  idempotencyKey: Scalars['String']['input'];
};


export type QueryWorkItemsArgs = {
  after: InputMaybe<Scalars['String']['input']>;
  createdFrom: InputMaybe<Scalars['DateTime']['input']>;
  createdTo: InputMaybe<Scalars['DateTime']['input']>;
  first?: Scalars['Int']['input'];
  key: InputMaybe<Scalars['String']['input']>;
  kind: InputMaybe<Scalars['String']['input']>;
  status: InputMaybe<WorkItemStatus>;
};

/** An outcome that is final for its idempotency key and is repeated on replay */
export type ReplayableOutcome = CompleteSuccess | CreateWorkItemSuccess | DepositSuccess | InsufficientFunds | OpenAccountSuccess | TransferSuccess | WithdrawSuccess;

/** The replica set the API writes to, as the server reports it */
export type ReplicaSetStatus = {
  __typename?: 'ReplicaSetStatus';
  members: Scalars['Int']['output'];
  name: Scalars['String']['output'];
  /** host:port of the primary, if one is elected */
  primary: Maybe<Scalars['String']['output']>;
};

/** The first attempt with this requestId is still running; ask again with the same key */
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
  /** The version you looked at */
  version: Scalars['Int']['input'];
};

export type RequeueWorkItemResult = ConflictLost | RequeueSuccess | WorkItemNotFound;

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

export type Subscription = {
  __typename?: 'Subscription';
  /** Every balance change of the given accounts (at most 100), in version order per account; `after` resumes from a cursor */
  accountBalanceChanged: AccountBalanceEvent;
  /** Every journal entry written (of one account, or of all), in version order per account; `after` resumes from a cursor */
  ledgerEntryAdded: LedgerEntryEvent;
  /** Every committed transition of matching work items, in version order per item; `after` resumes from a cursor */
  workItemStatusChanged: WorkItemStatusEvent;
};


export type SubscriptionAccountBalanceChangedArgs = {
  accountIds: Array<Scalars['ID']['input']>;
  after: InputMaybe<Scalars['String']['input']>;
};


export type SubscriptionLedgerEntryAddedArgs = {
  accountId: InputMaybe<Scalars['ID']['input']>;
  after: InputMaybe<Scalars['String']['input']>;
};


export type SubscriptionWorkItemStatusChangedArgs = {
  after: InputMaybe<Scalars['String']['input']>;
  id: InputMaybe<Scalars['ID']['input']>;
  kinds: InputMaybe<Array<Scalars['String']['input']>>;
};

export type TransferInput = {
  /** Positive integer minor units */
  amount: Scalars['SafeInt']['input'];
  fromAccountId: Scalars['String']['input'];
  /** Your key for this movement: the same key and parameters replay the first answer */
  requestId: Scalars['String']['input'];
  toAccountId: Scalars['String']['input'];
};

export type TransferResult = AccountNotFound | CurrencyMismatch | DuplicateReplayed | IdempotencyKeyReused | InsufficientFunds | OutcomeUnknown | RequestInProgress | TransferSuccess;

/** Both legs of a transfer, each with its account right after it */
export type TransferSuccess = {
  __typename?: 'TransferSuccess';
  credit: LedgerEntry;
  debit: LedgerEntry;
  from: Account;
  to: Account;
};

export type Viewer = {
  __typename?: 'Viewer';
  /** Whether this key may requeue FAILED work items */
  mayRequeue: Scalars['Boolean']['output'];
  /** Whether this key may open subscriptions */
  maySubscribe: Scalars['Boolean']['output'];
  /** dashboard, ops, worker, service or admin */
  role: Scalars['String']['output'];
};

export type WithdrawInput = {
  accountId: Scalars['String']['input'];
  /** Positive integer minor units */
  amount: Scalars['SafeInt']['input'];
  /** Your key for this movement: the same key and parameters replay the first answer */
  requestId: Scalars['String']['input'];
};

export type WithdrawResult = AccountNotFound | DuplicateReplayed | IdempotencyKeyReused | InsufficientFunds | OutcomeUnknown | RequestInProgress | WithdrawSuccess;

export type WithdrawSuccess = {
  __typename?: 'WithdrawSuccess';
  /** The account as it stood right after this write (the same on every replay) */
  account: Account;
  entry: LedgerEntry;
};

export type WorkItem = {
  __typename?: 'WorkItem';
  attempts: Scalars['Int']['output'];
  /** When a PENDING item may next be claimed */
  availableAt: Scalars['DateTime']['output'];
  createdAt: Scalars['DateTime']['output'];
  /** The most recent transitions, oldest first (bounded) */
  history: Array<WorkItemTransition>;
  id: Scalars['ID']['output'];
  /** Namespaced: client:<key> or payout:<entryId> */
  idempotencyKey: Scalars['String']['output'];
  kind: Scalars['String']['output'];
  leaseExpiresAt: Maybe<Scalars['DateTime']['output']>;
  lockedBy: Maybe<Scalars['String']['output']>;
  maxAttempts: Scalars['Int']['output'];
  payload: Maybe<Scalars['JSON']['output']>;
  previousStatus: Maybe<WorkItemStatus>;
  result: Maybe<Scalars['JSON']['output']>;
  status: WorkItemStatus;
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

export type WorkItemStatusEvent = ResyncRequired | WorkItemStatusChanged;

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
  /** How long the oldest due PENDING item has waited, by the server's clock */
  oldestPendingAgeSeconds: Maybe<Scalars['Float']['output']>;
};

export type HealthQueryVariables = Exact<{ [key: string]: never; }>;


export type HealthQuery = { __typename?: 'Query', health: { __typename?: 'Health', engine: string, engineReason: string, version: string, replicaSet: { __typename?: 'ReplicaSetStatus', name: string, members: number, primary: string | null } | null } };


export const HealthDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Health"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"health"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"engine"}},{"kind":"Field","name":{"kind":"Name","value":"engineReason"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"replicaSet"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"members"}},{"kind":"Field","name":{"kind":"Name","value":"primary"}}]}}]}}]}}]} as unknown as DocumentNode<HealthQuery, HealthQueryVariables>;