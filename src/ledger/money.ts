import { Long } from 'mongodb';

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
