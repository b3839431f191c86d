import type { Timestamp } from 'bson';
import { Catalog, type WriteObserver } from '../engine/catalog.ts';
import type { Collection } from '../engine/collection.ts';
import type { WriteHistory } from './WriteHistory.ts';

/** A collection as it was just before the first write after a snapshot's time. */
interface Pin {
  readonly source: Collection;
  readonly copy: Collection;
  readonly indexEpoch: number;
}

/**
 * The database as of one cluster time, private to one transaction (or one snapshot read): a
 * copy-on-write clone of each collection it touches, taken on first use. When the collection
 * was written after that time, the clone is of the copy pinned just before the first such write
 * (SnapshotPins), else of the live collection with the changes committed since undone. Writes
 * change only this copy; each one is reported to `onWrite` (which stages it, or refuses it by
 * throwing).
 */
export class SnapshotCatalog extends Catalog {
  readonly #live: Catalog;
  readonly #history: WriteHistory;
  readonly #time: Timestamp;
  readonly #materialized = new Set<string>();
  /** Namespaces that existed at the snapshot (copied), as opposed to created by the transaction. */
  readonly #copied = new Set<string>();
  readonly #pins = new Map<string, Pin>();

  constructor(live: Catalog, history: WriteHistory, time: Timestamp, onWrite: WriteObserver) {
    super({ clock: () => live.clock(), freezeDocuments: live.freezeDocuments });
    this.#live = live;
    this.#history = history;
    this.#time = time;
    this.observe(onWrite);
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

  /** Whether the next write to `ns` must pin a copy for this snapshot (it has none yet). */
  needsPin(ns: string): boolean {
    return !this.#materialized.has(ns) && !this.#pins.has(ns);
  }

  /** Keeps `copy`, taken from `source` before any write after this snapshot's time, for `ns`. */
  pin(ns: string, source: Collection, copy: Collection): void {
    this.#pins.set(ns, { source, copy, indexEpoch: source.indexEpoch });
  }

  override getCollection(db: string, name: string): Collection | undefined {
    const ns = `${db}.${name}`;
    if (!this.#materialized.has(ns)) {
      this.#materialized.add(ns);
      this.#copy(db, name);
    }
    return super.getCollection(db, name);
  }

  /**
   * The collection as of the snapshot: an O(1) clone of its pinned copy, or of the live one with
   * the changes committed since undone, newest first, so the cost is at most those changes,
   * never the collection's size. A pin taken from a collection since dropped, replaced or
   * re-indexed is not used: the live one is what the history undoes to.
   */
  #copy(db: string, name: string): void {
    const ns = `${db}.${name}`;
    const pin = this.#pins.get(ns);
    this.#pins.delete(ns);
    const live = this.#live.getCollection(db, name);
    if (!live) return;
    this.#copied.add(ns);
    if (pin && pin.source === live && pin.indexEpoch === live.indexEpoch) {
      this.install(db, name, (host) => pin.copy.clone(host));
      return;
    }
    const copy = this.install(db, name, (host) => live.clone(host));
    for (const change of this.#history.changesAfter(ns, this.#time)) {
      copy.restore(change.documentKey._id, change.op === 'insert' ? undefined : change.fullDocumentBefore);
    }
  }
}

function splitNamespace(ns: string): [string, string] {
  const dot = ns.indexOf('.');
  return [ns.slice(0, dot), ns.slice(dot + 1)];
}
