import type { AccountDoc, EntryDoc } from './model.ts';
import { fromLong } from './money.ts';
import type { AccountSnapshot, LedgerEntry } from './results.ts';

export function toAccountSnapshot(doc: AccountDoc): AccountSnapshot {
  return { id: doc._id, currency: doc.currency, balance: fromLong(doc.balance), version: fromLong(doc.version) };
}

export function toLedgerEntry(doc: EntryDoc): LedgerEntry {
  return {
    id: doc._id,
    requestId: doc.requestId,
    accountId: doc.accountId,
    currency: doc.currency,
    kind: doc.kind,
    amount: fromLong(doc.amount),
    balanceAfter: fromLong(doc.balanceAfter),
    versionAfter: fromLong(doc.versionAfter),
    counterpartyAccountId: doc.counterpartyAccountId,
    createdAt: doc.createdAt,
  };
}

/** The account as it stood right after `entry` applied. */
export function accountAfter(entry: LedgerEntry): AccountSnapshot {
  return { id: entry.accountId, currency: entry.currency, balance: entry.balanceAfter, version: entry.versionAfter };
}
