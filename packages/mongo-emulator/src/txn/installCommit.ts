import type { Catalog } from '../engine/catalog.ts';
import type { ChangeRecord, IndexSpec } from '../engine/types.ts';
import type { SnapshotCatalog } from './SnapshotCatalog.ts';

/**
 * Why a transaction's changes cannot be installed on the live catalog, or undefined when they
 * can (Collection.commitRefusal, per collection). Reads only: checked before anything changes.
 */
export function commitRefusal(live: Catalog, snapshot: SnapshotCatalog, changes: ChangeRecord[]): string | undefined {
  const byNamespace = new Map<string, ChangeRecord[]>();
  for (const change of changes) {
    const ns = `${change.db}.${change.coll}`;
    const list = byNamespace.get(ns);
    if (list) list.push(change);
    else byNamespace.set(ns, [change]);
  }
  for (const [ns, list] of byNamespace) {
    const { db, coll } = list[0]!;
    const target = live.getCollection(db, coll);
    // A collection the transaction created is new (or another's by now, checked like any).
    if (!target) {
      if (snapshot.touched().some((t) => t.createdHere && t.db === db && t.name === coll)) continue;
      return `collection ${ns} was dropped after the transaction's snapshot`;
    }
    const refusal = target.commitRefusal(list);
    if (refusal) return refusal;
  }
  return undefined;
}

/**
 * Installs a committed transaction's changes on the live catalog, in the order they were made,
 * once commitRefusal found none: each collection stores the versions the transaction left, with
 * their index keys, and reports the transaction's own change records (so indexes, observers,
 * the clock, the oplog and change streams see each one), without planning or evaluating any
 * write again. Collections the transaction created, and indexes it added, are created first; a
 * collection it only read is never recreated.
 */
export function installCommit(live: Catalog, snapshot: SnapshotCatalog, changes: ChangeRecord[]): void {
  for (const { db, name, collection, createdHere } of snapshot.touched()) {
    const target =
      live.getCollection(db, name) ?? (createdHere ? live.createCollection(db, name, collection.options) : undefined);
    // Listing both sides' indexes on every commit cost more than the rest of a small one.
    if (!target || !collection.indexesChangedSinceClone()) continue;
    const have = new Set((target.listIndexes() as IndexSpec[]).map((spec) => spec.name));
    const missing = (collection.listIndexes() as IndexSpec[]).filter((spec) => !have.has(spec.name));
    if (missing.length > 0) target.createIndexes(missing);
  }
  for (const change of changes) live.getCollection(change.db, change.coll)!.installCommitted(change);
}
