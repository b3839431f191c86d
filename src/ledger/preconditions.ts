import type { Filter, Long } from 'mongodb';
import type { AccountDoc } from './model.ts';
import { toLong } from './money.ts';

/** One account, one request key, and how far the account's version may have moved since the claim. */
export interface DecisionTarget {
  accountId: string;
  key: string;
  /** Positive minor units. */
  amount: number;
  versionMax: Long;
}

/**
 * The filters of the three account writes. Each holds the whole precondition, so the check and
 * the write are one atomic single-document operation on the primary:
 * - not yet decided for this key (`trace.r` lacks it) — a replay can never apply twice;
 * - the version still within reach of the trace — an old key that fell out of the trace is
 *   never mistaken for "not applied";
 * - for a debit, enough balance; for a rejection, not enough.
 *
 * Services take this object as a dependency so that a test can swap in a broken one and watch
 * the race tests fail; production code never passes anything but `accountPreconditions`.
 */
export interface AccountPreconditions {
  debit(target: DecisionTarget): Filter<AccountDoc>;
  reject(target: DecisionTarget): Filter<AccountDoc>;
  credit(target: DecisionTarget): Filter<AccountDoc>;
}

function undecided(target: DecisionTarget): Filter<AccountDoc> {
  return { _id: target.accountId, 'trace.r': { $ne: target.key }, version: { $lte: target.versionMax } };
}

export const accountPreconditions: AccountPreconditions = Object.freeze({
  debit: (target: DecisionTarget) => ({ ...undecided(target), balance: { $gte: toLong(target.amount) } }),
  reject: (target: DecisionTarget) => ({ ...undecided(target), balance: { $lt: toLong(target.amount) } }),
  credit: undecided,
});
