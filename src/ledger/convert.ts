import { type AccountDoc, AccountStatus, type EntryDoc } from './model.ts';
import { fromLong } from './money.ts';
import type { AccountSnapshot, LedgerEntry } from './results.ts';

export function toAccountSnapshot(doc: AccountDoc): AccountSnapshot {
  const balance = fromLong(doc.balance);
  const held = fromLong(doc.held ?? 0);
  return {
    id: doc._id,
    currency: doc.currency,
    balance,
    version: fromLong(doc.version),
    held,
    available: balance - held,
    status: doc.status ?? AccountStatus.OPEN,
    closedAt: doc.closedAt ?? null,
  };
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
    reference: doc.reference ?? null,
    reversalOf: doc.reversalOf ?? null,
    committedAt: doc.committedAt ?? null,
  };
}

/** The account as it stood right after `entry` applied. */
export function accountAfter(entry: LedgerEntry): AccountSnapshot {
  // A move applied to it, so it was open (a close's own answer is built in lifecycle.ts).
  return {
    id: entry.accountId,
    currency: entry.currency,
    balance: entry.balanceAfter,
    version: entry.versionAfter,
    held: null,
    available: null,
    status: AccountStatus.OPEN,
    closedAt: null,
  };
}

/**
 * An entry as a move's answer shows it: `committedAt` is null there, since the transaction's commit
 * time is known only once committed (read the entry for it), and the first caller's answer must
 * equal every replay's.
 */
export function answerEntry(doc: EntryDoc): LedgerEntry {
  return { ...toLedgerEntry(doc), committedAt: null };
}
