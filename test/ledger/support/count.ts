import type { Db, Document } from 'mongodb';

/** Documents of `collection` matching `filter` (untyped, so string ids need no casts). */
export function countOf(db: Db, collection: string, filter: Document): Promise<number> {
  return db.collection(collection).countDocuments(filter);
}
