import type { Collection, Db, IndexDescription } from 'mongodb';
import { collectionNames, type EntryDoc } from '../ledger/index.ts';
import type { WalkPosition } from './lease.ts';

// The catch-up's index walk over applied withdrawals in (createdAt, _id) order, read-only on the
// ledger's journal. An entry exists only once its debit applied, so every withdrawal entry is an
// applied withdrawal. `_id` (`<requestKey>:<leg>`) is not monotonic, `createdAt` nearly is: an
// entry commits at most `catchUpMarginMs` after its stamp, which is the margin a catch-up starts
// before its watermark. The query is hinted, so the server uses the index or refuses.

/** The index the walk needs, created by the streams' start-up (the ledger's files are not ours). */
export const withdrawalsByCreatedAtIndex = Object.freeze({ kind: 1, createdAt: 1, _id: 1 } as const);

export const walkIndexes: IndexDescription[] = [{ key: { ...withdrawalsByCreatedAtIndex }, name: 'kind_createdAt_id' }];

export async function ensureWalkIndexes(db: Db): Promise<void> {
  await db.collection(collectionNames.entries).createIndexes(walkIndexes);
}

export function journalForWalk(db: Db): Collection<EntryDoc> {
  return db.collection<EntryDoc>(collectionNames.entries, {
    readPreference: 'primary',
    readConcern: { level: 'majority' },
  });
}

/**
 * Up to `limit` withdrawals after `after` (or, with no position yet, from `from`; from the
 * beginning when both are null), in (createdAt, _id) order. Two range queries rather than an
 * `$or`, so that each is one bounded range of the index however many entries share a `createdAt`.
 */
export async function withdrawalsAfter(
  entries: Collection<EntryDoc>,
  after: WalkPosition | null,
  from: Date | null,
  limit: number,
): Promise<EntryDoc[]> {
  const page = (filter: Record<string, unknown>, n: number) =>
    entries
      .find({ kind: 'withdrawal', ...filter }, { hint: { ...withdrawalsByCreatedAtIndex } })
      .sort({ createdAt: 1, _id: 1 })
      .limit(n)
      .toArray();
  if (after === null) return page(from === null ? {} : { createdAt: { $gte: from } }, limit);
  const sameTime = await page({ createdAt: after.createdAt, _id: { $gt: after.id } }, limit);
  if (sameTime.length === limit) return sameTime;
  return [...sameTime, ...(await page({ createdAt: { $gt: after.createdAt } }, limit - sameTime.length))];
}
