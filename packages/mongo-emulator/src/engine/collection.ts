// One collection: documents in insertion order (natural order) plus indexes, and its write path.
// Every command's write goes through #apply, the single place where a write is validated and
// checked against unique indexes; a write that fails there changes nothing. #store then stores
// and reports it, and is also how a transaction's commit installs the versions it left
// (commitCheck.ts having checked them first, installCommitted). Stored documents are immutable
// versions sharing structure (storedDocument.ts): change records hold them uncopied, and only
// what a read returns is copied, after projection. Records and indexes are B-trees, so clone()
// (a transaction's snapshot) costs O(1) and shares every node until one side writes to it.
// Beside it, by concern: collectionReads.ts (query, count, distinct), collectionIndexes.ts
// (index DDL), commitCheck.ts (a transaction's commit check).
import { type Binary, ObjectId, type Timestamp, UUID } from 'bson';
import { CommandError } from '../errors.ts';
import { BTree } from './btree.ts';
import { cloneValue } from './clone.ts';
import { identical } from './compare.ts';
import { commitRefusal } from './commitCheck.ts';
import { createIndexes, dropIndexes } from './collectionIndexes.ts';
import {
  countDocuments,
  distinctValues,
  selectRows,
  type CountOptions,
  type ReadSource,
  type Row,
  type SelectOptions,
} from './collectionReads.ts';
import type { UpdateLog } from './deltaDiff.ts';
import { updateRecord } from './diff.ts';
import { Index } from './indexes.ts';
import { project } from './projection.ts';
import { applyUpdate, isOperatorUpdate, upsertSeed, validateUpdate } from './update.ts';
import { listedSpec } from './indexSpec.ts';
import { validateForStorage } from './validate.ts';
import { storeVersion } from './storedDocument.ts';
import { enforceValidator } from './documentValidation.ts';
import type {
  ChangeRecord,
  Collation,
  DeleteSpec,
  Document,
  FindAndModifySpec,
  FindAndModifyResult,
  FindOptions,
  IndexSpec,
  UpdateResult,
  UpdateSpec,
} from './types.ts';

/** What a collection needs from its catalog: the clock and the write observers. */
export interface CollectionHost {
  clock(): { now: Date; clusterTime: Timestamp };
  /** Called once a write is sure to happen, before it changes anything (copy-before-write). */
  beforeWrite?(collection: Collection): void;
  emit(change: ChangeRecord): void;
}

export class Collection {
  #db: string;
  #name: string;
  readonly uuid: Binary;
  readonly options: Document;
  /** Documents examined by the last read: how tests and benchmarks see the planner at work. */
  lastExamined = 0;
  /** The index the last read walked, or undefined for a collection scan. */
  lastIndexUsed: string | undefined;

  /**
   * Records stored or removed since this collection (or clone) was made: what a transaction's
   * snapshot cost in document writes, for tests.
   */
  recordsWritten = 0;
  /** Counts index builds and drops: a copy taken at another count has other indexes. */
  indexEpoch = 0;
  /** indexEpoch when this copy was cloned; undefined for a collection made as such. */
  #clonedAtEpoch: number | undefined;

  readonly #host: CollectionHost;
  /** Record id → stored version. Ids only grow, so id order is insertion (natural) order. */
  #records: BTree<number, Document> = new BTree<number, Document>();
  #nextRecordId = 1;
  readonly #indexes: Index[];
  #bypassValidation = false;
  /** Freeze each stored version (storedDocument.ts): a debug mode, chosen by the catalog's owner. */
  readonly #freezeDocuments: boolean;

  /** `uuid` and `indexes` are given by clone() only: a snapshot of a collection is that collection. */
  constructor(
    db: string,
    name: string,
    host: CollectionHost,
    options: Document = {},
    storage: { freezeDocuments?: boolean } = {},
    uuid: Binary = new UUID(),
    indexes?: Index[],
  ) {
    this.#freezeDocuments = storage.freezeDocuments ?? false;
    this.#indexes = indexes ?? [new Index({ key: { _id: 1 }, name: '_id_' })];
    this.#db = db;
    this.#name = name;
    this.uuid = uuid;
    this.options = options;
    this.#host = host;
  }

