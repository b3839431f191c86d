// The catalog: databases, their collections and views, and the write observer that sees every
// change in apply order.
//
// Transactions plug in here: a transaction's snapshot (txn/SnapshotCatalog.ts) holds an O(1)
// copy-on-write clone of each collection it touches (pinned before the first write after its
// time, observeBeforeWrite), stages its ChangeRecords instead of emitting them, and at commit
// installs the versions they left on each live Collection (checked first, then stored with
// their index keys), which emits the same records to observers in order.
import { Timestamp, type Binary } from 'bson';
import { CommandError } from '../errors.ts';
import { aggregateDocuments } from './aggregate.ts';
import { Collection, type CollectionHost } from './collection.ts';
import { mergeInto, outputTarget, splitOutputStage } from './output.ts';
import type { ChangeRecord, Collation, Document, IndexSpec } from './types.ts';

export interface Clock {
  now: Date;
  clusterTime: Timestamp;
}

export type WriteObserver = (change: ChangeRecord) => void;

export interface AggregateOptions {
  collation?: Collation;
  let?: Document;
  batchSize?: number;
}

export interface Namespace {
  db: string;
  coll: string;
}

export interface CollectionInfo {
  name: string;
  type: 'collection' | 'view';
  options: Document;
  info: { readOnly: boolean; uuid?: Collection['uuid'] };
  idIndex?: Document;
}

/** A read-only view: the documents of `viewOn` through `pipeline`. */
export interface ViewDefinition {
  viewOn: string;
  pipeline: Document[];
}

export interface CatalogOptions {
  clock?: () => Clock;
  /** Debug mode: freeze each stored version (off unless the emulator's entry turns it on). */
  freezeDocuments?: boolean;
}

/** mongod's maximum depth of views defined on views. */
const VIEW_DEPTH_MAX = 20;

function defaultClock(): Clock {
  const now = new Date();
  return { now, clusterTime: new Timestamp({ t: Math.floor(now.getTime() / 1000), i: 1 }) };
}

export class Catalog {
  readonly #clock: () => Clock;
  readonly #databases = new Map<string, Map<string, Collection>>();
  readonly #observers = new Set<WriteObserver>();
  readonly #creationObservers = new Set<(collection: Collection) => void>();
  readonly #writeGuards = new Set<(collection: Collection) => void>();
  readonly #views = new Map<string, Map<string, ViewDefinition>>();
  /** Every stored document version is frozen, so a mutation of shared history throws (storedDocument.ts). */
  readonly freezeDocuments: boolean;

  constructor(options: CatalogOptions = {}) {
    this.#clock = options.clock ?? defaultClock;
    this.freezeDocuments = options.freezeDocuments ?? false;
  }

  /** Subscribe to every ChangeRecord in apply order; returns the unsubscribe function. */
  observe(observer: WriteObserver): () => void {
    this.#observers.add(observer);
    return () => this.#observers.delete(observer);
  }

  /**
   * Called before each stored write to one of this catalog's collections changes it, once the
   * write is sure to happen; returns the unsubscribe function. Transactions' snapshots take
   * their copy here (txn/SnapshotPins.ts).
   */
  observeBeforeWrite(guard: (collection: Collection) => void): () => void {
    this.#writeGuards.add(guard);
    return () => this.#writeGuards.delete(guard);
  }

  /** Subscribe to every collection creation, explicit or implicit (a first write, createIndexes). */
  observeCreations(observer: (collection: Collection) => void): () => void {
    this.#creationObservers.add(observer);
    return () => this.#creationObservers.delete(observer);
  }

  clock(): Clock {
    return this.#clock();
  }

