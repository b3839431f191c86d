import type { Collection, UpdateFilter } from 'mongodb';
import { accountTraceLengthMax, decisionAttemptsMax } from './limits.ts';
import type { AccountDoc } from './model.ts';
import { fromLong, toLong } from './money.ts';
import type { AccountPreconditions, DecisionTarget } from './preconditions.ts';
import { type AccountState, findInTrace, type TracedDecision } from './trace.ts';

export type AccountDecision =
  | TracedDecision
  /** The key is not in the trace and the account moved too far since the claim to be sure. */
  | { kind: 'untraceable' }
  /** The account kept changing between our writes; the caller may drive again. */
  | { kind: 'undecided' };

export interface DecideOptions {
  /** Negative: a debit, which is rejected when the balance does not cover it. Positive: a credit. */
  delta: number;
  target: DecisionTarget;
}

// What the account writes send back. A write that matched just pushed this key's record, so
// the last record is all it needs; returning the whole trace (up to accountTraceLengthMax
// records) made every decision ship and parse it, the dearer the busier the account. The
// read-back needs the trace but not the account's other fields.
const decidedReply = { returnDocument: 'after', projection: { balance: 1, version: 1, trace: { $slice: -1 } } } as const;
const readBackProjection = { balance: 1, version: 1, trace: 1 } as const;

function recordDecision(key: string, delta: number): UpdateFilter<AccountDoc> {
  return {
    $inc: { balance: toLong(delta), version: toLong(1) },
    $push: { trace: { $each: [{ r: key, d: toLong(delta) }], $slice: -accountTraceLengthMax } },
  };
}

/**
 * Decides one request on one account exactly once: applies the change if the preconditions
 * hold, else (debits only) records the rejection, else reads back what an earlier attempt of the
 * same key decided. Each write is conditional on the key being absent from the trace, so any
 * number of concurrent drivers of one request agree on a single decision.
 */
export async function decideOnAccount(
  accounts: Collection<AccountDoc>,
  preconditions: AccountPreconditions,
  { delta, target }: DecideOptions,
): Promise<AccountDecision> {
  const { accountId, key } = target;
  const isDebit = delta < 0;
  for (let attempt = 0; attempt < decisionAttemptsMax; attempt += 1) {
    const filter = isDebit ? preconditions.debit(target) : preconditions.credit(target);
    const applied: AccountState | null = await accounts.findOneAndUpdate(filter, recordDecision(key, delta), decidedReply);
    if (applied) return requireTraced(applied, key);
    if (isDebit) {
      const rejected: AccountState | null = await accounts.findOneAndUpdate(preconditions.reject(target), recordDecision(key, 0), decidedReply);
      if (rejected) return requireTraced(rejected, key);
    }
    const current = await accounts.findOne<AccountState>({ _id: accountId }, { projection: readBackProjection });
    if (!current) throw new Error(`invariant: account ${accountId} vanished while deciding ${key}`);
    const traced = findInTrace(current, key);
    if (traced) return traced;
    if (fromLong(current.version) > target.versionMax.toNumber()) return { kind: 'untraceable' };
  }
  return { kind: 'undecided' };
}

function requireTraced(account: AccountState, key: string): TracedDecision {
  const traced = findInTrace(account, key);
  if (!traced) throw new Error(`invariant: account ${account._id} was written for ${key} without tracing it`);
  return traced;
}
