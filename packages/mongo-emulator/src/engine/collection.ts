// One collection: documents in insertion order plus indexes. Every mutation goes through
// #apply, the single place where a change is checked against indexes, stored and reported.
import { Binary, ObjectId, UUID } from 'bson';
import { CommandError } from '../errors.ts';
import { cloneValue } from './clone.ts';
import { compareValues } from './compare.ts';
import { compileFilter } from './match.ts';
import { getPath } from './path.ts';
import { project } from './projection.ts';
import { applyUpdate, isOperatorUpdate } from './update.ts';
import type {
  ChangeRecord,
  DeleteSpec,
  Document,
  FindAndModifySpec,
  FindAndModifyResult,
  FindOptions,
  IndexSpec,
  UpdateResult,
  UpdateSpec,
} from './types.ts';

/** What a collection needs from its catalog: the clock and the write observer. */
export interface CollectionHost {
  now(): Date;
  emit(change: ChangeRecord): void;
}

interface StoredIndex {
  spec: IndexSpec;
}

export class Collection {
  readonly db: string;
  readonly name: string;
  readonly uuid: Binary;
  readonly options: Document;
  /** Documents examined by the last read (planner diagnostics for tests and benchmarks). */
  lastExamined = 0;

  readonly #host: CollectionHost;
  readonly #records = new Map<number, Document>();
  #nextRecordId = 1;
  readonly #indexes: StoredIndex[] = [];

  constructor(db: string, name: string, host: CollectionHost, options: Document = {}) {
    this.db = db;
    this.name = name;
    this.uuid = new UUID();
    this.options = options;
    this.#host = host;
    this.#indexes.push({ spec: { key: { _id: 1 }, name: '_id_' } });
  }

  get size(): number {
    return this.#records.size;
  }

  insertOne(doc: Document): ChangeRecord {
    const stored = '_id' in doc ? cloneValue(doc) : { _id: new ObjectId(), ...cloneValue(doc) };
    const change: ChangeRecord = {
      op: 'insert',
      db: this.db,
      coll: this.name,
      documentKey: { _id: stored._id },
      fullDocument: cloneValue(stored),
    };
    this.#apply(undefined, stored, change);
    return change;
  }

  find(filter: Document, options: FindOptions = {}): Document[] {
    let rows = this.#matching(filter, options).map(([, d]) => d);
    if (options.sort && Object.keys(options.sort).length > 0) rows = sortDocuments(rows, options.sort);
    const skip = options.skip ?? 0;
    const end = options.limit ? skip + options.limit : undefined;
    return rows.slice(skip, end).map((d) => project(cloneValue(d), options.projection));
  }

