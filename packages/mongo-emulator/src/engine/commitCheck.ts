// The check a transaction's commit passes before it installs anything on a live collection
// (txn/installCommit.ts): reads only, so a refused commit leaves nothing behind.
import { BTree } from './btree.ts';
import { compareValues, identical } from './compare.ts';
import { formatValue } from './format.ts';
import type { Index, IndexEntry } from './indexes.ts';
import type { ChangeRecord, Document } from './types.ts';

/** The live collection as the check reads it. */
export interface CommittedCollection {
  readonly db: string;
  readonly name: string;
  readonly records: BTree<number, Document>;
  /** _id_ first. */
  readonly indexes: readonly Index[];
}

/**
 * Why a transaction's `changes` to this collection (made on its snapshot, in order) cannot be
 * installed here at its commit, or undefined when they can: each document must still be the
 * version the transaction read (absent for its inserts), and no unique key its final versions
 * hold may belong to a document it did not write. The transaction's locks make a refusal
 * unreachable unless the collection was dropped, replaced or given a unique index since the
 * snapshot.
 */
export function commitRefusal(live: CommittedCollection, changes: ChangeRecord[]): string | undefined {
  // Each document the transaction wrote, by _id: its live record and its final version.
  const touched = new BTree<unknown, { recordId: number | undefined; final: Document | undefined }>(
    undefined,
    compareValues,
  );
  for (const change of changes) {
    const id = change.documentKey._id;
    let entry = touched.get(id);
    if (!entry) {
      const recordId = live.indexes[0]!.findDuplicate(-1, [id]);
      const current = recordId === undefined ? undefined : live.records.get(recordId);
      const read = change.op === 'insert' ? undefined : change.fullDocumentBefore;
      if (current !== read && !(current && read && identical(current, read))) {
        return `document ${formatValue(id)} in ${live.db}.${live.name} is not the version the transaction read`;
      }
      entry = { recordId, final: undefined };
      touched.set(id, entry);
    }
    entry.final = change.op === 'delete' ? undefined : change.fullDocument;
  }
  const written = new Set<number>();
  for (const { recordId } of touched.values()) if (recordId !== undefined) written.add(recordId);
  for (const index of live.indexes) {
    if (!index.unique) continue;
    const claimed = new BTree<IndexEntry, true>(undefined, index.compareKeys);
    for (const { recordId, final } of touched.values()) {
      for (const key of final ? index.keysOf(final) : []) {
        // Another final version claims it too, or a document the transaction left holds it.
        const entry = [...key, 0];
        const holder = index.findDuplicate(recordId ?? -1, key);
        if (claimed.has(entry) || (holder !== undefined && !written.has(holder))) {
          return `${index.duplicateKeyError(live.db, live.name, key).message} at commit`;
        }
        claimed.set(entry, true);
      }
    }
  }
  return undefined;
}
