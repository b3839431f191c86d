// MongoDB's total order over BSON values (mongod: BSONElement::compareElements and
// canonicalizeBSONType). Used by sort, index keys, $min/$max and range queries, so it must agree
// with mongod exactly: numbers of every width compare by exact value, strings by UTF-8 bytes.
import { type Binary, Decimal128, type ObjectId, type Timestamp } from 'bson';
import { compareWithDecimal, decimalToDouble } from './decimal128.ts';

/** Canonical type ranks as mongod assigns them; values of one rank compare by value. */
export const TypeRank = Object.freeze({
  minKey: -1,
  undefined: 0,
  null: 5,
  number: 10,
  string: 15,
  object: 20,
  array: 25,
  binData: 30,
  objectId: 35,
  bool: 40,
  date: 45,
  timestamp: 47,
  regex: 50,
  dbPointer: 55,
  code: 60,
  codeWithScope: 65,
  maxKey: 127,
} as const);

function bsontype(v: object): string | undefined {
  return (v as { _bsontype?: string })._bsontype;
}

/** The canonical rank of a value (mongod's canonicalizeBSONType). */
export function canonicalType(v: unknown): number {
  switch (typeof v) {
    case 'undefined':
      return TypeRank.undefined;
    case 'number':
    case 'bigint':
      return TypeRank.number;
    case 'string':
      return TypeRank.string;
    case 'boolean':
      return TypeRank.bool;
  }
  if (v === null) return TypeRank.null;
  if (Array.isArray(v)) return TypeRank.array;
  if (v instanceof Date) return TypeRank.date;
  switch (bsontype(v as object)) {
    case 'MinKey':
      return TypeRank.minKey;
    case 'MaxKey':
      return TypeRank.maxKey;
    case 'Decimal128':
    case 'Long':
    case 'Int32':
    case 'Double':
      return TypeRank.number;
    case 'BSONSymbol':
      return TypeRank.string;
    case 'Binary':
      return TypeRank.binData;
    case 'ObjectId':
      return TypeRank.objectId;
    case 'Timestamp':
      return TypeRank.timestamp;
    case 'BSONRegExp':
      return TypeRank.regex;
    case 'DBRef':
      return TypeRank.object;
    case 'Code':
      return (v as { scope?: unknown }).scope ? TypeRank.codeWithScope : TypeRank.code;
  }
  if (v instanceof RegExp) return TypeRank.regex;
  return TypeRank.object;
}

const sign = (n: number): number => (n < 0 ? -1 : n > 0 ? 1 : 0);

/** A numeric value in a form that can be compared exactly. */
function toNumeric(v: unknown): number | bigint {
  if (typeof v === 'number' || typeof v === 'bigint') return v;
  const t = bsontype(v as object);
  if (t === 'Long') return BigInt((v as { toString(): string }).toString());
  if (t === 'Decimal128') return decimalToNumber(v as Decimal128);
  return Number((v as { valueOf(): unknown }).valueOf());
}

/** The nearest double of a Decimal128 (for conversions; comparisons go through decimal128.ts). */
export function decimalToNumber(d: Decimal128): number {
  return decimalToDouble(d);
}

/** Exact comparison of doubles and int64s; NaN sorts below every other number, equal to itself. */
export function compareNumbers(a: number | bigint, b: number | bigint): number {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'number' && typeof b === 'number') {
    if (Number.isNaN(a)) return Number.isNaN(b) ? 0 : -1;
    if (Number.isNaN(b)) return 1;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  if (typeof a === 'bigint') return -compareNumbers(b, a) || 0;
  // a is a double, b an int64.
  const n = a as number;
  const big = b as bigint;
  if (Number.isNaN(n)) return -1;
  if (n === Infinity) return 1;
  if (n === -Infinity) return -1;
  const floor = BigInt(Math.floor(n));
  if (Number.isInteger(n)) return floor < big ? -1 : floor > big ? 1 : 0;
  return floor < big ? -1 : 1;
}

/** Code units at or above the first surrogate: where UTF-16 order may differ from code point order. */
const SURROGATE_OR_ABOVE = /[\ud800-\uffff]/;

/** UTF-8 byte order, which is code point order (JS `<` compares UTF-16 units). */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  // UTF-16 unit order is code point order unless a surrogate meets a unit >= 0xE000; without
  // either, the native comparison answers (a third of the loop's time on index keys that share
  // a long prefix, as request ids do).
  if (!SURROGATE_OR_ABOVE.test(a) && !SURROGATE_OR_ABOVE.test(b)) return a < b ? -1 : 1;
  const len = Math.min(a.length, b.length);
  for (let i = 0; i < len; i++) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(i);
    if (ca === cb) continue;
    if (ca >= 0xd800 && cb >= 0xd800) return sign(a.codePointAt(i)! - b.codePointAt(i)!);
    return ca < cb ? -1 : 1;
  }
  return sign(a.length - b.length);
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const len = Math.min(a.length, b.length);
  for (let i = 0; i < len; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return sign(a.length - b.length);
}

