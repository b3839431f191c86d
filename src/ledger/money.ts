import { Decimal128, Long } from 'mongodb';

// Money is integer minor units: a safe JS integer in the process, a BSON long in MongoDB.
// A plain JS number would be stored as int32 or double depending on its size, so every amount
// and balance is wrapped explicitly on the way in and checked on the way out.

export function toLong(minorUnits: number): Long {
  if (!Number.isSafeInteger(minorUnits)) {
    throw new RangeError(`money must be a safe integer of minor units, got ${minorUnits}`);
  }
  return Long.fromNumber(minorUnits);
}

/** Reads a stored long (the driver may hand it back as number, bigint or Long). */
export function fromLong(stored: unknown): number {
  const value =
    typeof stored === 'number'
      ? stored
      : typeof stored === 'bigint'
        ? Number(stored)
        : Long.isLong(stored)
          ? stored.toNumber()
          : Number.NaN;
  if (!Number.isSafeInteger(value)) {
    throw new RangeError(`stored money is not a safe integer: ${String(stored)}`);
  }
  return value;
}

/**
 * The addend that makes `$sum` exact at any size: a long plus a decimal is a decimal in mongod
 * (and the emulator), and a sum of decimals is exact to 34 digits, where a sum of longs that passes
 * 2^63-1 turns into a rounded double. Use `{ $sum: { $add: [field, EXACT_SUM_ZERO] } }`.
 */
export const EXACT_SUM_ZERO = Decimal128.fromString('0');

/** Reads a stored sum of money (a decimal from an exact `$sum`, or a long/number) as an exact bigint. */
export function fromStoredSum(stored: unknown): bigint {
  if (typeof stored === 'bigint') return stored;
  if (typeof stored === 'number' && Number.isSafeInteger(stored)) return BigInt(stored);
  if (Long.isLong(stored)) return stored.toBigInt();
  if (stored instanceof Decimal128) return integerOfDecimalText(stored.toString());
  throw new RangeError(`stored sum of money is not an integer: ${String(stored)}`);
}

// Decimal128's text is digits, an optional fraction and an optional exponent ("1.8E+16").
function integerOfDecimalText(text: string): bigint {
  const match = /^(-?)([0-9]+)(?:\.([0-9]+))?(?:E([+-]?[0-9]+))?$/i.exec(text);
  if (!match) throw new RangeError(`stored sum of money is not an integer: ${text}`);
  const [, sign, whole, fraction = '', exponentText = '0'] = match as unknown as [
    string,
    string,
    string,
    string | undefined,
    string | undefined,
  ];
  const exponent = Number(exponentText) - fraction.length;
  let digits = BigInt(whole + fraction);
  if (exponent >= 0) digits *= 10n ** BigInt(exponent);
  else {
    const scale = 10n ** BigInt(-exponent);
    if (digits % scale !== 0n) throw new RangeError(`stored sum of money is not an integer: ${text}`);
    digits /= scale;
  }
  return sign === '-' ? -digits : digits;
}
