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

/**
 * The BSON size of a document built once and dropped (an oplog entry, a delta): like
 * documentSize, reusing the sizes known for the stored subtrees it references, but remembering
 * nothing of its own containers, which no later write shares.
 */
export function transientSize(container: object): number {
  const known = knownSizes.get(container);
  if (known !== undefined) return known;
  let size = 4 + 1;
  if (Array.isArray(container)) {
    for (let i = 0; i < container.length; i++) size += elementSize(String(i), container[i], transientSize);
  } else {
    for (const key of Object.keys(container))
      size += elementSize(key, (container as Record<string, unknown>)[key], transientSize);
  }
  return size;
}

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

function elementSize(key: string, value: unknown, sizeOf: (container: object) => number = documentSize): number {
  const header = 1 + Buffer.byteLength(key, 'utf8') + 1; // type byte, name, NUL
  if (Array.isArray(value) || isPlainObject(value)) return header + sizeOf(value);
  switch (typeof value) {
    case 'string':
      return header + 4 + Buffer.byteLength(value, 'utf8') + 1;
    case 'bigint':
      return header + 8;
    case 'boolean':
      return header + 1;
    case 'number':
      // bson's rule: an integral value in int32 range (not -0) is an int32, anything else a double.
      return (
        header +
        (Math.floor(value) === value && value >= INT32_MIN && value <= INT32_MAX && !Object.is(value, -0) ? 4 : 8)
      );
    case 'object': {
      // The fixed-size types every oplog entry holds (ts, wall, ui, lsid.id), as bson counts them.
      if (value === null) return header;
      if (value instanceof Date) return header + 8;
      const bsonType = (value as { _bsontype?: string })._bsontype;
      if (bsonType === 'Timestamp' || bsonType === 'Long' || bsonType === 'Double') return header + 8;
      if (bsonType === 'Int32') return header + 4;
      if (bsonType === 'ObjectId') return header + 12;
      if (bsonType === 'Binary') {
        const binary = value as { position: number; sub_type: number };
        return header + 4 + 1 + binary.position + (binary.sub_type === 2 ? 4 : 0);
      }
      break;
    }
  }
  // Every other value as bson counts it alone: `{key: value}` less its 5 bytes of framing.
  return calculateObjectSize({ [key]: value }) - 5;
}
