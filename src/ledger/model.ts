import type { Collection, Db, IndexDescription, Long } from 'mongodb';

// The ledger's three collections. Only this folder writes them, and a money move writes all the
// documents it touches in one multi-document transaction (src/ledger/keyedTransaction.ts), so they exist
// together or not at all.
//
// accounts         one document per account: balance and version, nothing that grows.
// ledger_entries   immutable journal, one entry per applied leg; _id derived from the request.
// ledger_requests  one document per caller requestId, written in the move's transaction already
//                  decided (applied | rejected) with its parameters' hash and outcome.
// ledger_holds     one document per hold (holdModel.ts), resolved once.

export const collectionNames = Object.freeze({
  accounts: 'accounts',
  entries: 'ledger_entries',
  requests: 'ledger_requests',
  holds: 'ledger_holds',
});

export interface AccountDoc {
  _id: string;
  currency: string;
  balance: Long;
  /** Number of moves applied to this account: the per-account journal order. */
  version: Long;
  /**
   * Sum of the account's pending holds (holds.ts); `balance - held` is what a debit or a new hold
   * may spend. Absent on accounts opened before holds existed: read as 0 everywhere.
   */
  held?: Long;
  openedAt: Date;
  /**
   * Which openAccount call inserted the account (a random id per call), so that a call retrying
   * through an election knows its own insert from another's (openAccount.ts). Absent on accounts
   * opened before it existed, and on the demo's.
   */
  openingId?: string;
  /**
   * OPEN, or CLOSED once `closeAccount` moved its whole balance away (lifecycle.ts). Absent on
   * accounts opened before accounts could close: read as OPEN. Every account write filters on
   * `status != CLOSED` (accountFilters.ts `isOpen`), so no move applies to a closed account (L2).
   */
  status?: AccountStatus;
  /** When it was closed (database clock), and by which request. */
  closedAt?: Date;
  closedBy?: string;
}

export const AccountStatus = Object.freeze({ OPEN: 'OPEN', CLOSED: 'CLOSED' } as const);
export type AccountStatus = (typeof AccountStatus)[keyof typeof AccountStatus];

/**
 * `depositReversal`: money a reversed deposit takes back out of its account (lifecycle.ts). Not a
 * withdrawal: it has no payout (the payout projection follows `withdrawal` entries only).
 */
export type EntryKind = 'deposit' | 'withdrawal' | 'transferOut' | 'transferIn' | 'depositReversal';

export interface EntryDoc {
  /** `<requestKey>:<leg>`: a replay can never mint a second entry. */
  _id: string;
  requestId: string;
  accountId: string;
  currency: string;
  kind: EntryKind;
  /** Positive minor units; `kind` says the direction. */
  amount: Long;
  balanceAfter: Long;
  /** The account's version right after this entry applied: the per-account journal order. */
  versionAfter: Long;
  counterpartyAccountId: string | null;
  createdAt: Date;
  /**
   * When the move's transaction wrote it, on the database's clock (`$$NOW` of its last statement
   * before the commit, journal.ts): what `balanceAt` orders by (L3). Absent on entries written
   * before it existed.
   */
  committedAt?: Date;
  /** The caller's reference of the move (an invoice or bank transaction id), when it sent one. */
  reference?: string;
  /** On a reversal's entries: the requestId of the move it reverses. */
  reversalOf?: string;
  /** The W3C traceparent of the request that made it, when traced: the payout's spans link to it. */
  traceparent?: string;
}

export type EntryLeg = 'debit' | 'credit';

/** An entry's id follows from its request key and leg, so no replay can mint another one. */
export function entryId(requestKey: string, leg: EntryLeg): string {
  return `${requestKey}:${leg}`;
}

export type MoveOp = 'deposit' | 'withdraw' | 'transfer';

export interface MoveParams {
  op: MoveOp;
  /** The account money leaves (withdraw, transfer) or null. */
  fromAccountId: string | null;
  /** The account money reaches (deposit, transfer) or null. */
  toAccountId: string | null;
  amount: Long;
  /** The caller's reference and metadata (JSON text), stored only when sent: part of the hash. */
  reference?: string;
  metadata?: string;
}

export type StoredOutcome =
  | { kind: 'applied'; entryIds: string[] }
  | { kind: 'rejected'; accountId: string; balance: Long; amount: Long };

