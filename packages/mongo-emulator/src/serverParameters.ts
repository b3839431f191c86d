import { CommandError } from './errors.ts';

/** mongod's transactionLifetimeLimitSeconds default (an int parameter, at least 1). */
export const DEFAULT_TRANSACTION_LIFETIME_LIMIT_SECONDS = 60;

/**
 * A transactionLifetimeLimitSeconds value as setParameter (command or --setParameter) accepts it:
 * an integer of at least 1, given as a number or, on the command line, as its digits.
 */
export function parseTransactionLifetimeLimitSeconds(value: unknown): number {
  const n = typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n)) {
    throw new CommandError(
      'BadValue',
      `Invalid value for parameter transactionLifetimeLimitSeconds: ${String(value)} is not an integer`,
    );
  }
  if (n < 1)
    throw new CommandError(
      'BadValue',
      `Invalid value for parameter transactionLifetimeLimitSeconds: ${n} is not greater than or equal to 1`,
    );
  return n;
}
