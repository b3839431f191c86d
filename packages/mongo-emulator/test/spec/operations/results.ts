// The driver's result model objects turned into the documents the CRUD spec describes.
import type { BulkWriteResult } from 'mongodb';

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
