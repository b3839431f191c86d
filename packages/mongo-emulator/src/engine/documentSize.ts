// The BSON size of a document to be stored, as bson's calculateObjectSize counts it, in time
// proportional to what the write changed: stored versions never change and share untouched
// subtrees (storedDocument.ts), so the size of each embedded document or array is remembered
// and a new version re-adds only the containers its update copied.
import { calculateObjectSize } from 'bson';
import { isPlainObject } from './updatePath.ts';

/** Sizes of containers already counted; only ever holds immutable (stored or about to be) values. */
const knownSizes = new WeakMap<object, number>();

export function documentSize(container: object): number {
  const known = knownSizes.get(container);
  if (known !== undefined) return known;
  let size = 4 + 1; // length prefix and terminating NUL
  if (Array.isArray(container)) {
    for (let i = 0; i < container.length; i++) size += elementSize(String(i), container[i]);
  } else {
    for (const key of Object.keys(container)) size += elementSize(key, (container as Record<string, unknown>)[key]);
  }
  knownSizes.set(container, size);
  return size;
}

function elementSize(key: string, value: unknown): number {
  const header = 1 + Buffer.byteLength(key, 'utf8') + 1; // type byte, name, NUL
  if (Array.isArray(value) || isPlainObject(value)) return header + documentSize(value);
  if (typeof value === 'string') return header + 4 + Buffer.byteLength(value, 'utf8') + 1;
  if (typeof value === 'bigint') return header + 8;
  // Every other value as bson counts it alone: `{key: value}` less its 5 bytes of framing.
  return calculateObjectSize({ [key]: value }) - 5;
}
