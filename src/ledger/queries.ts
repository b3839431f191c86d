import type { ClientSession } from 'mongodb';
import { consistentRead } from '../db/readOptions.ts';
import { toAccountSnapshot, toLedgerEntry } from './convert.ts';
import { encodeCursor } from './cursor.ts';
import type { AccountsPageInput, BalanceHistoryInput, EntriesPageInput } from './inputs.ts';
import { entryId, EntryIndex, type EntryDoc, type LedgerCollections } from './model.ts';
import { fromLong, toLong } from './money.ts';
import { requestKey } from './requestKeys.ts';
import type { AccountSnapshot, LedgerEntry } from './results.ts';

// Reporting reads. They run on the reporting collections (secondaryPreferred, majority read
// concern), never on the write path.

export interface Page<T> {
  items: T[];
  endCursor: string | null;
  hasNextPage: boolean;
}

/** Accounts by id, in the order asked, null where none exists: the batch function of a DataLoader. */
export async function accountsByIds(
  collections: LedgerCollections,
  ids: readonly string[],
  session?: ClientSession,
): Promise<(AccountSnapshot | null)[]> {
  const docs = await consistentRead({ session }, (command) =>
    collections.accounts.find({ _id: { $in: [...ids] } }, command).toArray(),
  );
  const byId = new Map(docs.map((doc) => [doc._id, toAccountSnapshot(doc)]));
  return ids.map((id) => byId.get(id) ?? null);
}

/** Accounts in id order. */
export async function listAccounts(
  collections: LedgerCollections,
  page: AccountsPageInput,
): Promise<Page<AccountSnapshot>> {
  const filter = page.after == null ? {} : { _id: { $gt: page.after } };
  const docs = await collections.accounts
    .find(filter)
    .sort({ _id: 1 })
    .limit(page.first + 1)
    .toArray();
  return pageOf(docs.map(toAccountSnapshot), page.first, (account) => encodeCursor('account', account.id));
}

/** One account's journal, newest first (by the version each entry left the account at). */
export async function listEntries(collections: LedgerCollections, page: EntriesPageInput): Promise<Page<LedgerEntry>> {
  const filter =
    page.after == null
      ? { accountId: page.accountId }
      : { accountId: page.accountId, versionAfter: { $lt: toLong(Number(page.after)) } };
  const docs = await collections.entries
    .find(filter)
    .sort({ versionAfter: -1 })
    .limit(page.first + 1)
    .toArray();
  return pageOf(docs.map(toLedgerEntry), page.first, (entry) => encodeCursor('entry', entry.versionAfter));
}

/** The entry a request wrote; for a transfer, its debit leg (the credit names it as counterparty). */
export async function entryByRequest(collections: LedgerCollections, requestId: string): Promise<LedgerEntry | null> {
  const key = requestKey(requestId);
  const debitId = entryId(key, 'debit');
  const docs = await collections.entries.find({ _id: { $in: [debitId, entryId(key, 'credit')] } }).toArray();
  const doc = docs.find((candidate) => candidate._id === debitId) ?? docs[0];
  return doc ? toLedgerEntry(doc) : null;
}

/**
 * The balance as of `at` (L3): the balance right after the account's last decision committed at or
 * before `at`, on the database clock (`committedAt`); 0 before its first. One index seek.
 */
export async function balanceAt(
  collections: LedgerCollections,
  accountId: string,
  at: Date,
  session?: ClientSession,
): Promise<number> {
  const docs = await consistentRead({ session }, (command) =>
    collections.entries
      .find(
        { accountId, committedAt: { $lte: at } },
        { hint: EntryIndex.byCommitTime, projection: { balanceAfter: 1 }, ...command },
      )
      .sort({ committedAt: -1, versionAfter: -1 })
      .limit(1)
      .toArray(),
  );
  return docs[0] ? fromLong(docs[0].balanceAfter) : 0;
}

export interface BalancePoint {
  at: Date;
  balance: number;
  version: number;
  entry: LedgerEntry;
}

/** The account's balance after each decision, newest first, at or before `at` when given. */
export async function balanceHistory(
  collections: LedgerCollections,
  page: BalanceHistoryInput,
): Promise<Page<BalancePoint>> {
  const filter = {
    accountId: page.accountId,
    committedAt: page.at === null ? { $exists: true } : { $lte: page.at },
    ...(page.after == null ? {} : { versionAfter: { $lt: toLong(Number(page.after)) } }),
  };
  const docs: EntryDoc[] = await collections.entries
    .find(filter as never, { hint: EntryIndex.byCommitTime })
    .sort({ committedAt: -1, versionAfter: -1 })
    .limit(page.first + 1)
    .toArray();
  const points = docs.map((doc) => ({
    at: doc.committedAt!,
    balance: fromLong(doc.balanceAfter),
    version: fromLong(doc.versionAfter),
    entry: toLedgerEntry(doc),
  }));
  return pageOf(points, page.first, (point) => encodeCursor('balance', point.version));
}

/** What entries read from their move's request: its metadata (stored once) and the total reversed of it. */
export interface MoveAnnotations {
  metadata: string | null;
  reversedAmount: number;
}

/** By requestId, in the order asked: the batch function of a DataLoader. */
export async function moveAnnotations(
  collections: LedgerCollections,
  requestIds: readonly string[],
  session?: ClientSession,
): Promise<MoveAnnotations[]> {
  const docs = await consistentRead({ session }, (command) =>
    collections.requests
      .find(
        { _id: { $in: requestIds.map(requestKey) } },
        { projection: { requestId: 1, 'params.metadata': 1, reversedAmount: 1 }, ...command },
      )
      .toArray(),
  );
  const byId = new Map(docs.map((doc) => [doc.requestId, doc]));
  return requestIds.map((id) => {
    const doc = byId.get(id);
    return { metadata: doc?.params?.metadata ?? null, reversedAmount: fromLong(doc?.reversedAmount ?? 0) };
  });
}

function pageOf<T>(fetched: T[], first: number, cursorOf: (item: T) => string): Page<T> {
  const items = fetched.slice(0, first);
  const last = items.at(-1);
  return { items, endCursor: last === undefined ? null : cursorOf(last), hasNextPage: fetched.length > first };
}
