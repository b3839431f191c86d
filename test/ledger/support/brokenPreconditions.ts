import { randomUUID } from 'node:crypto';
import {
  type AccountDoc,
  accountPreconditions,
  type AccountPreconditions,
  applyDelta,
  requestKey,
  requestRules,
  type RequestRules,
} from '../../../src/ledger/index.ts';

// Realistic mistakes, each one small code change away from the real thing. The meta-tests inject
// them and expect the guarantee tests to go red.

/**
 * G1: read-then-write. The balance is checked on a read that forgot the session, so it runs
 * outside the move's transaction, and the debit then filters on `_id` alone. One call at a time
 * this is indistinguishable from the real debit; under concurrency two reads see the same
 * balance and both debits apply.
 */
export const debitCheckedOnARead: AccountPreconditions = {
  ...accountPreconditions,
  async debit(accounts, session, target) {
    const seen = await accounts.findOne({ _id: target.accountId });
    if (!seen || Number(seen.balance) < target.amount) return null;
    return applyDelta(accounts, session, { _id: target.accountId } as Partial<AccountDoc>, -target.amount);
  },
};

/** G3: a key minted per attempt ("unique, to avoid collisions") instead of the caller's requestId. */
export const keyPerAttempt: RequestRules = {
  ...requestRules,
  keyOf: (requestId) => `${requestKey(requestId)}:${randomUUID()}`,
};

/** G4: "same requestId, same move": the parameters' hash is never compared. */
export const paramsHashIgnored: RequestRules = {
  ...requestRules,
  sameMove: (stored, attempt) => stored.requestId === attempt.requestId,
};
