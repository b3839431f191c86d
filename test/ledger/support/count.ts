import type { Db, Document } from 'mongodb';

/** Documents of `collection` matching `filter`, counted by fetching their ids. */
export async function countOf(db: Db, collection: string, filter: Document): Promise<number> {
  return (await db.collection(collection).find(filter, { projection: { _id: 1 } }).toArray()).length;
}
