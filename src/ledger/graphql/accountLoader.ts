import DataLoader from 'dataloader';
import type { ClientSession, Db } from 'mongodb';
import { pageSizeMax } from '../limits.ts';
import { reportingCollections } from '../model.ts';
import { accountsByIds, type MoveAnnotations, moveAnnotations } from '../queries.ts';
import type { AccountSnapshot } from '../results.ts';

/** Accounts by id, batched per request: a page of entries with their accounts is one query. */
export function accountLoader(
  db: Db,
  readSession: () => ClientSession | undefined = () => undefined,
): DataLoader<string, AccountSnapshot | null> {
  const collections = reportingCollections(db);
  return new DataLoader((ids: readonly string[]) => accountsByIds(collections, ids, readSession()), {
    maxBatchSize: pageSizeMax,
  });
}

/** The metadata and reversed total of moves by requestId, batched per request (a page of entries: one query). */
export function moveAnnotationsLoader(
  db: Db,
  readSession: () => ClientSession | undefined = () => undefined,
): DataLoader<string, MoveAnnotations> {
  const collections = reportingCollections(db);
  return new DataLoader((ids: readonly string[]) => moveAnnotations(collections, ids, readSession()), {
    maxBatchSize: pageSizeMax,
  });
}
