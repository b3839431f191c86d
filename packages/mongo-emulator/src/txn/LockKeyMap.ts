import BTreeImport from 'sorted-btree';
import { compareValues } from '../engine/compare.ts';
import type { LockKey } from './lockKeys.ts';

// sorted-btree is CommonJS: Node hands out the module object, vite's interop the class itself.
const btreeExport: unknown = BTreeImport;
const BTree = (typeof btreeExport === 'function' ? btreeExport : BTreeImport.default) as typeof BTreeImport.default;
type BTree<K, V> = InstanceType<typeof BTreeImport.default<K, V>>;

/**
 * A map from LockKey to V: one B-tree of key values (BSON equality, so 1, 1.0 and 1n are one
 * key) per namespace and index, found by name. A single tree ordered by namespace, index, then
 * values compared the two names on every step of every descent.
 */
export class LockKeyMap<V> {
  readonly #byIndex = new Map<string, BTree<readonly unknown[], V>>();
  #size = 0;

  get size(): number {
    return this.#size;
  }

  get(key: LockKey): V | undefined {
    return this.#byIndex.get(treeName(key))?.get(key.key);
  }

  set(key: LockKey, value: V): void {
    const name = treeName(key);
    let tree = this.#byIndex.get(name);
    if (!tree) this.#byIndex.set(name, (tree = new BTree<readonly unknown[], V>(undefined, compareKeyValues)));
    if (tree.set(key.key, value)) this.#size++;
  }

  delete(key: LockKey): void {
    const name = treeName(key);
    const tree = this.#byIndex.get(name);
    if (!tree?.delete(key.key)) return;
    this.#size--;
    if (tree.size === 0) this.#byIndex.delete(name);
  }
}

/** Namespace and index names hold no NUL (mongod refuses them), so the pair reads back one way. */
function treeName(key: LockKey): string {
  return `${key.ns}\u0000${key.index}`;
}

function compareKeyValues(a: readonly unknown[], b: readonly unknown[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const c = compareValues(a[i], b[i]);
    if (c !== 0) return c;
  }
  return a.length - b.length;
}
