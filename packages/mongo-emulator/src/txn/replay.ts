import type { Catalog } from '../engine/catalog.ts';
import type { ChangeRecord, IndexSpec } from '../engine/types.ts';
import type { SnapshotCatalog } from './SnapshotCatalog.ts';

/**
 * Applies a committed transaction's changes to the live catalog, in the order they were made,
 * through the collections' ordinary write path (so indexes, observers and the clock see each one).
 * Collections the transaction created, and indexes it added, are created first; a collection it
 * only read is never recreated.
 */
export function replayCommit(live: Catalog, snapshot: SnapshotCatalog, changes: ChangeRecord[]): void {
  for (const { db, name, collection, createdHere } of snapshot.touched()) {
    const target = live.getCollection(db, name) ?? (createdHere ? live.createCollection(db, name, collection.options) : undefined);
    if (!target) continue;
    const have = new Set((target.listIndexes() as IndexSpec[]).map((spec) => spec.name));
    const missing = (collection.listIndexes() as IndexSpec[]).filter((spec) => !have.has(spec.name));
    if (missing.length > 0) target.createIndexes(missing);
  }
  for (const change of changes) replayChange(live, change);
}

function replayChange(live: Catalog, change: ChangeRecord): void {
  const collection = live.getOrCreateCollection(change.db, change.coll);
  const q = { _id: { $eq: change.documentKey._id } };
  switch (change.op) {
    case 'insert':
      collection.insertOne(change.fullDocument);
      return;
    case 'delete':
      collection.delete({ q, limit: 1 });
      return;
    case 'replace':
      collection.update({ q, u: change.fullDocument });
      return;
    case 'update':
      // The document as the transaction left it, logged with the delta the transaction's update
      // made (its operators' or its pipeline's), so the commit's applyOps holds that delta.
      collection.update({ q, u: [{ $replaceWith: { $literal: change.fullDocument } }], replayOf: change });
      return;
  }
}
