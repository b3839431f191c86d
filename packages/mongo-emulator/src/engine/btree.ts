// sorted-btree is CommonJS: Node hands out the module object (class under `default`), vite's
// interop the class itself. One place resolves it for the engine's modules.
import BTreeImport from 'sorted-btree';

const btreeExport: unknown = BTreeImport;
export const BTree = (
  typeof btreeExport === 'function' ? btreeExport : BTreeImport.default
) as typeof BTreeImport.default;
export type BTree<K, V> = InstanceType<typeof BTreeImport.default<K, V>>;
