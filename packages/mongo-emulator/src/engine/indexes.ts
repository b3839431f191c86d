// One index: an ordered B-tree of (key values..., recordId) entries. Keys are extracted as mongod
// does: a missing field indexes as null, an array field indexes each element (multikey), sparse
// indexes skip documents lacking every key field, partial ones those failing their filter.
import BTreeImport from 'sorted-btree';
import { CommandError } from '../errors.ts';
import { cloneValue } from './clone.ts';
import { canonicalType, compareValues } from './compare.ts';
import { formatValue } from './format.ts';
import { compileFilter, valuesAtPath, type Predicate } from './match.ts';
import { toDouble } from './numeric.ts';
import { isPlainObject } from './updatePath.ts';
import type { Document, IndexSpec } from './types.ts';

// sorted-btree is CommonJS: Node hands out the module object (class under `default`), vite's
// interop the class itself.
const btreeExport: unknown = BTreeImport;
const BTree = (typeof btreeExport === 'function' ? btreeExport : BTreeImport.default) as typeof BTreeImport.default;
type BTree<K, V> = InstanceType<typeof BTreeImport.default<K, V>>;

/** Sorts below / above every BSON value: the open ends of index bounds. */
export const KEY_MIN = Symbol('keyMin');
export const KEY_MAX = Symbol('keyMax');

/** A key entry: one value per index field, then the record id. */
export type IndexEntry = unknown[];

/** Most keys one document may produce in a multikey index before the write is refused. */
export const INDEX_KEYS_PER_DOCUMENT_MAX = 10_000;

/** The start (side -1) or end (side 1) of one canonical type bracket, for one-sided ranges. */
export class BracketBound {
  readonly rank: number;
  readonly side: -1 | 1;
  constructor(rank: number, side: -1 | 1) {
    this.rank = rank;
    this.side = side;
  }
}

function boundVersus(bound: BracketBound, v: unknown): number {
  if (v === KEY_MIN) return 1;
  if (v === KEY_MAX) return -1;
  if (v instanceof BracketBound) return Math.sign(bound.rank - v.rank) || Math.sign(bound.side - v.side);
  const rank = canonicalType(v);
  return rank === bound.rank ? bound.side : Math.sign(bound.rank - rank);
}

function compareKeyPart(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === KEY_MIN || b === KEY_MAX) return -1;
  if (a === KEY_MAX || b === KEY_MIN) return 1;
  if (a instanceof BracketBound) return boundVersus(a, b);
  if (b instanceof BracketBound) return -boundVersus(b, a);
  return compareValues(a, b);
}

/** Scratch pair for nextHigherPair, so a lookup allocates none (the engine is synchronous). */
const reusedPair: [IndexEntry, number] = [[], 0];

export class Index {
  readonly spec: IndexSpec;
  readonly fields: { path: string; direction: number }[];
  /** Each field's path split at its dots, for the shared-subtree test of readsChangeBetween. */
  readonly #fieldParts: string[][];
  readonly tree: BTree<IndexEntry, number>;
  /** Set once any document produced more than one key: ranges and sorts must then be careful. */
  multikey = false;
  readonly #partial: Predicate | undefined;
  /** Orders key entries (values then record id) as the tree does. */
  readonly compareKeys: (a: IndexEntry, b: IndexEntry) => number;

  /** `original` is given by clone() only: its parsed spec is shared, its entries copy-on-write. */
  constructor(spec: IndexSpec, original?: Index) {
    if (original) {
      // A snapshot clones every index of every collection it touches: share what never changes.
      this.spec = original.spec;
      this.fields = original.fields;
      this.#fieldParts = original.#fieldParts;
      this.compareKeys = original.compareKeys;
      this.#partial = original.#partial;
      this.tree = original.tree.clone();
      this.multikey = original.multikey;
      return;
    }
    this.spec = cloneValue(spec);
    this.fields = Object.entries(spec.key).map(([path, dir]) => ({
      path,
      direction: typeof dir === 'number' || typeof dir === 'bigint' ? (toDouble(dir) < 0 ? -1 : 1) : 1,
    }));
    this.#fieldParts = this.fields.map(({ path }) => path.split('.'));
    const n = this.fields.length;
    const directions = this.fields.map((f) => f.direction);
    this.compareKeys = (a, b) => {
      for (let i = 0; i < n; i++) {
        const c = compareKeyPart(a[i], b[i]);
        if (c !== 0) return c * directions[i]!;
      }
      return compareKeyPart(a[n], b[n]);
    };
    this.tree = new BTree<IndexEntry, number>(undefined, this.compareKeys);
    this.#partial = spec.partialFilterExpression
      ? compileFilter(spec.partialFilterExpression, { now: new Date(0) })
      : undefined;
  }

  get name(): string {
    return this.spec.name;
  }

