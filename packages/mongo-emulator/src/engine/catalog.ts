// The catalog: databases, their collections and views, and the write observer that sees every
// change in apply order.
//
// Transactions (a later issue) plug in here: a transaction takes a snapshot of the collections
// it reads (copy-on-write of the record maps at its start), stages its ChangeRecords instead of
// emitting them, and at commit replays them through each Collection's single apply path, which
// re-checks unique indexes and emits them to observers in order. Nothing else mutates storage,
// so that replay is the only hook transactions need.
import { Timestamp } from 'bson';
import { CommandError } from '../errors.ts';
import { aggregateDocuments } from './aggregate.ts';
import { Collection } from './collection.ts';
import type { ChangeRecord, Collation, Document } from './types.ts';

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

export interface CollectionInfo {
  name: string;
  type: 'collection' | 'view';
  options: Document;
  info: { readOnly: boolean; uuid: Collection['uuid'] };
  idIndex?: Document;
}

function defaultClock(): Clock {
  const now = new Date();
  return { now, clusterTime: new Timestamp({ t: Math.floor(now.getTime() / 1000), i: 1 }) };
}

export class Catalog {
  readonly #clock: () => Clock;
  readonly #databases = new Map<string, Map<string, Collection>>();
  readonly #observers = new Set<WriteObserver>();

  constructor(options: { clock?: () => Clock } = {}) {
    this.#clock = options.clock ?? defaultClock;
  }

  /** Subscribe to every ChangeRecord in apply order; returns the unsubscribe function. */
  observe(observer: WriteObserver): () => void {
    this.#observers.add(observer);
    return () => this.#observers.delete(observer);
  }

  clock(): Clock {
    return this.#clock();
  }

  listDatabaseNames(): string[] {
    return [...this.#databases.entries()].filter(([, colls]) => colls.size > 0).map(([name]) => name).sort();
  }

  listCollections(db: string): CollectionInfo[] {
    const colls = this.#databases.get(db);
    if (!colls) return [];
    return [...colls.values()].map((c) => ({
      name: c.name,
      type: 'collection',
      options: { ...c.options },
      info: { readOnly: false, uuid: c.uuid },
      idIndex: { v: 2, key: { _id: 1 }, name: '_id_' },
    }));
  }

  getCollection(db: string, name: string): Collection | undefined {
    return this.#databases.get(db)?.get(name);
  }

  getOrCreateCollection(db: string, name: string): Collection {
    return this.getCollection(db, name) ?? this.#create(db, name, {});
  }

  createCollection(db: string, name: string, options: Document = {}): Collection {
    if (this.getCollection(db, name)) {
      throw new CommandError('NamespaceExists', `Collection ${db}.${name} already exists.`);
    }
    return this.#create(db, name, options);
  }

  dropCollection(db: string, name: string): boolean {
    return this.#databases.get(db)?.delete(name) ?? false;
  }

  dropDatabase(db: string): void {
    this.#databases.delete(db);
  }

  aggregate(db: string, collName: string | null, pipeline: Document[], options: AggregateOptions = {}): Document[] {
    const source = collName === null ? [] : (this.getCollection(db, collName)?.allDocuments() ?? []);
    const clock = this.#clock();
    return aggregateDocuments(source, pipeline, {
      now: clock.now,
      clusterTime: clock.clusterTime,
      variables: options.let,
      collation: options.collation,
      resolve: (name) => this.getCollection(db, name)?.allDocuments() ?? [],
    });
  }

  #create(db: string, name: string, options: Document): Collection {
    let colls = this.#databases.get(db);
    if (!colls) {
      colls = new Map();
      this.#databases.set(db, colls);
    }
    const coll = new Collection(db, name, {
      clock: () => this.#clock(),
      emit: (change) => {
        for (const o of this.#observers) o(change);
      },
    }, options);
    colls.set(name, coll);
    return coll;
  }
}