export interface RequestDoc {
  /** Namespaced key, `ledger:<requestId>`. */
  _id: string;
  requestId: string;
  paramsHash: string;
  params: MoveParams;
  /**
   * Always decided: the request is inserted in the same transaction as the move it decides.
   * 'pending' stays in the type because the metrics count it (always 0) and because documents of
   * the former two-step design may hold it.
   */
  status: 'pending' | 'applied' | 'rejected';
  outcome: StoredOutcome | null;
  /** When the first caller's first attempt started. */
  firstSeenAt: Date;
  decidedAt: Date | null;
  /** The W3C traceparent of the request that decided it, when traced (src/observability/tracing.ts). */
  traceparent?: string;
  /**
   * On an applied deposit or transfer: the total its reversals took back so far. Written only by a
   * reversal's transaction, whose filter holds `reversedAmount + amount <= params.amount` (L1).
   */
  reversedAmount?: Long;
}

export interface LedgerCollections {
  accounts: Collection<AccountDoc>;
  entries: Collection<EntryDoc>;
  requests: Collection<RequestDoc>;
}

/**
 * Collections for the write path: primary reads, majority writes. Every command of a mutation
 * goes through these handles, never through the reporting ones.
 */
export function writeCollections(db: Db): LedgerCollections {
  const options = { readPreference: 'primary', writeConcern: { w: 'majority' } } as const;
  return {
    accounts: db.collection<AccountDoc>(collectionNames.accounts, options),
    entries: db.collection<EntryDoc>(collectionNames.entries, options),
    requests: db.collection<RequestDoc>(collectionNames.requests, options),
  };
}

/** Collections for reporting queries: any member, but only majority-committed data. */
export function reportingCollections(db: Db): LedgerCollections {
  const options = { readPreference: 'secondaryPreferred', readConcern: { level: 'majority' } } as const;
  return {
    accounts: db.collection<AccountDoc>(collectionNames.accounts, options),
    entries: db.collection<EntryDoc>(collectionNames.entries, options),
    requests: db.collection<RequestDoc>(collectionNames.requests, options),
  };
}

/** Entry indexes named for hints. */
export const EntryIndex = Object.freeze({
  byCommitTime: 'accountId_committedAt_versionAfter',
  byReference: 'reference_createdAt__id',
} as const);

const indexes: Record<keyof typeof collectionNames, IndexDescription[]> = {
  accounts: [],
  entries: [
    // Journal pages per account, newest first (walked backwards); unique because a version is
    // decided once.
    { key: { accountId: 1, versionAfter: 1 }, name: 'accountId_versionAfter', unique: true },
    { key: { requestId: 1 }, name: 'requestId' },
    // `balanceAt` and the balance history: an account's decisions by commit time (L3).
    { key: { accountId: 1, committedAt: -1, versionAfter: -1 }, name: EntryIndex.byCommitTime },
    // `ledgerEntries(reference:)`: sparse, so moves without a reference cost it nothing.
    { key: { reference: 1, createdAt: -1, _id: -1 }, name: EntryIndex.byReference, sparse: true },
  ],
  // The pending-requests metrics (src/ledger/telemetry.ts) count and age pending requests.
  requests: [{ key: { status: 1, firstSeenAt: 1 }, name: 'status_firstSeenAt' }],
  holds: [
    // `holds(accountId, status, ...)` pages, newest first (holdQueries.ts).
    { key: { accountId: 1, status: 1, createdAt: -1, _id: -1 }, name: 'accountId_status_createdAt__id' },
    // `holds(accountId, ...)` without a status.
    { key: { accountId: 1, createdAt: -1, _id: -1 }, name: 'accountId_createdAt__id' },
    // The sweeper's walk: pending holds by expiry, oldest first; the audit's pending sums.
    { key: { status: 1, expiresAt: 1 }, name: 'status_expiresAt' },
  ],
};

/** Creates the ledger's indexes; safe to run on every start (createIndexes is idempotent). */
export async function ensureLedgerIndexes(db: Db): Promise<void> {
  for (const [name, specs] of Object.entries(indexes)) {
    if (specs.length === 0) continue;
    await db.collection(collectionNames[name as keyof typeof collectionNames]).createIndexes(specs);
  }
}
