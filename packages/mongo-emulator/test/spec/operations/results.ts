// The driver's result model objects turned into the documents the CRUD spec describes.
import type { BulkWriteResult, ClientBulkWriteResult } from 'mongodb';

export function bulkWriteResultDocument(result: BulkWriteResult): Record<string, unknown> {
  return {
    insertedCount: result.insertedCount,
    matchedCount: result.matchedCount,
    modifiedCount: result.modifiedCount,
    deletedCount: result.deletedCount,
    upsertedCount: result.upsertedCount,
    upsertedIds: { ...result.upsertedIds },
    insertedIds: { ...result.insertedIds },
  };
}

/** An InsertOneResult, UpdateResult, DeleteResult... as a plain document. */
export function resultDocument(result: object): Record<string, unknown> {
  return { ...(result as Record<string, unknown>) };
}

/** The verbose result maps (index → result) become documents keyed by the index. */
export function clientBulkWriteResultDocument(result: ClientBulkWriteResult): Record<string, unknown> {
  const document: Record<string, unknown> = { ...(result as unknown as Record<string, unknown>) };
  for (const key of ['insertResults', 'updateResults', 'deleteResults']) {
    const map = document[key];
    if (map instanceof Map)
      document[key] = Object.fromEntries([...map].map(([index, value]) => [String(index), { ...value }]));
  }
  return document;
}
