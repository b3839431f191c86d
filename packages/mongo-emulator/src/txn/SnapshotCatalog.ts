import type { Timestamp } from 'bson';
import BTreeImport from 'sorted-btree';
import { Catalog, type WriteObserver } from '../engine/catalog.ts';
import type { Collection } from '../engine/collection.ts';
import { compareValues } from '../engine/compare.ts';
import type { ChangeRecord, Document, IndexSpec } from '../engine/types.ts';
import type { WriteHistory } from './WriteHistory.ts';

const btreeExport: unknown = BTreeImport;
const BTree = (typeof btreeExport === 'function' ? btreeExport : BTreeImport.default) as typeof BTreeImport.default;

/**
 * The database as of one cluster time, private to one transaction (or one snapshot read): a
 * copy-on-first-use of each collection it touches, rebuilt from the live collection by undoing
 * the changes committed after that time. Writes change only this copy; each one is reported to
 * `onWrite` (which stages it, or refuses it by throwing).
 */
export class SnapshotCatalog extends Catalog {
  readonly #live: Catalog;
  readonly #history: WriteHistory;
  readonly #time: Timestamp;
  readonly #materialized = new Set<string>();
  /** Namespaces that existed at the snapshot (copied), as opposed to created by the transaction. */
  readonly #copied = new Set<string>();
  #copying = false;

  constructor(live: Catalog, history: WriteHistory, time: Timestamp, onWrite: WriteObserver) {
    super({ clock: () => live.clock() });
    this.#live = live;
    this.#history = history;
    this.#time = time;
    this.observe((change) => {
      if (!this.#copying) onWrite(change);
    });
  }

  get time(): Timestamp {
    return this.#time;
  }

  /** The collections this snapshot holds, and whether the transaction created them. */
  touched(): { db: string; name: string; collection: Collection; createdHere: boolean }[] {
    const out: { db: string; name: string; collection: Collection; createdHere: boolean }[] = [];
    for (const ns of this.#materialized) {
      const [db, name] = splitNamespace(ns);
      const collection = super.getCollection(db, name);
      if (collection) out.push({ db, name, collection, createdHere: !this.#copied.has(ns) });
    }
    return out;
  }

  override getCollection(db: string, name: string): Collection | undefined {
    const ns = `${db}.${name}`;
    if (!this.#materialized.has(ns)) {
      this.#materialized.add(ns);
      this.#copy(db, name);
    }
    return super.getCollection(db, name);
  }

  #copy(db: string, name: string): void {
    const live = this.#live.getCollection(db, name);
    if (!live) return;
    this.#copied.add(`${db}.${name}`);
    const documents = documentsAt(live.allDocuments(), this.#history.changesAfter(`${db}.${name}`, this.#time));
    this.#copying = true;
    try {
      const copy = this.createCollection(db, name, live.options);
      const secondary = (live.listIndexes() as IndexSpec[]).filter((spec) => spec.name !== '_id_');
      if (secondary.length > 0) copy.createIndexes(secondary);
      for (const doc of documents) copy.insertOne(doc);
    } finally {
      this.#copying = false;
    }
  }
}

/** The documents as they were before `undo` (newest change first) happened. */
function documentsAt(current: Document[], undo: ChangeRecord[]): Document[] {
  if (undo.length === 0) return current;
  const slots = current.map((doc) => ({ doc: doc as Document | undefined }));
  const byId = new BTree<unknown, { doc: Document | undefined }>(undefined, compareValues);
  for (const slot of slots) byId.set(slot.doc!._id, slot);
  for (const change of undo) {
    const id = change.documentKey._id;
    if (change.op === 'insert') {
      const slot = byId.get(id);
      if (slot) slot.doc = undefined;
      byId.delete(id);
    } else if (change.op === 'delete' || !byId.has(id)) {
      // A deleted document comes back at the end of natural order, as a re-insert would.
      const slot = { doc: change.fullDocumentBefore as Document | undefined };
      slots.push(slot);
      byId.set(id, slot);
    } else {
      byId.get(id)!.doc = change.fullDocumentBefore;
    }
  }
  return slots.flatMap((slot) => (slot.doc ? [slot.doc] : []));
}

function splitNamespace(ns: string): [string, string] {
  const dot = ns.indexOf('.');
  return [ns.slice(0, dot), ns.slice(dot + 1)];
}
