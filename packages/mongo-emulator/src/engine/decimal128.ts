// Exact IEEE 754-2008 decimal128 arithmetic on BigInt coefficients, as mongod computes with the
// Intel decimal library (src/mongo/platform/decimal128.cpp): a sum, difference or product is the
// exact result rounded once to 34 digits, ties to even, keeping the exponent IEEE prefers (so
// 1.0 + 2.00 is 3.00). Conversions follow mongod too: an int or a long becomes a decimal exactly,
// a double becomes one with exactly 15 significant digits (Decimal128(double)'s default
// kRoundTo15Digits), and a decimal compares with a double through the double rounded to 34
// digits (compareDecimalToDouble).
import { Decimal128 } from 'bson';

/** A decimal128 value: finite (sign, coefficient < 10^34, exponent), infinite, or NaN. */
export type Decimal =
  | { kind: 'finite'; negative: boolean; coefficient: bigint; exponent: number }
  | { kind: 'infinity'; negative: boolean }
  | { kind: 'nan' };

/** Digits of a decimal128 coefficient. */
const PRECISION_DIGITS = 34;
/** The exponent range of a coefficient (Emax - p + 1 and Emin - p + 1 of decimal128). */
const EXPONENT_MAX = 6111;
const EXPONENT_MIN = -6176;
const EXPONENT_BIAS = 6176;
/** Significant digits mongod keeps when it turns a double into a decimal for arithmetic. */
const DOUBLE_TO_DECIMAL_DIGITS = 15;
/** Significant digits of the double when mongod compares it with a decimal. */
const DOUBLE_COMPARE_DIGITS = 34;

const NAN: Decimal = { kind: 'nan' };
const UINT64_MASK = (1n << 64n) - 1n;

function pow10(n: number): bigint {
  return 10n ** BigInt(n);
}

function digitCount(c: bigint): number {
  return c === 0n ? 1 : c.toString().length;
}

/** c / d rounded to nearest, ties to even. */
function divideHalfEven(c: bigint, d: bigint): bigint {
  const q = c / d;
  const twice = 2n * (c % d);
  return twice > d || (twice === d && q % 2n === 1n) ? q + 1n : q;
}

/** Rounds an exact result to `digits` significant digits (ties to even) and into the exponent range. */
function finish(negative: boolean, coefficient: bigint, exponent: number, digits = PRECISION_DIGITS): Decimal {
  let c = coefficient;
  let e = exponent;
  const drop = Math.max(digitCount(c) - digits, EXPONENT_MIN - e, 0);
  if (drop > 0) {
    c = divideHalfEven(c, pow10(drop));
    e += drop;
    if (c === pow10(digits)) {
      c /= 10n;
      e += 1;
    }
  }
  if (e > EXPONENT_MAX) {
    // Clamped: the coefficient takes the excess as trailing zeros, if it has room for them.
    const pad = e - EXPONENT_MAX;
    if (c !== 0n && digitCount(c) + pad > digits) return { kind: 'infinity', negative };
    c *= c === 0n ? 1n : pow10(pad);
    e = EXPONENT_MAX;
  }
  return { kind: 'finite', negative, coefficient: c, exponent: e };
}

const DECIMAL_TEXT = /^(-)?(\d+)(?:\.(\d+))?(?:E([+-]?\d+))?$/;

/** The value of a bson Decimal128 (its canonical text is exact). */
export function fromDecimal128(value: Decimal128): Decimal {
  const text = value.toString();
  if (text === 'NaN' || text === '-NaN') return NAN;
  if (text === 'Infinity' || text === '-Infinity') return { kind: 'infinity', negative: text.startsWith('-') };
  const match = DECIMAL_TEXT.exec(text);
  if (!match) throw new Error(`unexpected Decimal128 text ${text}`);
  const [, minus, whole, fraction = '', exp = '0'] = match;
  return {
    kind: 'finite',
    negative: minus === '-',
    coefficient: BigInt(whole! + fraction),
    exponent: Number(exp) - fraction.length,
  };
}

