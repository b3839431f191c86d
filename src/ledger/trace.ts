import type { AccountDoc } from './model.ts';
import { fromLong } from './money.ts';

/** The part of an account a decision is read from; the write path never loads more. */
export type AccountState = Pick<AccountDoc, '_id' | 'balance' | 'version' | 'trace'>;

/** What an account's trace says about one request key. */
export type TracedDecision =
  | { kind: 'applied'; delta: number; balanceAfter: number; versionAfter: number }
  | { kind: 'rejected'; balance: number; versionAfter: number };

/**
 * Finds `key` in the account's trace and reconstructs the balance and version right after it
 * was decided: every later record moved the balance by its `d` and the version by one.
 * Returns null when the key is not in the trace. `trace` may be any tail of the stored trace
 * that reaches back to the key's record (a decision write returns just its own, the last one).
 */
export function findInTrace(account: AccountState, key: string): TracedDecision | null {
  const index = account.trace.findLastIndex((record) => record.r === key);
  if (index < 0) return null;
  const later = account.trace.slice(index + 1);
  const laterDelta = later.reduce((sum, record) => sum + fromLong(record.d), 0);
  const balanceAfter = fromLong(account.balance) - laterDelta;
  const versionAfter = fromLong(account.version) - later.length;
  const delta = fromLong(account.trace[index]!.d);
  // Amounts are positive, so only a rejection records a zero change.
  return delta === 0
    ? { kind: 'rejected', balance: balanceAfter, versionAfter }
    : { kind: 'applied', delta, balanceAfter, versionAfter };
}
