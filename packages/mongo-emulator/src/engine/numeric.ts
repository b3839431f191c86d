// Arithmetic with mongod's type rules (SafeNum): int op int widens to long on overflow, an int64
// result outside int64 is invalid (the caller decides: $inc fails, $add falls back to double),
// anything with a double is a double, anything with a decimal is a decimal, computed exactly in
// decimal128 (decimal128.ts), never through doubles.
import { Decimal128 } from 'bson';
import { decimalToNumber } from './compare.ts';
import * as decimal from './decimal128.ts';

export type NumericKind = 'int' | 'long' | 'double' | 'decimal';

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

export function numericKind(v: unknown): NumericKind | undefined {
  if (typeof v === 'bigint') return 'long';
  if (typeof v === 'number') return Number.isInteger(v) && v >= INT32_MIN && v <= INT32_MAX ? 'int' : 'double';
  if (v instanceof Decimal128) return 'decimal';
  return undefined;
}

export function isNumeric(v: unknown): boolean {
  return numericKind(v) !== undefined;
}

/** The value as a JS double (lossy for large longs and decimals). */
export function toDouble(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof Decimal128) return decimalToNumber(v);
  return Number.NaN;
}

/** The value as an int64 if it is an integral int or long. */
function toBig(v: unknown): bigint {
  return typeof v === 'bigint' ? v : BigInt(v as number);
}

function widest(a: unknown, b: unknown): NumericKind {
  const ka = numericKind(a);
  const kb = numericKind(b);
  if (ka === 'decimal' || kb === 'decimal') return 'decimal';
  if (ka === 'double' || kb === 'double') return 'double';
  if (ka === 'long' || kb === 'long') return 'long';
  return 'int';
}

function combine(
  a: unknown,
  b: unknown,
  big: (x: bigint, y: bigint) => bigint,
  dbl: (x: number, y: number) => number,
  dec: (x: decimal.Decimal, y: decimal.Decimal) => decimal.Decimal,
): unknown {
  switch (widest(a, b)) {
    case 'decimal':
      return decimal.toDecimal128(dec(decimal.toDecimal(a), decimal.toDecimal(b)));
    case 'double':
      return dbl(toDouble(a), toDouble(b));
    case 'int': {
      const r = dbl(a as number, b as number);
      if (r >= INT32_MIN && r <= INT32_MAX) return r;
      return big(toBig(a), toBig(b));
    }
    case 'long': {
      const r = big(toBig(a), toBig(b));
      return r < INT64_MIN || r > INT64_MAX ? undefined : r;
    }
  }
}

/** a + b with mongod's types; undefined when an int64 result overflows. */
export function addNumbers(a: unknown, b: unknown): unknown {
  return combine(
    a,
    b,
    (x, y) => x + y,
    (x, y) => x + y,
    decimal.add,
  );
}

/** a * b with mongod's types; undefined when an int64 result overflows. */
export function multiplyNumbers(a: unknown, b: unknown): unknown {
  return combine(
    a,
    b,
    (x, y) => x * y,
    (x, y) => x * y,
    decimal.multiply,
  );
}

/** a - b with mongod's types; undefined when an int64 result overflows. */
export function subtractNumbers(a: unknown, b: unknown): unknown {
  return combine(
    a,
    b,
    (x, y) => x - y,
    (x, y) => x - y,
    decimal.subtract,
  );
}

/** The name mongod gives a value's type in messages and `$type`. */
export function typeName(v: unknown): string {
  const kind = numericKind(v);
  if (kind) return kind;
  if (v === undefined) return 'undefined';
  if (v === null) return 'null';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return 'array';
  if (v instanceof Date) return 'date';
  if (v instanceof RegExp) return 'regex';
  switch ((v as { _bsontype?: string })._bsontype) {
    case 'ObjectId':
      return 'objectId';
    case 'Binary':
      return 'binData';
    case 'Timestamp':
      return 'timestamp';
    case 'BSONRegExp':
      return 'regex';
    case 'MinKey':
      return 'minKey';
    case 'MaxKey':
      return 'maxKey';
    case 'BSONSymbol':
      return 'symbol';
    case 'Code':
      return (v as { scope?: unknown }).scope ? 'javascriptWithScope' : 'javascript';
    case 'DBRef':
      return 'object';
  }
  return 'object';
}