/** The bson Decimal128 of a value, encoded directly (coefficient < 10^34 < 2^113). */
export function toDecimal128(value: Decimal): Decimal128 {
  let high: bigint;
  let low = 0n;
  if (value.kind === 'nan') high = 0x7c00000000000000n;
  else if (value.kind === 'infinity') high = 0x7800000000000000n | (value.negative ? 1n << 63n : 0n);
  else {
    high =
      (value.negative ? 1n << 63n : 0n) | (BigInt(value.exponent + EXPONENT_BIAS) << 49n) | (value.coefficient >> 64n);
    low = value.coefficient & UINT64_MASK;
  }
  const bytes = Buffer.alloc(16);
  bytes.writeBigUInt64LE(low, 0);
  bytes.writeBigUInt64LE(high, 8);
  return new Decimal128(bytes);
}

/** An int32 or int64, exactly. */
export function fromInteger(n: number | bigint): Decimal {
  const big = BigInt(n);
  return { kind: 'finite', negative: big < 0n, coefficient: big < 0n ? -big : big, exponent: 0 };
}

/** The exact value of a finite double as a decimal (up to 767 digits: not a decimal128 yet). */
function exactDouble(x: number): { negative: boolean; coefficient: bigint; exponent: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const negative = bits >> 63n === 1n;
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  const mantissa = biased === 0 ? fraction : fraction | (1n << 52n);
  const power2 = (biased === 0 ? 1 : biased) - 1075;
  // m * 2^k is m * 2^k * 10^0 for k >= 0, and m * 5^-k * 10^k for k < 0.
  if (power2 >= 0) return { negative, coefficient: mantissa << BigInt(power2), exponent: 0 };
  return { negative, coefficient: mantissa * 5n ** BigInt(-power2), exponent: power2 };
}

/** A double rounded to exactly `digits` significant digits (ties to even), as Decimal128(double). */
export function fromDouble(x: number, digits = DOUBLE_TO_DECIMAL_DIGITS): Decimal {
  if (Number.isNaN(x)) return NAN;
  if (!Number.isFinite(x)) return { kind: 'infinity', negative: x < 0 };
  if (x === 0) return { kind: 'finite', negative: Object.is(x, -0), coefficient: 0n, exponent: 0 };
  const { negative, coefficient, exponent } = exactDouble(x);
  const rounded = finish(negative, coefficient, exponent, digits);
  if (rounded.kind !== 'finite') return rounded;
  // Quantized to exactly `digits` digits: a shorter coefficient takes trailing zeros.
  const pad = digits - digitCount(rounded.coefficient);
  return pad > 0
    ? { ...rounded, coefficient: rounded.coefficient * pow10(pad), exponent: rounded.exponent - pad }
    : rounded;
}

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/** The engine's JS numbers: an integral one in int32 range is an int, any other a double. */
function isInt32(v: number): boolean {
  return Number.isInteger(v) && v >= INT32_MIN && v <= INT32_MAX;
}

/**
 * A numeric BSON value (int, long, double, Decimal128) as a decimal, converted as mongod does;
 * a double with `doubleDigits` significant digits.
 */
export function toDecimal(v: unknown, doubleDigits = DOUBLE_TO_DECIMAL_DIGITS): Decimal {
  if (v instanceof Decimal128) return fromDecimal128(v);
  if (typeof v === 'bigint') return fromInteger(v);
  if (typeof v === 'number') return isInt32(v) ? fromInteger(v) : fromDouble(v, doubleDigits);
  throw new Error(`not a number: ${String(v)}`);
}

export function negate(a: Decimal): Decimal {
  return a.kind === 'nan' ? a : { ...a, negative: !a.negative };
}

export function add(a: Decimal, b: Decimal): Decimal {
  if (a.kind === 'nan' || b.kind === 'nan') return NAN;
  if (a.kind === 'infinity') return b.kind === 'infinity' && b.negative !== a.negative ? NAN : a;
  if (b.kind === 'infinity') return b;
  const exponent = Math.min(a.exponent, b.exponent);
  const signed = (d: typeof a) => (d.negative ? -1n : 1n) * d.coefficient * pow10(d.exponent - exponent);
  const sum = signed(a) + signed(b);
  // An exact zero is +0 unless both addends are negative (rounding to nearest).
  if (sum === 0n) return finish(a.negative && b.negative, 0n, exponent);
  return finish(sum < 0n, sum < 0n ? -sum : sum, exponent);
}

export function subtract(a: Decimal, b: Decimal): Decimal {
  return add(a, negate(b));
}