  /**
   * The same collection in O(1), reporting to `host`: records and indexes are copy-on-write
   * B-trees sharing every node with this one, and stored versions are immutable, so writes on
   * either side never show on the other.
   */
  clone(host: CollectionHost): Collection {
    const copy = new Collection(
      this.#db,
      this.#name,
      host,
      this.options,
      { freezeDocuments: this.#freezeDocuments },
      this.uuid,
      this.#indexes.map((index) => index.clone()),
    );
    copy.#records = this.#records.clone();
    copy.#nextRecordId = this.#nextRecordId;
    copy.indexEpoch = this.indexEpoch;
    copy.#clonedAtEpoch = this.indexEpoch;
    return copy;
  }

  /**
   * Puts back `version` of the document whose _id is `id` (undefined: no such document), with
   * its index keys: the undo of a committed change on a snapshot's clone. It reverts to a state
   * the collection had, so nothing is validated, checked for duplicates or reported. A document
   * that comes back comes at the end of natural order, as a re-insert would.
   */
  restore(id: unknown, version: Document | undefined): void {
    const found = this.#indexes[0]!.findDuplicate(-1, [id]);
    const current = found === undefined ? undefined : this.#records.get(found);
    if (!current && !version) return;
    const recordId = found ?? this.#nextRecordId++;
    for (const index of this.#indexes) {
      if (current && version && !index.readsChangeBetween(current, version)) continue;
      if (current) index.removeKeys(recordId, index.keysOf(current));
      if (version) index.insertKeys(recordId, index.keysOf(version));
    }
    if (version) this.#records.set(recordId, version);
    else this.#records.delete(recordId);
    this.recordsWritten++;
  }

  get db(): string {
    return this.#db;
  }

  get name(): string {
    return this.#name;
  }

  /** renameCollection: the same documents, indexes and uuid under a new namespace. */
  moveTo(db: string, name: string): void {
    this.#db = db;
    this.#name = name;
  }

  get size(): number {
    return this.#records.size;
  }

  /** collMod: replaces the named options (validator, validationLevel, ...) in place. */
  setOptions(changes: Document): void {
    Object.assign(this.options, changes);
  }

  /** Runs writes without the validator, as `bypassDocumentValidation: true` asks. */
  withoutValidation<T>(write: () => T): T {
    this.#bypassValidation = true;
    try {
      return write();
    } finally {
      this.#bypassValidation = false;
    }
  }

  insertOne(doc: Document): ChangeRecord {
    // mongod stores _id first, generating an ObjectId when it is absent.
    const { _id, ...rest } = cloneValue(doc);
    const stored: Document = { _id: '_id' in doc ? _id : new ObjectId(), ...rest };
    const change: ChangeRecord = {
      op: 'insert',
      db: this.db,
      coll: this.name,
      documentKey: { _id: stored._id },
      fullDocument: stored,
    };
    this.#apply(undefined, undefined, stored, change);
    return change;
  }

  find(filter: Document, options: FindOptions = {}): Document[] {
    const now = this.#host.clock().now;
    return this.#select(filter, options).map(([, d]) => cloneValue(project(d, options.projection, { filter, now })));
  }

  count(filter: Document, options: CountOptions = {}): number {
    return countDocuments(this.#readSource(), filter, options, this);
  }

  /** distinct as mongod answers it (collectionReads.ts), as copies. */
  distinct(key: string, filter: Document, options: { collation?: Collation } = {}): unknown[] {
    return distinctValues(this.#readSource(), key, filter, options, this).map((value) => cloneValue(value));
  }

  update(spec: UpdateSpec): UpdateResult {
    validateUpdate(spec.u);
    if (spec.multi && !Array.isArray(spec.u) && !isOperatorUpdate(spec.u)) {
      throw new CommandError('FailedToParse', 'multi update is not supported for replacement-style update');
    }
    const targets = this.#select(spec.q, {
      sort: spec.sort,
      hint: spec.hint,
      collation: spec.collation,
      let: spec.let,
      limit: spec.multi ? 0 : 1,
    });
    if (targets.length === 0) {
      if (!spec.upsert) return { matched: 0, modified: 0, changes: [] };
      const change = this.#upsert(spec.q, spec.u, spec);
      return { matched: 0, modified: 0, upsertedId: cloneValue(change.documentKey._id), changes: [change] };
    }
    const changes: ChangeRecord[] = [];
    for (const [id, before] of targets) {
      const change = this.#updateRecord(id, before, spec.u, spec);
      if (change) changes.push(change);
    }
    return { matched: targets.length, modified: changes.length, changes };
  }

  delete(spec: DeleteSpec): { deleted: number; changes: ChangeRecord[] } {
    const targets = this.#select(spec.q, {
      hint: spec.hint,
      collation: spec.collation,
      let: spec.let,
      limit: spec.limit,
    });
    const changes = targets.map(([id, before]) => this.#deleteRecord(id, before));
    return { deleted: changes.length, changes };
  }