function stringOf(v: unknown): string {
  return typeof v === 'string' ? v : String((v as { valueOf(): unknown }).valueOf());
}

function regexParts(v: unknown): [string, string] {
  if (v instanceof RegExp) return [v.source, v.flags];
  const r = v as { pattern: string; options: string };
  return [r.pattern, r.options];
}

/** Element-wise comparison used for both embedded documents and arrays (type, name, value). */
function compareEntries(a: [string, unknown][], b: [string, unknown][], compareNames: boolean): number {
  const len = Math.min(a.length, b.length);
  for (let i = 0; i < len; i++) {
    const [ka, va] = a[i]!;
    const [kb, vb] = b[i]!;
    const byType = sign(canonicalType(va) - canonicalType(vb));
    if (byType !== 0) return byType;
    if (compareNames) {
      const byName = compareStrings(ka, kb);
      if (byName !== 0) return byName;
    }
    const byValue = compareValues(va, vb);
    if (byValue !== 0) return byValue;
  }
  return sign(a.length - b.length);
}

/** MongoDB's comparison of two BSON values: negative, zero or positive. */
export function compareValues(a: unknown, b: unknown): number {
  // Fast paths for the common key types; the general path below gives the same answers.
  if (typeof a === 'string' && typeof b === 'string') return a === b ? 0 : compareStrings(a, b);
  if (typeof a === 'number' && typeof b === 'number' && !Number.isNaN(a) && !Number.isNaN(b))
    return a < b ? -1 : a > b ? 1 : 0;
  if (a instanceof Date && b instanceof Date) return compareNumbers(a.getTime(), b.getTime());
  const ta = canonicalType(a);
  const tb = canonicalType(b);
  if (ta !== tb) return sign(ta - tb);
  switch (ta) {
    case TypeRank.minKey:
    case TypeRank.maxKey:
    case TypeRank.undefined:
    case TypeRank.null:
      return 0;
    case TypeRank.number:
      // A decimal compares exactly, not through the nearest double.
      if (a instanceof Decimal128 || b instanceof Decimal128) return compareWithDecimal(a, b);
      return compareNumbers(toNumeric(a), toNumeric(b));
    case TypeRank.string:
    case TypeRank.code:
      return compareStrings(stringOf(a), stringOf(b));
    case TypeRank.object:
      return compareEntries(Object.entries(a as object), Object.entries(b as object), true);
    case TypeRank.array:
      return compareEntries(
        (a as unknown[]).map((v, i) => [String(i), v]),
        (b as unknown[]).map((v, i) => [String(i), v]),
        false,
      );
    case TypeRank.binData: {
      const x = a as Binary;
      const y = b as Binary;
      return (
        sign(x.length() - y.length()) ||
        sign(x.sub_type - y.sub_type) ||
        compareBytes(x.buffer.subarray(0, x.length()), y.buffer.subarray(0, y.length()))
      );
    }
    case TypeRank.objectId:
      return compareBytes((a as ObjectId).id, (b as ObjectId).id);
    case TypeRank.bool:
      return sign(Number(a) - Number(b));
    case TypeRank.date:
      return compareNumbers((a as Date).getTime(), (b as Date).getTime());
    case TypeRank.timestamp: {
      const x = a as Timestamp;
      const y = b as Timestamp;
      return sign(x.t - y.t) || sign(x.i - y.i);
    }
    case TypeRank.regex: {
      const [pa, fa] = regexParts(a);
      const [pb, fb] = regexParts(b);
      return compareStrings(pa, pb) || compareStrings(fa, fb);
    }
    default:
      return compareStrings(String(a), String(b));
  }
}

/** Equality as MongoDB sees it (1 == 1n == 1.0, ObjectIds by bytes, documents by field order). */
export function valuesEqual(a: unknown, b: unknown): boolean {
  return compareValues(a, b) === 0;
}

/**
 * Byte-level sameness as mongod judges a no-op update: same field names in the same order and
 * the same BSON types (an int that became a long is a change, though the values compare equal).
 */
export function identical(a: unknown, b: unknown): boolean {
  // A subtree shared by two versions of a document is identical unread.
  if (a === b) return true;
  if (typeof a !== typeof b) return false;
  if (typeof a === 'number') return a === b || (Number.isNaN(a) && Number.isNaN(b as number));
  if (a === null || b === null || typeof a !== 'object') return a === b;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((v, i) => identical(v, b[i]));
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (Object.getPrototypeOf(a) !== Object.prototype) return compareValues(a, b) === 0;
  const ka = Object.keys(a);
  const kb = Object.keys(b as object);
  return (
    ka.length === kb.length &&
    ka.every((k, i) => k === kb[i] && identical((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}
