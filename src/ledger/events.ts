import type { Db, Document } from 'mongodb';
import { collectionNames } from './model.ts';
import type { EntryKind } from './model.ts';
import type { ChangeFeed, FeedSpec } from '../fanout/index.ts';
import { invariant } from '../lib/assert.ts';

// Ledger changes as subscribers see them. Entries are immutable, so an entry event is the
// inserted document itself. A balance event comes from the update's own
// `updateDescription.updatedFields` (balance and version), never from a looked-up current
// document: each event tells the balance that write left, and events of one account arrive in
// version order (S1). Rejections leave the balance as it was, so they are no balance events.

export interface LedgerEntryAddedEvent {
  entryId: string;
  requestId: string;
  accountId: string;
  currency: string;
  kind: EntryKind;
  amount: number;
  balanceAfter: number;
  versionAfter: number;
  counterpartyAccountId: string | null;
  createdAt: Date;
}

export interface AccountBalanceChangedEvent {
  accountId: string;
  balance: number;
  version: number;
  at: Date;
}

const ENTRY_INSERTS: Document[] = [
  { $match: { operationType: 'insert' } },
  {
    $project: {
      operationType: 1,
      documentKey: 1,
      'fullDocument.requestId': 1,
      'fullDocument.accountId': 1,
      'fullDocument.currency': 1,
      'fullDocument.kind': 1,
      'fullDocument.amount': 1,
      'fullDocument.balanceAfter': 1,
      'fullDocument.versionAfter': 1,
      'fullDocument.counterpartyAccountId': 1,
      'fullDocument.createdAt': 1,
    },
  },
];

// Only writes that changed the balance; whatever else an account document carries stays on the server.
const BALANCE_UPDATES: Document[] = [
  { $match: { operationType: 'update', 'updateDescription.updatedFields.balance': { $exists: true } } },
  {
    $project: {
      operationType: 1,
      documentKey: 1,
      wallTime: 1,
      'updateDescription.updatedFields.balance': 1,
      'updateDescription.updatedFields.version': 1,
    },
  },
];

/** A hold authorized (PENDING) or resolved (CAPTURED, VOIDED, EXPIRED): one event per transition. */
export interface HoldChangedEvent {
  holdId: string;
  accountId: string;
  status: 'PENDING' | 'CAPTURED' | 'VOIDED' | 'EXPIRED';
  amount: number;
  capturedAmount: number;
  at: Date;
}

// Inserts (an authorization: the new document) and resolutions (the write that sets `change`,
// null until then, so it arrives whole in updatedFields): never a looked-up current document.
const HOLD_CHANGES: Document[] = [
  {
    $match: {
      $or: [
        { operationType: 'insert' },
        { operationType: 'update', 'updateDescription.updatedFields.change.status': { $exists: true } },
      ],
    },
  },
  {
    $project: {
      operationType: 1,
      documentKey: 1,
      wallTime: 1,
      'fullDocument.accountId': 1,
      'fullDocument.status': 1,
      'fullDocument.amount': 1,
      'fullDocument.capturedAmount': 1,
      'fullDocument.createdAt': 1,
      'updateDescription.updatedFields.change': 1,
    },
  },
];

export function holdFeedSpec(db: Db): FeedSpec<HoldChangedEvent> {
  return {
    name: 'holds',
    collection: db.collection(collectionNames.holds),
    pipeline: HOLD_CHANGES,
    toEvent: toHoldChangedEvent,
  };
}

export function toHoldChangedEvent(change: Document): HoldChangedEvent | null {
  const holdId = String(change['documentKey']?._id);
  if (change['operationType'] === 'insert') {
    const doc = change['fullDocument'] as Document | undefined;
    // An upsert's insert: its pipeline values are in the document as inserted.
    if (!doc || typeof doc['accountId'] !== 'string') return null;
    const at =
      doc['createdAt'] instanceof Date
        ? doc['createdAt']
        : change['wallTime'] instanceof Date
          ? change['wallTime']
          : new Date();
    return {
      holdId,
      accountId: doc['accountId'],
      status: 'PENDING',
      amount: safeNumber(doc['amount']),
      capturedAmount: 0,
      at,
    };
  }
  const resolution = change['updateDescription']?.updatedFields?.change as Document | undefined;
  if (change['operationType'] !== 'update' || !resolution || typeof resolution['accountId'] !== 'string') return null;
  return {
    holdId,
    accountId: resolution['accountId'],
    status: resolution['status'] as HoldChangedEvent['status'],
    amount: safeNumber(resolution['amount']),
    capturedAmount: safeNumber(resolution['capturedAmount']),
    at: resolution['at'] instanceof Date ? resolution['at'] : new Date(),
  };
}

export function ledgerEntryFeedSpec(db: Db): FeedSpec<LedgerEntryAddedEvent> {
  return {
    name: 'ledgerEntries',
    collection: db.collection(collectionNames.entries),
    pipeline: ENTRY_INSERTS,
    toEvent: toLedgerEntryAddedEvent,
  };
}

export function accountBalanceFeedSpec(db: Db): FeedSpec<AccountBalanceChangedEvent> {
  return {
    name: 'accountBalances',
    collection: db.collection(collectionNames.accounts),
    pipeline: BALANCE_UPDATES,
    toEvent: toAccountBalanceChangedEvent,
  };
}

export function toLedgerEntryAddedEvent(change: Document): LedgerEntryAddedEvent | null {
  const doc = change['fullDocument'] as Document | undefined;
  if (change['operationType'] !== 'insert' || !doc || typeof doc['accountId'] !== 'string') return null;
  return {
    entryId: String(change['documentKey']?._id),
    requestId: String(doc['requestId']),
    accountId: doc['accountId'],
    currency: String(doc['currency']),
    kind: doc['kind'] as EntryKind,
    amount: safeNumber(doc['amount']),
    balanceAfter: safeNumber(doc['balanceAfter']),
    versionAfter: safeNumber(doc['versionAfter']),
    counterpartyAccountId: typeof doc['counterpartyAccountId'] === 'string' ? doc['counterpartyAccountId'] : null,
    createdAt: doc['createdAt'] instanceof Date ? doc['createdAt'] : new Date(),
  };
}

export function toAccountBalanceChangedEvent(change: Document): AccountBalanceChangedEvent | null {
  const fields = change['updateDescription']?.updatedFields as Document | undefined;
  if (
    change['operationType'] !== 'update' ||
    !fields ||
    fields['balance'] === undefined ||
    fields['version'] === undefined
  )
    return null;
  return {
    accountId: String(change['documentKey']?._id),
    balance: safeNumber(fields['balance']),
    version: safeNumber(fields['version']),
    at: change['wallTime'] instanceof Date ? change['wallTime'] : new Date(),
  };
}

// The driver promotes a BSON long to a number (balances are bounded by 2^53-1, G6); a Long or
// bigint only reaches here from a client configured otherwise.
function safeNumber(value: unknown): number {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'bigint'
        ? Number(value)
        : Number((value as { toString(): string }).toString());
  invariant(Number.isSafeInteger(n), () => `a ledger amount is not a safe integer: ${String(value)}`);
  return n;
}

/** The ledger's live feeds, as its subscriptions read them (the app's LiveFeeds, src/app/liveFeeds.ts, is one). */
export interface LedgerFeeds {
  /** False when this process runs no watchers: a subscription is then refused. */
  readonly running: boolean;
  ledgerEntries: ChangeFeed<LedgerEntryAddedEvent>;
  accountBalances: ChangeFeed<AccountBalanceChangedEvent>;
  holds: ChangeFeed<HoldChangedEvent>;
}