  /** The same index in O(1): the B-tree's nodes are shared and copied by whichever side writes first. */
  clone(): Index {
    return new Index(this.spec, this);
  }

  get unique(): boolean {
    return this.spec.unique === true || this.spec.name === '_id_';
  }

  /** Whether the index holds every document (so a walk over it can replace a scan). */
  get complete(): boolean {
    return !this.spec.sparse && !this.#partial;
  }

  /** The key tuples (without record id) a document contributes; empty when it is not indexed. */
  keysOf(doc: Document): unknown[][] {
    if (this.#partial && !this.#partial(doc)) return [];
    const perField = this.fields.map(({ path }) => valuesAtPath(doc, path, false));
    if (this.spec.sparse && perField.every((vals) => vals.every((v) => v === undefined))) return [];
    let tuples: unknown[][] = [[]];
    let arrayFields = 0;
    for (const [i, vals] of perField.entries()) {
      const expanded = expandKeyValues(vals);
      if (expanded.length > 1 || vals.some(Array.isArray)) arrayFields++;
      if (arrayFields > 1) {
        throw new CommandError(
          'CannotIndexParallelArrays',
          `cannot index parallel arrays [${this.fields[i]!.path}] [${this.fields.find((_, j) => j < i && perField[j]!.some(Array.isArray))?.path ?? ''}]`,
        );
      }
      const next: unknown[][] = [];
      for (const t of tuples) for (const v of expanded) next.push([...t, v]);
      tuples = next;
      if (tuples.length > INDEX_KEYS_PER_DOCUMENT_MAX) {
        throw new CommandError('BadValue', `too many index keys for one document in index ${this.name}`);
      }
    }
    return tuples;
  }

  /**
   * Whether an update from `before` to `after` may have changed this document's keys. Versions
   * share untouched subtrees, so a field path reaching one shared subtree (or one primitive)
   * reads the same keys; a partial filter may read any field, so it always counts as changed.
   */
  readsChangeBetween(before: Document, after: Document): boolean {
    if (this.#partial) return true;
    return this.#fieldParts.some((parts) => !sharedAtPath(before, after, parts));
  }

  insert(recordId: number, doc: Document): void {
    this.insertKeys(recordId, this.keysOf(doc));
  }

  insertKeys(recordId: number, keys: unknown[][]): void {
    if (keys.length > 1) this.multikey = true;
    for (const key of keys) this.tree.set([...key, recordId], recordId);
  }

  removeKeys(recordId: number, keys: unknown[][]): void {
    for (const key of keys) this.tree.delete([...key, recordId]);
  }

  /**
   * The first entry of another record with the same key, if this unique index has one. One
   * descent per entry met (a unique index holds at most the record itself before another): a
   * range walk cost several times as much, on every write, commit and _id lookup.
   */
  findDuplicate(recordId: number, key: unknown[]): number | undefined {
    const n = this.fields.length;
    let pair = this.tree.nextHigherPair([...key, KEY_MIN], reusedPair);
    while (pair !== undefined) {
      const [entry, id] = pair;
      for (let i = 0; i < n; i++) if (compareKeyPart(entry[i], key[i]) !== 0) return undefined;
      if (id !== recordId) return id;
      pair = this.tree.nextHigherPair(entry, reusedPair);
    }
    return undefined;
  }

  /** The DuplicateKey error mongod raises for this index and key. */
  duplicateKeyError(db: string, coll: string, key: unknown[]): CommandError {
    const keyValue: Document = {};
    this.fields.forEach(({ path }, i) => {
      keyValue[path] = key[i] === undefined ? null : key[i];
    });
    const shown = Object.entries(keyValue)
      .map(([k, v]) => `${k}: ${formatValue(v)}`)
      .join(', ');
    return new CommandError(
      'DuplicateKey',
      `E11000 duplicate key error collection: ${db}.${coll} index: ${this.name} dup key: { ${shown} }`,
      { extra: { keyPattern: cloneValue(this.spec.key), keyValue: cloneValue(keyValue) } },
    );
  }
}

/** Whether `a` and `b` hold the same value at `parts` because they share it (false when unsure). */
function sharedAtPath(a: unknown, b: unknown, parts: string[]): boolean {
  for (const part of parts) {
    if (a === b) return true;
    // Arrays fan a path out over their elements: not worth following here.
    if (!isPlainObject(a) || !isPlainObject(b)) return false;
    a = a[part];
    b = b[part];
  }
  return a === b;
}

/** The values one field contributes to index keys: array elements, null for missing. */
function expandKeyValues(values: unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const v of values) {
    if (v === undefined) out.push(null);
    else if (Array.isArray(v)) {
      if (v.length === 0) out.push(undefined);
      for (const el of v) if (!out.some((o) => compareValues(o, el) === 0)) out.push(el);
    } else if (!out.some((o) => compareValues(o, v) === 0)) out.push(v);
  }
  return out.length === 0 ? [null] : out;
}
