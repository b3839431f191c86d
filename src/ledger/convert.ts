import type { AccountDoc, EntryDoc } from './model.ts';
import { fromLong } from './money.ts';
import type { AccountSnapshot, LedgerEntry } from './results.ts';

export function toAccountSnapshot(doc: AccountDoc): AccountSnapshot {
  const balance = fromLong(doc.balance);
  const held = fromLong(doc.held ?? 0);
  return { id: doc._id, currency: doc.currency, balance, version: fromLong(doc.version), held, available: balance - held };
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
  return { id: entry.accountId, currency: entry.currency, balance: entry.balanceAfter, version: entry.versionAfter, held: null, available: null };
}