export function multiply(a: Decimal, b: Decimal): Decimal {
  if (a.kind === 'nan' || b.kind === 'nan') return NAN;
  const negative = a.negative !== b.negative;
  if (a.kind === 'infinity' || b.kind === 'infinity') {
    const other = a.kind === 'infinity' ? b : a;
    return other.kind === 'finite' && other.coefficient === 0n ? NAN : { kind: 'infinity', negative };
  }
  return finish(negative, a.coefficient * b.coefficient, a.exponent + b.exponent);
}

/**
 * a / b: an exact quotient takes the exponent nearest IEEE's ideal (ea - eb), so 1.00 / 4 is
 * 0.25 and 6.0 / 2 is 3.0; any other is rounded once to 34 digits, ties to even. The caller
 * refuses a zero divisor (mongod's "can't $divide by zero").
 */
export function divide(a: Decimal, b: Decimal): Decimal {
  if (a.kind === 'nan' || b.kind === 'nan') return NAN;
  const negative = a.negative !== b.negative;
  if (a.kind === 'infinity') return b.kind === 'infinity' ? NAN : { kind: 'infinity', negative };
  if (b.kind === 'infinity') return finish(negative, 0n, EXPONENT_MIN);
  if (b.coefficient === 0n) return a.coefficient === 0n ? NAN : { kind: 'infinity', negative };
  const ideal = a.exponent - b.exponent;
  if (a.coefficient === 0n) return finish(negative, 0n, ideal);
  // Enough digits that the quotient has one more than the precision (for rounding).
  const shift = Math.max(0, PRECISION_DIGITS + 1 + digitCount(b.coefficient) - digitCount(a.coefficient));
  const numerator = a.coefficient * pow10(shift);
  let quotient = numerator / b.coefficient;
  const remainder = numerator % b.coefficient;
  let exponent = ideal - shift;
  if (remainder === 0n) {
    // Exact: give back the trailing zeros the shift made, down to the ideal exponent.
    while (exponent < ideal && quotient % 10n === 0n) {
      quotient /= 10n;
      exponent += 1;
    }
    return finish(negative, quotient, exponent);
  }
  // Inexact: round to the precision, a nonzero remainder breaking what looks like a tie.
  const drop = digitCount(quotient) - PRECISION_DIGITS;
  const unit = pow10(drop);
  let kept = quotient / unit;
  const twice = 2n * (quotient % unit);
  if (twice > unit || (twice === unit && (remainder > 0n || kept % 2n === 1n))) kept += 1n;
  return finish(negative, kept, exponent + drop);
}

/** Sort order as mongod's: NaN below every number and equal to itself, -0 equal to 0. */
export function compare(a: Decimal, b: Decimal): number {
  if (a.kind === 'nan' || b.kind === 'nan') return a.kind === b.kind ? 0 : a.kind === 'nan' ? -1 : 1;
  const rank = (d: Exclude<Decimal, { kind: 'nan' }>) =>
    d.kind === 'infinity' ? (d.negative ? -2 : 2) : d.coefficient === 0n ? 0 : d.negative ? -1 : 1;
  const [ra, rb] = [rank(a), rank(b)];
  if (ra !== rb || a.kind !== 'finite' || b.kind !== 'finite' || ra === 0) return Math.sign(ra - rb);
  const exponent = Math.min(a.exponent, b.exponent);
  const ma = a.coefficient * pow10(a.exponent - exponent);
  const mb = b.coefficient * pow10(b.exponent - exponent);
  const magnitude = ma < mb ? -1 : ma > mb ? 1 : 0;
  return a.negative ? -magnitude : magnitude;
}

/** Compares a numeric BSON value with another when one is a decimal (a double at 34 digits). */
export function compareWithDecimal(a: unknown, b: unknown): number {
  return compare(toDecimal(a, DOUBLE_COMPARE_DIGITS), toDecimal(b, DOUBLE_COMPARE_DIGITS));
}

/** The nearest double (JavaScript parses decimal text correctly rounded, as bid128_to_binary64 rounds). */
export function decimalToDouble(d: Decimal128): number {
  const text = d.toString();
  if (text === 'NaN' || text === '-NaN') return Number.NaN;
  return Number(text);
}
