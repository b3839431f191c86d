// What a write "touches" for conflict detection: one key per unique index entry it removes or
// adds (the _id index included). WiredTiger detects transaction conflicts on exactly these
// entries, so two writers of one document, or of one unique key, collide.
import { Index } from '../engine/indexes.ts';
import type { Collection } from '../engine/collection.ts';
import type { ChangeRecord, Document } from '../engine/types.ts';

export interface LockKey {
  readonly ns: string;
  readonly index: string;
  readonly key: readonly unknown[];
}

/** The unique indexes of a collection (always _id_); just _id_ for a collection that does not exist. */
export function uniqueIndexesOf(collection: Collection | undefined): Index[] {
  return collection ? collection.uniqueIndexes() : [ID_INDEX];
}

const ID_INDEX = new Index({ key: { _id: 1 }, name: '_id_' });

/** The keys of `docs` in the given unique indexes. */
export function keysOfDocuments(ns: string, indexes: Index[], docs: Document[]): LockKey[] {
  const keys: LockKey[] = [];
  for (const index of indexes) {
    for (const doc of docs) {
      for (const key of safeKeysOf(index, doc)) keys.push({ ns, index: index.name, key });
    }
  }
  return keys;
}

/** Every unique-index key a change removes or adds. */
export function keysOfChange(change: ChangeRecord, indexes: Index[]): LockKey[] {
  const docs: Document[] = [];
  if (change.op !== 'insert') docs.push(change.fullDocumentBefore);
  if (change.op !== 'delete') docs.push(change.fullDocument);
  return keysOfDocuments(`${change.db}.${change.coll}`, indexes, docs);
}

/** Only the document key: what a lock check needs when the indexes are not at hand. */
export function idKeyOf(ns: string, id: unknown): LockKey {
  return { ns, index: '_id_', key: [id] };
}

function safeKeysOf(index: Index, doc: Document): unknown[][] {
  try {
    return index.keysOf(doc);
  } catch {
    // A document the index refuses was never stored, so it holds no key.
    return [];
  }
}