  findAndModify(spec: FindAndModifySpec): FindAndModifyResult {
    const query = spec.query ?? {};
    if (!spec.remove) validateUpdate(spec.update ?? {});
    const [target] = this.#select(query, {
      sort: spec.sort,
      hint: spec.hint,
      collation: spec.collation,
      let: spec.let,
      limit: 1,
    });
    if (spec.remove) {
      if (!target) return { value: null, lastErrorObject: { n: 0 }, changes: [] };
      const change = this.#deleteRecord(target[0], target[1]);
      return { value: this.#shape(target[1], spec.fields, query), lastErrorObject: { n: 1 }, changes: [change] };
    }
    const u = spec.update ?? {};
    if (!target) {
      if (!spec.upsert) return { value: null, lastErrorObject: { n: 0, updatedExisting: false }, changes: [] };
      const change = this.#upsert(query, u, spec);
      const inserted = change.op === 'insert' ? change.fullDocument : null;
      return {
        value: spec.new && inserted ? this.#shape(inserted, spec.fields, query) : null,
        lastErrorObject: { n: 1, updatedExisting: false, upserted: cloneValue(change.documentKey._id) },
        changes: [change],
      };
    }
    const [id, before] = target;
    const change = this.#updateRecord(id, before, u, { ...spec, q: query });
    const after = this.#records.get(id)!;
    return {
      value: this.#shape(spec.new ? after : before, spec.fields, query),
      lastErrorObject: { n: 1, updatedExisting: true },
      changes: change ? [change] : [],
    };
  }

  createIndexes(specs: IndexSpec[]): { numIndexesBefore: number; numIndexesAfter: number; note?: string } {
    const result = createIndexes(this.#indexed(), specs);
    if (result.numIndexesAfter !== result.numIndexesBefore) this.indexEpoch++;
    return result;
  }

  /** Whether indexes were built or dropped here since the clone was taken (always, for no clone). */
  indexesChangedSinceClone(): boolean {
    return this.indexEpoch !== this.#clonedAtEpoch;
  }

  /** The unique indexes, _id_ first: the keys a write locks (txn/lockKeys.ts). */
  uniqueIndexes(): Index[] {
    return this.#indexes.filter((index) => index.unique);
  }

  listIndexes(): Document[] {
    return this.#indexes.map((i) => listedSpec(i.spec));
  }

  dropIndexes(which: string | string[] | Document): { nIndexesWas: number } {
    const result = dropIndexes(this.#indexed(), which);
    this.indexEpoch++;
    return result;
  }

  /**
   * The stored documents of this instant, in natural order, not copied: a copy-on-write clone of
   * the records (O(1)) whose versions are immutable, read later while writes go on (a checkpoint).
   */
  frozenDocuments(): Iterable<Document> {
    return this.#records.clone().values();
  }

  /** Every stored document in natural order, as copies (for aggregation and $lookup). */
  allDocuments(): Document[] {
    return [...this.#records.values()].map((doc) => cloneValue(doc));
  }

  /** The documents a read selects, in result order, with skip and limit applied. */
  #select(filter: Document, options: SelectOptions): Row[] {
    return selectRows(this.#readSource(), filter, options, this);
  }

  #readSource(): ReadSource {
    return { records: this.#records, indexes: this.#indexes, clock: this.#host.clock() };
  }

  #indexed(): { db: string; name: string; records: BTree<number, Document>; indexes: Index[] } {
    return { db: this.db, name: this.name, records: this.#records, indexes: this.#indexes };
  }

  /** The document findAndModify answers with: a copy of what its `fields` projection keeps. */
  #shape(doc: Document, fields: Document | undefined, query: Document): Document {
    return cloneValue(project(doc, fields, { filter: query, now: this.#host.clock().now }));
  }

  #updateRecord(
    id: number,
    before: Document,
    u: Document | Document[],
    spec: { q: Document; arrayFilters?: Document[]; let?: Document },
  ): ChangeRecord | undefined {
    const clock = this.#host.clock();
    const replacement = !Array.isArray(u) && !isOperatorUpdate(u);
    const log: UpdateLog | undefined = replacement || Array.isArray(u) ? undefined : [];
    const after = applyUpdate(before, u, {
      ...clock,
      arrayFilters: spec.arrayFilters,
      variables: spec.let,
      query: spec.q,
      log,
    });
    if (identical(before, after)) return undefined;
    const common = {
      db: this.db,
      coll: this.name,
      documentKey: { _id: before._id },
      fullDocumentBefore: before,
      fullDocument: after,
    };
    const change: ChangeRecord = replacement ? { op: 'replace', ...common } : updateRecord(common, log);
    this.#apply(id, before, after, change);
    return change;
  }

  #deleteRecord(id: number, before: Document): ChangeRecord {
    const change: ChangeRecord = {
      op: 'delete',
      db: this.db,
      coll: this.name,
      documentKey: { _id: before._id },
      fullDocumentBefore: before,
    };
    this.#apply(id, before, undefined, change);
    return change;
  }

  #upsert(q: Document, u: Document | Document[], spec: { arrayFilters?: Document[]; let?: Document }): ChangeRecord {
    const clock = this.#host.clock();
    const seed = upsertSeed(q);
    const replacement = !Array.isArray(u) && !isOperatorUpdate(u);
    const built = replacement
      ? { ...('_id' in seed ? { _id: seed._id } : {}), ...cloneValue(u as Document) }
      : applyUpdate(seed, u, {
          ...clock,
          arrayFilters: spec.arrayFilters,
          variables: spec.let,
          query: q,
          isUpsertInsert: true,
        });
    return this.insertOne(built);
  }

  /** The mutation path of every command's write. `before`/`after` undefined mean insert/delete. */
  #apply(
    id: number | undefined,
    before: Document | undefined,
    after: Document | undefined,
    change: ChangeRecord,
  ): void {
    if (after) {
      validateForStorage(after);
      if (!this.#bypassValidation) enforceValidator(this.options, before, after, this.#host.clock());
    }
    // Keys are computed once, only for indexes whose paths the write changed (shared subtrees
    // have the same keys): checked against unique indexes before anything changes, then applied
    // only to the indexes whose keys moved.
    const keyChanges = this.#keyChanges(before, after);
    for (const entry of keyChanges) {
      if (!entry?.index.unique) continue;
      for (const key of entry.newKeys) {
        if (entry.index.findDuplicate(id ?? -1, key) !== undefined)
          throw entry.index.duplicateKeyError(this.db, this.name, key);
      }
    }
    this.#store(id, after, keyChanges, change);
  }

  #keyChanges(before: Document | undefined, after: Document | undefined): KeyChange[] {
    return this.#indexes.map((index) => {
      if (before && after && !index.readsChangeBetween(before, after)) return undefined;
      const oldKeys = before ? index.keysOf(before) : [];
      const newKeys = after ? index.keysOf(after) : [];
      return sameKeys(oldKeys, newKeys) ? undefined : { index, oldKeys, newKeys };
    });
  }

  /** Stores `after` (undefined: removes the record) with its keys, and reports `change`. Cannot fail. */
  #store(id: number | undefined, after: Document | undefined, keyChanges: KeyChange[], change: ChangeRecord): void {
    this.#host.beforeWrite?.(this);
    const recordId = id ?? this.#nextRecordId++;
    for (const entry of keyChanges) {
      if (!entry) continue;
      entry.index.removeKeys(recordId, entry.oldKeys);
      entry.index.insertKeys(recordId, entry.newKeys);
    }
    if (after) this.#records.set(recordId, storeVersion(after, this.#freezeDocuments));
    else this.#records.delete(recordId);
    this.recordsWritten++;
    this.#host.emit(change);
  }

  /** Why the transaction's `changes` cannot be installed here at its commit (commitCheck.ts), or undefined. */
  commitRefusal(changes: ChangeRecord[]): string | undefined {
    return commitRefusal(this.#indexed(), changes);
  }

  /**
   * Installs one change a transaction made on its snapshot, at its commit, after commitRefusal
   * found none: the version it left is stored as is (versions are immutable) with its index
   * keys, and the same change record is reported, so the oplog and change streams see exactly
   * the transaction's write. Nothing is planned, evaluated or validated again.
   */
  installCommitted(change: ChangeRecord): void {
    const found = this.#indexes[0]!.findDuplicate(-1, [change.documentKey._id]);
    const before = found === undefined ? undefined : this.#records.get(found);
    const after = change.op === 'delete' ? undefined : change.fullDocument;
    this.#store(found, after, this.#keyChanges(before, after), change);
  }
}

type KeyChange = { index: Index; oldKeys: unknown[][]; newKeys: unknown[][] } | undefined;

function sameKeys(a: unknown[][], b: unknown[][]): boolean {
  return a.length === b.length && a.every((key, i) => identical(key, b[i]));
}
