import type { Catalog } from '../engine/catalog.ts';
import type { Collection, CollectionHost } from '../engine/collection.ts';
import type { SnapshotCatalog } from './SnapshotCatalog.ts';

/**
 * Copy-before-write for the open transactions' snapshots. A snapshot copies a collection when
 * it first reads it, and by then others may have committed to it: undoing those commits (the
 * write history) cost a fifth of the engine's CPU at 32 concurrent withdrawals, each undo a
 * B-tree delete per index, and grew with the load. Instead, the first write to a collection
 * after a snapshot's time, before it changes anything, hands every open snapshot that has no
 * copy of it yet one shared O(1) clone: the collection exactly as of their times (no write came
 * between), natural order included. The clone's nodes are shared until the live side writes
 * (copy-on-write), so a pin costs a path copy per B-tree on the next live write.
 */
export class SnapshotPins {
  readonly #open = new Set<SnapshotCatalog>();
  readonly #host: CollectionHost;

  constructor(live: Catalog) {
    // A pinned copy is only ever cloned, never written.
    this.#host = {
      clock: () => live.clock(),
      emit: () => {
        throw new Error('a pinned snapshot copy was written');
      },
    };
    live.observeBeforeWrite((collection) => this.#beforeWrite(collection));
  }

  /** Starts pinning for `snapshot`, taken at the current time (no write since). */
  add(snapshot: SnapshotCatalog): void {
    this.#open.add(snapshot);
  }

  /** Stops pinning for `snapshot` (its transaction ended); its pins go with it. */
  delete(snapshot: SnapshotCatalog): void {
    this.#open.delete(snapshot);
  }

  get openCount(): number {
    return this.#open.size;
  }

  #beforeWrite(collection: Collection): void {
    if (this.#open.size === 0) return;
    const ns = `${collection.db}.${collection.name}`;
    let copy: Collection | undefined;
    for (const snapshot of this.#open) {
      if (!snapshot.needsPin(ns)) continue;
      copy ??= collection.clone(this.#host);
      snapshot.pin(ns, collection, copy);
    }
  }
}
