import type { BSONSymbol, ObjectId } from 'bson';
import BTreeImport from 'sorted-btree';
import { compareValues } from '../engine/compare.ts';
import type { LockKey } from './lockKeys.ts';

// sorted-btree is CommonJS: Node hands out the module object, vite's interop the class itself.
const btreeExport: unknown = BTreeImport;
const BTree = (typeof btreeExport === 'function' ? btreeExport : BTreeImport.default) as typeof BTreeImport.default;
type BTree<K, V> = InstanceType<typeof BTreeImport.default<K, V>>;

/**
 * A map from LockKey to V with BSON equality of the key values (1, 1.0 and 1n are one key).
 * Keys whose values are all strings (symbols included) or ObjectIds, the usual _id and unique
 * keys, are hashed: each such value has one spelling, and a value of another type never equals
 * one of theirs. Any other key goes in a B-tree of its namespace and index, ordered by
 * compareValues. Which side a key takes depends only on its values' types, so equal keys always
 * meet. A single B-tree over (namespace, index, values) cost 7% of the engine's CPU at c=32.
 */
export class LockKeyMap<V> {
  readonly #hashed = new Map<string, V>();
  readonly #byIndex = new Map<string, BTree<readonly unknown[], V>>();
  #treeSize = 0;

  get size(): number {
    return this.#hashed.size + this.#treeSize;
  }

  get(key: LockKey): V | undefined {
    const hash = hashOf(key);
    return hash === undefined ? this.#byIndex.get(treeName(key))?.get(key.key) : this.#hashed.get(hash);
  }

  set(key: LockKey, value: V): void {
    const hash = hashOf(key);
    if (hash !== undefined) {
      this.#hashed.set(hash, value);
      return;
    }
    const name = treeName(key);
    let tree = this.#byIndex.get(name);
    if (!tree) this.#byIndex.set(name, (tree = new BTree<readonly unknown[], V>(undefined, compareKeyValues)));
    if (tree.set(key.key, value)) this.#treeSize++;
  }

  delete(key: LockKey): void {
    const hash = hashOf(key);
    if (hash !== undefined) {
      this.#hashed.delete(hash);
      return;
    }
    const name = treeName(key);
    const tree = this.#byIndex.get(name);
    if (!tree?.delete(key.key)) return;
    this.#treeSize--;
    if (tree.size === 0) this.#byIndex.delete(name);
  }
}

/** Namespace and index names hold no NUL (mongod refuses them), so the pair reads back one way. */
function treeName(key: LockKey): string {
  return `${key.ns}\u0000${key.index}`;
}

/** The one spelling of a key of strings and ObjectIds, or undefined for any other key. */
function hashOf(key: LockKey): string | undefined {
  let hash = treeName(key);
  for (const value of key.key) {
    if (typeof value === 'string') {
      hash += spellString(value);
      continue;
    }
    // By _bsontype, as compareValues ranks them: a value from another copy of bson is the same type.
    const type = typeof value === 'object' && value !== null ? (value as { _bsontype?: unknown })._bsontype : undefined;
    if (type === 'ObjectId') hash += `\u0000o${(value as ObjectId).toHexString()}`;
    else if (type === 'BSONSymbol') hash += spellString((value as BSONSymbol).value);
    else return undefined;
  }
  return hash;
}

/** Length first: a BSON string may hold NUL, so a separator alone could not end it. */
function spellString(value: string): string {
  return `\u0000s${value.length}:${value}`;
}

function compareKeyValues(a: readonly unknown[], b: readonly unknown[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const c = compareValues(a[i], b[i]);
    if (c !== 0) return c;
  }
  return a.length - b.length;
}
