// One collection: documents in insertion order (natural order) plus indexes. Every command's
// write goes through #apply, the single place where a write is validated and checked against
// unique indexes; a write that fails there changes nothing. #store then stores and reports it,
// and is also how a transaction's commit installs the versions it left (commitRefusal having
// checked them first, installCommitted). Stored documents are immutable
// versions sharing structure (storedDocument.ts): change records hold them uncopied, and only
// what a read returns is copied, after projection. Records and indexes are B-trees, so clone()
// (a transaction's snapshot) costs O(1) and shares every node until one side writes to it.
import { Binary, ObjectId, Timestamp, UUID } from 'bson';
import BTreeImport from 'sorted-btree';
import { CommandError } from '../errors.ts';
import { cloneValue } from './clone.ts';
import { collationComparator } from './collation.ts';
import { compareValues, identical, valuesEqual } from './compare.ts';
import type { UpdateLog } from './deltaDiff.ts';
import { updateRecord } from './diff.ts';
import { formatDocument, formatValue } from './format.ts';
import { Index, type IndexEntry } from './indexes.ts';
import { compileFilter, valuesAtPath } from './match.ts';
import { planQuery, type Plan } from './planner.ts';
import { walkPlan } from './planWalk.ts';
import { project } from './projection.ts';
import { compileSort } from './sort.ts';
import { applyUpdate, isOperatorUpdate, upsertSeed, validateUpdate } from './update.ts';
import { checkIndexSpec, indexOptionsEqual, listedSpec } from './indexSpec.ts';
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

interface SelectOptions {
  sort?: Document;
  skip?: number;
  limit?: number;
  hint?: string | Document;
  collation?: Collation;
  let?: Document;
}

type Row = [recordId: number, doc: Document];

