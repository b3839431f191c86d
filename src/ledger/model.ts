import type { Collection, Db, IndexDescription, Long } from 'mongodb';
import { withdrawalsByIdIndex } from './withdrawals.ts';

// The ledger's three collections. Only this folder writes them.
//
// accounts         one document per account; the balance and the trace of recent decisions
//                  live together so that "affordable?" and "debit" are one atomic write.
// ledger_entries   immutable journal, one entry per applied leg; _id derived from the request.
// ledger_requests  one document per caller requestId: the claim, its parameters' hash, the
//                  status (pending -> applied | rejected) and the final outcome.

export const collectionNames = Object.freeze({
  accounts: 'accounts',
  entries: 'ledger_entries',
  requests: 'ledger_requests',
});

/**
 * One decision recorded on an account, newest last. `d` is the signed balance change, 0 for a
 * rejection (amounts are never 0). Every trace push also bumps `version` by one, so the record
 * k places from the end was written at `version - k`, with balance `balance - (sum of later d)`.
 */
export interface TraceRecord {
  r: string;
  d: Long;
}

export interface AccountDoc {
  _id: string;
  currency: string;
  balance: Long;
  /** Number of decisions recorded on this account (applied moves and rejections). */
  version: Long;
  openedAt: Date;
  trace: TraceRecord[];
}

export type EntryKind = 'deposit' | 'withdrawal' | 'transferOut' | 'transferIn';

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
  /** The currency of the touched account(s), read before the claim; copied onto the entries. */
  currency: string;
  /**
   * Versions of the touched accounts read before the claim: bounds the trace look-up. A list, not
   * an object keyed by account id, because ids may hold '.' or '$'.
   */
  versionsAtClaim: { accountId: string; version: Long }[];
  status: 'pending' | 'applied' | 'rejected';
  outcome: StoredOutcome | null;
  firstSeenAt: Date;
  /** Until then a replay waits for the first caller instead of completing the request itself. */
  leaseUntil: Date;
  decidedAt: Date | null;
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

const indexes: Record<keyof typeof collectionNames, IndexDescription[]> = {
  accounts: [],
  entries: [
    // Journal pages per account, newest first (walked backwards); unique because a version is
    // decided once.
    { key: { accountId: 1, versionAfter: 1 }, name: 'accountId_versionAfter', unique: true },
    { key: { requestId: 1 }, name: 'requestId' },
    // The payout projection's reconciliation walks withdrawals by _id (src/ledger/withdrawals.ts).
    { key: { ...withdrawalsByIdIndex }, name: 'kind_id' },
  ],
  // The recovery sweep completes pending requests, oldest first.
  requests: [{ key: { status: 1, firstSeenAt: 1 }, name: 'status_firstSeenAt' }],
};

/** Creates the ledger's indexes; safe to run on every start (createIndexes is idempotent). */
export async function ensureLedgerIndexes(db: Db): Promise<void> {
  for (const [name, specs] of Object.entries(indexes)) {
    if (specs.length === 0) continue;
    await db.collection(collectionNames[name as keyof typeof collectionNames]).createIndexes(specs);
  }
}
