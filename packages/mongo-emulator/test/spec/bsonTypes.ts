// BSON type names and numeric values of the JavaScript values the driver and the EJSON parser
// produce. Test files are parsed with `relaxed: false` (Int32/Double/Long wrappers), while the
// driver returns promoted JS numbers, so both shapes must be understood.
import { EJSON, type Long } from 'bson';

function bsontype(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const tag = (value as { _bsontype?: unknown })._bsontype;
  return typeof tag === 'string' ? tag : undefined;
}

/** A plain document (not an array, not a BSON value object, not a Date/RegExp/buffer). */
export function isDocument(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  if (bsontype(value) !== undefined) return false;
  return !(value instanceof Date || value instanceof RegExp || value instanceof Uint8Array);
}

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/** The numeric value of int, long and double values, or undefined for anything else. */
export function numericValue(value: unknown): number | bigint | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return value;
  switch (bsontype(value)) {
    case 'Int32':
    case 'Double':
      return (value as { value: number }).value;
    case 'Long':
      return (value as Long).toBigInt();
    default:
      return undefined;
  }
}

/** Numeric equality across int/long/double (Decimal128 excluded, as the format says). */
export function numbersEqual(a: number | bigint, b: number | bigint): boolean {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a === b;
  if (typeof a === 'number' && typeof b === 'number') return a === b || (Number.isNaN(a) && Number.isNaN(b));
  const big = typeof a === 'bigint' ? a : (b as bigint);
  const num = typeof a === 'number' ? a : (b as number);
  return Number.isInteger(num) && BigInt(num) === big;
}

export function numberLessOrEqual(a: number | bigint, b: number | bigint): boolean {
  if (typeof a === typeof b) return a <= b;
  return Number(a) <= Number(b);
}

/**
 * The $type aliases a value can be. The runner's clients decode int64 as bigint (useBigInt64) and
 * the driver encodes a bigint as int64, so a bigint is exactly a long and a JS number never is.
 * A decoded JS number has lost only the int/double distinction: an integral one in int32 range
 * may have been either (the driver also encodes such a number as an int), a fractional or larger
 * one can only be a double.
 */
export function bsonTypeNames(value: unknown): string[] {
  if (value === undefined) return ['undefined'];
  if (value === null) return ['null'];
  if (typeof value === 'string') return ['string'];
  if (typeof value === 'boolean') return ['bool'];
  if (typeof value === 'bigint') return ['long', 'number'];
  if (typeof value === 'number') {
    const fitsInt32 = Number.isInteger(value) && value >= INT32_MIN && value <= INT32_MAX;
    return fitsInt32 ? ['int', 'double', 'number'] : ['double', 'number'];
  }
  if (Array.isArray(value)) return ['array'];
  if (value instanceof Date) return ['date'];
  if (value instanceof RegExp) return ['regex'];
  if (value instanceof Uint8Array) return ['binData'];
  const tags: Record<string, string[]> = {
    Int32: ['int', 'number'],
    Double: ['double', 'number'],
    Long: ['long', 'number'],
    Decimal128: ['decimal', 'number'],
    ObjectId: ['objectId'],
    Binary: ['binData'],
    Timestamp: ['timestamp'],
    BSONRegExp: ['regex'],
    Code: ['javascript'],
    BSONSymbol: ['symbol'],
    MinKey: ['minKey'],
    MaxKey: ['maxKey'],
    DBRef: ['object', 'dbPointer'],
  };
  const tag = bsontype(value);
  if (tag !== undefined) {
    if (tag === 'Code' && (value as { scope?: unknown }).scope != null) return ['javascriptWithScope'];
    return tags[tag] ?? [tag];
  }
  return ['object'];
}

/** Equality of two non-numeric, non-container BSON values (ObjectId, Binary, Date, ...). */
export function scalarsEqual(expected: unknown, actual: unknown): boolean {
  if (expected === actual) return true;
  if (expected instanceof Date && actual instanceof Date) return expected.getTime() === actual.getTime();
  const tag = bsontype(expected);
  if (tag === undefined || tag !== bsontype(actual)) return false;
  const withEquals = expected as { equals?: (other: unknown) => boolean };
  if (typeof withEquals.equals === 'function') return withEquals.equals(actual);
  if (tag === 'MinKey' || tag === 'MaxKey') return true;
  if (tag === 'BSONRegExp') {
    const [e, a] = [expected, actual] as Array<{ pattern: string; options: string }>;
    return e!.pattern === a!.pattern && [...e!.options].sort().join('') === [...a!.options].sort().join('');
  }
  return JSON.stringify(expected) === JSON.stringify(actual);
}

/** A short rendering of a value for failure messages. */
export function describe(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'bigint') return `${value}n`;
  try {
    const text = EJSON.stringify(value as never, { relaxed: true });
    return text.length > 300 ? `${text.slice(0, 300)}…` : text;
  } catch {
    return String(value);
  }
}