// sorted-btree is CommonJS: Node hands out the module object (class under `default`), vite's
// interop the class itself.
const btreeExport: unknown = BTreeImport;
const BTree = (typeof btreeExport === 'function' ? btreeExport : BTreeImport.default) as typeof BTreeImport.default;
type BTree<K, V> = InstanceType<typeof BTreeImport.default<K, V>>;

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

  /** `uuid` and `indexes` are given by clone() only: a snapshot of a collection is that collection. */
  constructor(db: string, name: string, host: CollectionHost, options: Document = {}, uuid: Binary = new UUID(), indexes?: Index[]) {
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
    const copy = new Collection(this.#db, this.#name, host, this.options, this.uuid, this.#indexes.map((index) => index.clone()));
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

  count(filter: Document, options: { skip?: number; limit?: number; hint?: string | Document; collation?: Collation } = {}): number {
    return this.#countKeys(filter, options) ?? this.#select(filter, options).length;
  }

  /**
   * mongod's COUNT_SCAN: a count whose filter is only equalities of scalars on the fields of one
   * plain index (not multikey, sparse, partial, collated or special) is the number of keys in the
   * index's ranges, with no document read. Undefined when the count needs the documents.
   */
  #countKeys(filter: Document, options: { skip?: number; limit?: number; hint?: string | Document; collation?: Collation }): number | undefined {
    const entries = Object.entries(filter);
    if (options.collation || entries.length === 0 || !entries.every(([key, value]) => !key.startsWith('$') && isCountableScalar(value))) return undefined;
    const plan = planQuery(filter, this.#indexes, { hint: options.hint, variables: {} });
    const index = plan.index;
    if (!index || index.multikey || index.spec.sparse || index.spec.partialFilterExpression || index.spec.collation) return undefined;
    if (!Object.values(index.spec.key).every((direction) => typeof direction === 'number')) return undefined;
    // Equalities on a prefix of the index's fields are point bounds that say all the filter says.
    const prefix = new Set(index.fields.slice(0, entries.length).map(({ path }) => path));
    if (!entries.every(([key]) => prefix.has(key))) return undefined;
    const skip = options.skip ?? 0;
    const limit = options.limit ?? 0;
    const stopAfter = limit > 0 ? skip + limit : Infinity;
    // The tree's own range walk, counting: no key is compared or yielded one by one.
    let keys = 0;
    const counted = (): { break: true } | undefined => (++keys >= stopAfter ? { break: true } : undefined);
    for (const { start, end } of plan.ranges) {
      if (keys >= stopAfter) break;
      index.tree.forRange(start, end, true, counted);
    }
    this.lastExamined = keys;
    this.lastIndexUsed = index.name;
    return Math.max(0, limit > 0 ? Math.min(keys - skip, limit) : keys - skip);
  }

  /**
   * distinct as mongod answers it: values that compare equal under the collation are one value
   * (the first met stands for them), listed in the collation's order.
   */
  distinct(key: string, filter: Document, options: { collation?: Collation } = {}): unknown[] {
    const compare = collationComparator(options.collation);
    const out: unknown[] = [];
    for (const [, d] of this.#select(filter, options)) {
      for (const v of valuesAtPath(d, key, true)) {
        if (v === undefined || Array.isArray(v)) continue;
        if (!out.some((o) => compare(o, v) === 0)) out.push(cloneValue(v));
      }
    }
    return out.sort(compare);
  }

  update(spec: UpdateSpec): UpdateResult {
    validateUpdate(spec.u);
    if (spec.multi && !Array.isArray(spec.u) && !isOperatorUpdate(spec.u)) {
      throw new CommandError('FailedToParse', 'multi update is not supported for replacement-style update');
    }
    const targets = this.#select(spec.q, { sort: spec.sort, hint: spec.hint, collation: spec.collation, let: spec.let, limit: spec.multi ? 0 : 1 });
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
    const targets = this.#select(spec.q, { hint: spec.hint, collation: spec.collation, let: spec.let, limit: spec.limit });
    const changes = targets.map(([id, before]) => this.#deleteRecord(id, before));
    return { deleted: changes.length, changes };
  }

  findAndModify(spec: FindAndModifySpec): FindAndModifyResult {
    const query = spec.query ?? {};
    if (!spec.remove) validateUpdate(spec.update ?? {});
    const [target] = this.#select(query, { sort: spec.sort, hint: spec.hint, collation: spec.collation, let: spec.let, limit: 1 });
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
    const numIndexesBefore = this.#indexes.length;
    const fresh: Index[] = [];
    for (const spec of specs) {
      checkIndexSpec(spec);
      const existing = [...this.#indexes, ...fresh];
      const sameName = existing.find((i) => i.name === spec.name);
      const sameKey = existing.filter((i) => valuesEqual(i.spec.key, spec.key));
      if (sameName) {
        if (valuesEqual(sameName.spec.key, spec.key) && indexOptionsEqual(sameName.spec, spec)) continue;
        if (valuesEqual(sameName.spec.key, spec.key)) {
          throw new CommandError('IndexOptionsConflict', `An equivalent index already exists with the same name but different options. Requested index: ${formatDocument(listedSpec(spec))}, existing index: ${formatDocument(listedSpec(sameName.spec))}`);
        }
        throw new CommandError('IndexKeySpecsConflict', `An existing index has the same name as the requested index. When index names are not specified, they are auto generated and can cause conflicts. Please refer to our documentation. Requested index: ${formatDocument(listedSpec(spec))}, existing index: ${formatDocument(listedSpec(sameName.spec))}`);
      }
      const twin = sameKey[0];
      if (twin && indexOptionsEqual(twin.spec, spec)) {
        throw new CommandError('IndexOptionsConflict', `Index already exists with a different name: ${twin.name}`);
      }
      if (twin && !twin.spec.partialFilterExpression && !spec.partialFilterExpression) {
        throw new CommandError('IndexOptionsConflict', `An equivalent index already exists with a different name and options. Requested index: ${formatDocument(listedSpec(spec))}, existing index: ${formatDocument(listedSpec(twin.spec))}`);
      }
      fresh.push(this.#buildIndex(spec));
    }
    this.#indexes.push(...fresh);
    if (fresh.length > 0) this.indexEpoch++;
    const numIndexesAfter = this.#indexes.length;
    return fresh.length === 0
      ? { numIndexesBefore, numIndexesAfter, note: 'all indexes already exist' }
      : { numIndexesBefore, numIndexesAfter };
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
    const nIndexesWas = this.#indexes.length;
    if (which === '*') {
      this.#indexes.splice(1);
      this.indexEpoch++;
      return { nIndexesWas };
    }
    const targets = (Array.isArray(which) ? which : [which]).map((w) => {
      const found = typeof w === 'string' ? this.#indexes.find((i) => i.name === w) : this.#indexes.find((i) => valuesEqual(i.spec.key, w));
      if (!found) {
        throw typeof w === 'string'
          ? new CommandError('IndexNotFound', `index not found with name [${w}]`)
          : new CommandError('IndexNotFound', `can't find index with key: ${formatDocument(w)}`);
      }
      if (found.name === '_id_') throw new CommandError('InvalidOptions', 'cannot drop _id index');
      return found;
    });
    for (const t of targets) this.#indexes.splice(this.#indexes.indexOf(t), 1);
    this.indexEpoch++;
    return { nIndexesWas };
  }

  /** Every stored document in natural order, as copies (for aggregation and $lookup). */
  allDocuments(): Document[] {
    return [...this.#records.values()].map((doc) => cloneValue(doc));
  }

  #buildIndex(spec: IndexSpec): Index {
    const index = new Index(spec);
    for (const [id, doc] of this.#records.entries()) {
      if (index.unique) {
        for (const key of index.keysOf(doc)) {
          if (index.findDuplicate(id, key) !== undefined) throw index.duplicateKeyError(this.db, this.name, key);
        }
      }
      index.insert(id, doc);
    }
    return index;
  }

  /** The documents a read selects, in result order, with skip and limit applied. */
  #select(filter: Document, options: SelectOptions): Row[] {
    const clock = this.#host.clock();
    const test = compileFilter(filter, { now: clock.now, clusterTime: clock.clusterTime, variables: options.let, collation: options.collation });
    const sort = options.sort && Object.keys(options.sort).length > 0 ? options.sort : undefined;
    const variables = { NOW: clock.now, CLUSTER_TIME: clock.clusterTime, ...options.let };
    const plan = planQuery(filter, this.#indexes, { sort, hint: options.hint, collation: options.collation, variables });
    const skip = options.skip ?? 0;
    const limit = options.limit ?? 0;
    const stopAfter = limit > 0 && (!sort || plan.ordered) ? skip + limit : Infinity;
    const rows: Row[] = [];
    let examined = 0;
    for (const row of this.#candidates(plan)) {
      examined++;
      if (test(row[1])) rows.push(row);
      if (rows.length >= stopAfter) break;
    }
    this.lastExamined = examined;
    this.lastIndexUsed = plan.index?.name;
    if (sort && !plan.ordered) {
      const cmp = compileSort(sort, options.collation);
      rows.sort((a, b) => cmp(a[1], b[1]));
    }
    return rows.slice(skip, limit > 0 ? skip + limit : undefined);
  }

  /** The document findAndModify answers with: a copy of what its `fields` projection keeps. */
  #shape(doc: Document, fields: Document | undefined, query: Document): Document {
    return cloneValue(project(doc, fields, { filter: query, now: this.#host.clock().now }));
  }

  *#candidates(plan: Plan): Generator<Row> {
    if (!plan.index) {
      yield* this.#records.entries();
      return;
    }
    for (const id of walkPlan(plan.index, plan)) yield [id, this.#records.get(id)!];
  }

  #updateRecord(id: number, before: Document, u: Document | Document[], spec: { q: Document; arrayFilters?: Document[]; let?: Document }): ChangeRecord | undefined {
    const clock = this.#host.clock();
    const replacement = !Array.isArray(u) && !isOperatorUpdate(u);
    const log: UpdateLog | undefined = replacement || Array.isArray(u) ? undefined : [];
    const after = applyUpdate(before, u, { ...clock, arrayFilters: spec.arrayFilters, variables: spec.let, query: spec.q, log });
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
      : applyUpdate(seed, u, { ...clock, arrayFilters: spec.arrayFilters, variables: spec.let, query: q, isUpsertInsert: true });
    return this.insertOne(built);
  }

  /** The mutation path of every command's write. `before`/`after` undefined mean insert/delete. */
  #apply(id: number | undefined, before: Document | undefined, after: Document | undefined, change: ChangeRecord): void {
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
        if (entry.index.findDuplicate(id ?? -1, key) !== undefined) throw entry.index.duplicateKeyError(this.db, this.name, key);
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
    if (after) this.#records.set(recordId, storeVersion(after));
    else this.#records.delete(recordId);
    this.recordsWritten++;
    this.#host.emit(change);
  }

  /**
   * Why a transaction's `changes` to this collection (made on its snapshot, in order) cannot be
   * installed here at its commit, or undefined when they can: each document must still be the
   * version the transaction read (absent for its inserts), and no unique key its final versions
   * hold may belong to a document it did not write. Reads only, so a refused commit leaves
   * nothing behind; the transaction's locks make a refusal unreachable unless the collection
   * was dropped, replaced or given a unique index since the snapshot.
   */
  commitRefusal(changes: ChangeRecord[]): string | undefined {
    // Each document the transaction wrote, by _id: its live record and its final version.
    const touched = new BTree<unknown, { recordId: number | undefined; final: Document | undefined }>(undefined, compareValues);
    for (const change of changes) {
      const id = change.documentKey._id;
      let entry = touched.get(id);
      if (!entry) {
        const recordId = this.#indexes[0]!.findDuplicate(-1, [id]);
        const current = recordId === undefined ? undefined : this.#records.get(recordId);
        const read = change.op === 'insert' ? undefined : change.fullDocumentBefore;
        if (current !== read && !(current && read && identical(current, read))) {
          return `document ${formatValue(id)} in ${this.db}.${this.name} is not the version the transaction read`;
        }
        entry = { recordId, final: undefined };
        touched.set(id, entry);
      }
      entry.final = change.op === 'delete' ? undefined : change.fullDocument;
    }
    const written = new Set<number>();
    for (const { recordId } of touched.values()) if (recordId !== undefined) written.add(recordId);
    for (const index of this.#indexes) {
      if (!index.unique) continue;
      const claimed = new BTree<IndexEntry, true>(undefined, index.compareKeys);
      for (const { recordId, final } of touched.values()) {
        for (const key of final ? index.keysOf(final) : []) {
          // Another final version claims it too, or a document the transaction left holds it.
          const entry = [...key, 0];
          const holder = index.findDuplicate(recordId ?? -1, key);
          if (claimed.has(entry) || (holder !== undefined && !written.has(holder))) {
            return `${index.duplicateKeyError(this.db, this.name, key).message} at commit`;
          }
          claimed.set(entry, true);
        }
      }
    }
    return undefined;
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

/** A value an equality matches exactly as its index key: no arrays, documents, null, regex or NaN. */
function isCountableScalar(value: unknown): boolean {
  if (typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return !Number.isNaN(value);
  return value instanceof ObjectId || (value instanceof Date && !Number.isNaN(value.getTime()));
}