  listDatabaseNames(): string[] {
    return [...this.#databases.entries()]
      .filter(([, colls]) => colls.size > 0)
      .map(([name]) => name)
      .sort();
  }

  listCollections(db: string): CollectionInfo[] {
    const collections: CollectionInfo[] = [...(this.#databases.get(db)?.values() ?? [])].map((c) => ({
      name: c.name,
      type: 'collection',
      options: { ...c.options },
      info: { readOnly: false, uuid: c.uuid },
      idIndex: { v: 2, key: { _id: 1 }, name: '_id_' },
    }));
    const views: CollectionInfo[] = [...(this.#views.get(db) ?? [])].map(([name, view]) => ({
      name,
      type: 'view',
      options: { viewOn: view.viewOn, pipeline: view.pipeline },
      info: { readOnly: true },
    }));
    return [...collections, ...views];
  }

  /** The definition of view `db.name`, or undefined when it is no view. */
  view(db: string, name: string): ViewDefinition | undefined {
    return this.#views.get(db)?.get(name);
  }

  createView(db: string, name: string, view: ViewDefinition): void {
    if (this.getCollection(db, name) || this.view(db, name))
      throw new CommandError('NamespaceExists', `Namespace ${db}.${name} already exists`);
    let views = this.#views.get(db);
    if (!views) this.#views.set(db, (views = new Map()));
    views.set(name, view);
    try {
      this.#resolveView(db, name);
    } catch (error) {
      views.delete(name);
      throw error;
    }
  }

  getCollection(db: string, name: string): Collection | undefined {
    return this.#databases.get(db)?.get(name);
  }

  getOrCreateCollection(db: string, name: string): Collection {
    if (this.view(db, name))
      throw new CommandError('CommandNotSupportedOnView', `Namespace ${db}.${name} is a view, not a collection`);
    return this.getCollection(db, name) ?? this.#create(db, name, {});
  }

  /** `uuid`: the collection's own, when it comes back from a checkpoint (storage/Storage.ts). */
  createCollection(db: string, name: string, options: Document = {}, uuid?: Binary): Collection {
    if (this.getCollection(db, name) || this.view(db, name)) {
      throw new CommandError('NamespaceExists', `Collection ${db}.${name} already exists.`);
    }
    return this.#create(db, name, options, uuid);
  }

  /** Registers a collection `build` makes on this catalog's clock and observers (a snapshot's clone). */
  protected install(db: string, name: string, build: (host: CollectionHost) => Collection): Collection {
    const coll = build(this.#host());
    this.#collections(db).set(name, coll);
    return coll;
  }

  dropCollection(db: string, name: string): boolean {
    const view = this.#views.get(db)?.delete(name) ?? false;
    return (this.#databases.get(db)?.delete(name) ?? false) || view;
  }

  /** renameCollection: moves a collection, replacing the target only when `dropTarget` says so. */
  renameCollection(from: Namespace, to: Namespace, options: { dropTarget: boolean }): void {
    const source = this.getCollection(from.db, from.coll);
    if (!source)
      throw new CommandError('NamespaceNotFound', `Source collection ${from.db}.${from.coll} does not exist`);
    if (from.db === to.db && from.coll === to.coll)
      throw new CommandError('IllegalOperation', "Can't rename a collection to itself");
    if (this.getCollection(to.db, to.coll)) {
      if (!options.dropTarget) throw new CommandError('NamespaceExists', 'target namespace exists');
      this.dropCollection(to.db, to.coll);
    }
    this.dropCollection(from.db, from.coll);
    source.moveTo(to.db, to.coll);
    this.#collections(to.db).set(to.coll, source);
  }

  dropDatabase(db: string): void {
    this.#views.delete(db);
    this.#databases.delete(db);
  }

  aggregate(db: string, collName: string | null, pipeline: Document[], options: AggregateOptions = {}): Document[] {
    const resolved = collName === null ? { coll: null, pipeline: [] } : this.#resolveView(db, collName);
    const { body: stages, output } = splitOutputStage([...resolved.pipeline, ...pipeline]);
    const coll = resolved.coll === null ? undefined : this.getCollection(db, resolved.coll);
    // A leading $match is answered by the collection itself, so it can walk an index.
    const leading =
      stages[0] && Object.keys(stages[0]).length === 1 ? (stages[0].$match as Document | undefined) : undefined;
    const source = !coll
      ? []
      : leading
        ? coll.find(leading, { collation: options.collation, let: options.let })
        : coll.allDocuments();
    const body = coll && leading ? stages.slice(1) : stages;
    const clock = this.#clock();
    const results = aggregateDocuments(source, body, {
      now: clock.now,
      clusterTime: clock.clusterTime,
      variables: options.let,
      collation: options.collation,
      resolve: (name) => this.getCollection(db, name)?.allDocuments() ?? [],
    });
    if (!output) return results;
    if ('$out' in output) {
      const target = outputTarget(db, output.$out);
      this.#replaceContents(target.db, target.coll, results);
    } else {
      const spec = output.$merge;
      const merge: Document = typeof spec === 'string' ? { into: spec } : (spec as Document);
      const target = outputTarget(db, merge.into);
      mergeInto(this.getOrCreateCollection(target.db, target.coll), merge, results);
    }
    return [];
  }

  /** The collection a namespace reads and the view pipelines (innermost first) in front of it. */
  #resolveView(db: string, name: string): { coll: string; pipeline: Document[] } {
    let coll = name;
    const pipeline: Document[] = [];
    for (let depth = 0; depth <= VIEW_DEPTH_MAX; depth++) {
      const view = this.view(db, coll);
      if (!view) return { coll, pipeline };
      pipeline.unshift(...view.pipeline);
      coll = view.viewOn;
    }
    throw new CommandError(
      'ViewDepthLimitExceeded',
      `View depth too deep or view cycle detected. Maximum depth is ${VIEW_DEPTH_MAX}`,
    );
  }

  /**
   * $out: a new collection with the old one's options and indexes is filled first, and only
   * swapped in (its inserts then reported) when every document went in, as mongod's temporary
   * collection and rename leave the old contents intact on failure.
   */
  #replaceContents(db: string, name: string, docs: Document[]): void {
    const old = this.getCollection(db, name);
    const staged: ChangeRecord[] = [];
    const live = this.#host();
    // Staged while it is filled; once swapped in, its writes are reported like any collection's.
    let swapped = false;
    const host: CollectionHost = {
      clock: live.clock,
      beforeWrite: (collection) => {
        if (swapped) live.beforeWrite!(collection);
      },
      emit: (change) => {
        if (swapped) live.emit(change);
        else staged.push(change);
      },
    };
    const fresh = new Collection(db, name, host, old?.options ?? {}, { freezeDocuments: this.freezeDocuments });
    const specs = (old?.listIndexes() ?? [])
      .filter((i) => i.name !== '_id_')
      .map(({ v: _v, ...spec }) => spec as IndexSpec);
    if (specs.length > 0) fresh.createIndexes(specs);
    for (const doc of docs) fresh.insertOne(doc);
    this.#collections(db).set(name, fresh);
    swapped = true;
    for (const change of staged) this.#emit(change);
  }

  #collections(db: string): Map<string, Collection> {
    let colls = this.#databases.get(db);
    if (!colls) {
      colls = new Map();
      this.#databases.set(db, colls);
    }
    return colls;
  }

  #host(): CollectionHost {
    return {
      clock: () => this.#clock(),
      beforeWrite: (collection) => {
        for (const guard of this.#writeGuards) guard(collection);
      },
      emit: (change) => this.#emit(change),
    };
  }

  #emit(change: ChangeRecord): void {
    for (const o of this.#observers) o(change);
  }

  #create(db: string, name: string, options: Document, uuid?: Binary): Collection {
    const coll = new Collection(db, name, this.#host(), options, { freezeDocuments: this.freezeDocuments }, uuid);
    this.#collections(db).set(name, coll);
    for (const o of this.#creationObservers) o(coll);
    return coll;
  }
}
