import DataLoader from 'dataloader';
import type { ClientSession, Db } from 'mongodb';
import { pageSizeMax } from '../limits.ts';
import { reportingCollections, type LedgerCollections } from '../model.ts';
import { accountsByIds } from '../queries.ts';
import type { AccountSnapshot } from '../results.ts';

// Collection handles are immutable and the same for every request; resolving their options per
// request was most of a loader's construction cost, so they are made once per database.
const collectionsByDb = new WeakMap<Db, LedgerCollections>();

function collectionsOf(db: Db): LedgerCollections {
  let collections = collectionsByDb.get(db);
  if (collections === undefined) {
    collections = reportingCollections(db);
    collectionsByDb.set(db, collections);
  }
  return collections;
}

/** Accounts by id, batched per request: a page of entries with their accounts is one query. */
export function accountLoader(db: Db, readSession: () => ClientSession | undefined = () => undefined): DataLoader<string, AccountSnapshot | null> {
  const collections = collectionsOf(db);
  return new DataLoader((ids: readonly string[]) => accountsByIds(collections, ids, readSession()), { maxBatchSize: pageSizeMax });
}