  count(filter: Document, options: { skip?: number; limit?: number } = {}): number {
    const n = Math.max(0, this.#matching(filter, {}).length - (options.skip ?? 0));
    return options.limit ? Math.min(n, options.limit) : n;
  }

  distinct(key: string, filter: Document): unknown[] {
    const out: unknown[] = [];
    for (const [, d] of this.#matching(filter, {})) {
      const v = getPath(d, key);
      for (const item of Array.isArray(v) ? v : [v]) {
        if (item !== undefined && !out.some((o) => compareValues(o, item) === 0)) out.push(cloneValue(item));
      }
    }
    return out.sort(compareValues);
  }

  update(spec: UpdateSpec): UpdateResult {
    const targets = this.#matching(spec.q, { let: spec.let });
    const chosen = spec.multi ? targets : targets.slice(0, 1);
    const changes: ChangeRecord[] = [];
    let modified = 0;
    for (const [id, before] of chosen) {
      const change = this.#updateRecord(id, before, spec.u, spec.arrayFilters);
      if (change) {
        modified++;
        changes.push(change);
      }
    }
    if (chosen.length === 0 && spec.upsert) {
      const change = this.#upsert(spec.q, spec.u, spec.arrayFilters);
      return { matched: 0, modified: 0, upsertedId: change.documentKey._id, changes: [change] };
    }
    return { matched: chosen.length, modified, changes };
  }

  delete(spec: DeleteSpec): { deleted: number; changes: ChangeRecord[] } {
    const targets = this.#matching(spec.q, { let: spec.let });
    const chosen = spec.limit === 1 ? targets.slice(0, 1) : targets;
    const changes = chosen.map(([id, before]) => {
      const change: ChangeRecord = {
        op: 'delete',
        db: this.db,
        coll: this.name,
        documentKey: { _id: cloneValue(before._id) },
        fullDocumentBefore: cloneValue(before),
      };
      this.#apply(id, undefined, change);
      return change;
    });
    return { deleted: changes.length, changes };
  }

  findAndModify(spec: FindAndModifySpec): FindAndModifyResult {
    let targets = this.#matching(spec.query ?? {}, { let: spec.let });
    if (spec.sort && Object.keys(spec.sort).length > 0) {
      const sorted = sortDocuments(targets.map(([, d]) => d), spec.sort);
      targets = sorted.map((d) => targets.find(([, t]) => t === d)!);
    }
    const target = targets[0];
    if (spec.remove) {
      if (!target) return { value: null, lastErrorObject: { n: 0 }, changes: [] };
      const [id, before] = target;
      const change: ChangeRecord = {
        op: 'delete',
        db: this.db,
        coll: this.name,
        documentKey: { _id: cloneValue(before._id) },
        fullDocumentBefore: cloneValue(before),
      };
      this.#apply(id, undefined, change);
      return { value: project(cloneValue(before), spec.fields), lastErrorObject: { n: 1 }, changes: [change] };
    }
    const u = spec.update ?? {};
    if (!target) {
      if (!spec.upsert) return { value: null, lastErrorObject: { n: 0, updatedExisting: false }, changes: [] };
      const change = this.#upsert(spec.query ?? {}, u, spec.arrayFilters);
      const after = change.op === 'insert' ? change.fullDocument : null;
      return {
        value: spec.new && after ? project(cloneValue(after), spec.fields) : null,
        lastErrorObject: { n: 1, updatedExisting: false, upserted: change.documentKey._id },
        changes: [change],
      };
    }
    const [id, before] = target;
    const beforeCopy = cloneValue(before);
    const change = this.#updateRecord(id, before, u, spec.arrayFilters);
    const after = this.#records.get(id)!;
    return {
      value: project(cloneValue(spec.new ? after : beforeCopy), spec.fields),
      lastErrorObject: { n: 1, updatedExisting: true },
      changes: change ? [change] : [],
    };
  }

  createIndexes(specs: IndexSpec[]): { numIndexesBefore: number; numIndexesAfter: number; note?: string } {
    const numIndexesBefore = this.#indexes.length;
    for (const spec of specs) {
      if (this.#indexes.some((i) => i.spec.name === spec.name)) continue;
      this.#indexes.push({ spec: cloneValue(spec) });
    }
    const numIndexesAfter = this.#indexes.length;
    return numIndexesAfter === numIndexesBefore
      ? { numIndexesBefore, numIndexesAfter, note: 'all indexes already exist' }
      : { numIndexesBefore, numIndexesAfter };
  }

  listIndexes(): Document[] {
    return this.#indexes.map(({ spec }) => ({ v: 2, ...cloneValue(spec) }));
  }

  dropIndexes(which: string | string[] | Document): { nIndexesWas: number } {
    const nIndexesWas = this.#indexes.length;
    const names = which === '*' ? this.#indexes.map((i) => i.spec.name).filter((n) => n !== '_id_') : Array.isArray(which) ? which : [which];
    for (const n of names) {
      const at = this.#indexes.findIndex((i) => (typeof n === 'string' ? i.spec.name === n : compareValues(i.spec.key, n) === 0));
      if (at < 0) throw new CommandError('IndexNotFound', `index not found with name [${String(n)}]`);
      if (this.#indexes[at]!.spec.name === '_id_') throw new CommandError('InvalidOptions', 'cannot drop _id index');
      this.#indexes.splice(at, 1);
    }
    return { nIndexesWas };
  }

  /** Every stored document, in natural order, as copies (for aggregation and $lookup). */
  allDocuments(): Document[] {
    return [...this.#records.values()].map(cloneValue);
  }

  #matching(filter: Document, options: { let?: Document }): [number, Document][] {
    const test = compileFilter(filter, { now: this.#host.now(), variables: options.let });
    const out: [number, Document][] = [];
    this.lastExamined = 0;
    for (const entry of this.#records) {
      this.lastExamined++;
      if (test(entry[1])) out.push(entry);
    }
    return out;
  }

  #updateRecord(id: number, before: Document, u: Document | Document[], arrayFilters?: Document[]): ChangeRecord | undefined {
    const after = applyUpdate(before, u, { now: this.#host.now(), arrayFilters });
    if (compareValues(before, after) === 0) return undefined;
    const replace = !Array.isArray(u) && !isOperatorUpdate(u);
    const common = {
      db: this.db,
      coll: this.name,
      documentKey: { _id: cloneValue(before._id) },
      fullDocumentBefore: cloneValue(before),
      fullDocument: cloneValue(after),
    };
    const change: ChangeRecord = replace
      ? { op: 'replace', ...common }
      : { op: 'update', ...common, updateDescription: { updatedFields: {}, removedFields: [], truncatedArrays: [] } };
    this.#apply(id, after, change);
    return change;
  }

  #upsert(q: Document, u: Document | Document[], arrayFilters?: Document[]): ChangeRecord {
    const seed: Document = {};
    for (const [k, v] of Object.entries(q)) if (!k.startsWith('$') && (v === null || typeof v !== 'object' || !Object.keys(v).some((x) => x.startsWith('$')))) seed[k] = v;
    const built = applyUpdate(seed, u, { now: this.#host.now(), arrayFilters });
    return this.insertOne(built);
  }

  /** The one mutation path: check indexes, store, report. `after` undefined means delete. */
  #apply(id: number | undefined, after: Document | undefined, change: ChangeRecord): void {
    if (after) this.#checkUnique(id, after);
    if (after === undefined) this.#records.delete(id!);
    else this.#records.set(id ?? this.#nextRecordId++, after);
    this.#host.emit(change);
  }

  #checkUnique(id: number | undefined, doc: Document): void {
    for (const { spec } of this.#indexes) {
      if (spec.name !== '_id_' && !spec.unique) continue;
      const fields = Object.keys(spec.key);
      const key = fields.map((f) => getPath(doc, f) ?? null);
      for (const [otherId, other] of this.#records) {
        if (otherId === id) continue;
        if (fields.every((f, i) => compareValues(getPath(other, f) ?? null, key[i]) === 0)) {
          const keyValue = Object.fromEntries(fields.map((f, i) => [f, key[i]]));
          throw new CommandError(
            'DuplicateKey',
            `E11000 duplicate key error collection: ${this.db}.${this.name} index: ${spec.name} dup key: ${JSON.stringify(keyValue)}`,
            { extra: { keyPattern: cloneValue(spec.key), keyValue } },
          );
        }
      }
    }
  }
}

export function sortDocuments(docs: Document[], sort: Document): Document[] {
  const fields = Object.entries(sort);
  return [...docs].sort((a, b) => {
    for (const [f, dir] of fields) {
      const c = compareValues(getPath(a, f) ?? null, getPath(b, f) ?? null);
      if (c !== 0) return Number(dir) < 0 ? -c : c;
    }
    return 0;
  });
}
