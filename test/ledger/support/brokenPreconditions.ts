import { randomUUID } from 'node:crypto';
import {
  type AccountDoc,
  accountPreconditions,
  type AccountPreconditions,
  applyDelta,
  groupPolicy,
  type GroupPolicy,
  requestKey,
  requestRules,
  type RequestRules,
  AccountStatus,
  availableCovers,
  type LifecycleRules,
  toLong,
} from '../../../src/ledger/index.ts';

// Realistic mistakes, each one small code change away from the real thing. The meta-tests inject
// them and expect the guarantee tests to go red.

/**
 * G1: read-then-write. The balance is checked on a read that forgot the session, so it runs
 * outside the move's transaction, and the write then filters on `_id` alone: the lone move's
 * debit, and a group's read and write alike. One call at a time this is indistinguishable from
 * the real thing; under concurrency two reads see the same balance and both debits apply. (On a
 * group it overdraws only when another process commits between the group's read and its first
 * statement while the balance runs out, which a race rarely meets: the group's own mistake,
 * `groupCheckedOnOpeningBalance`, is the one its meta-test injects.)
 */
export const debitCheckedOnARead: AccountPreconditions = {
  ...accountPreconditions,
  async debit(accounts, session, target) {
    const seen = await accounts.findOne({ _id: target.accountId });
    if (!seen || Number(seen.balance) < target.amount) return null;
    return applyDelta(accounts, session, { _id: target.accountId } as Partial<AccountDoc>, -target.amount);
  },
  async readGroup(accounts, _session, accountIds) {
    const docs = await accounts.find({ _id: { $in: [...accountIds] } }).toArray();
    return docs.map((doc) => ({
      _id: doc._id,
      currency: doc.currency,
      balance: Number(doc.balance),
      version: Number(doc.version),
      held: Number(doc.held ?? 0),
    }));
  },
  groupFilter: (read) => ({ _id: read._id }),
};

/**
 * A group decided against the balance read before the group: each move is checked as if it were
 * the only one, so a group of withdrawals that each fit the opening balance all apply together.
 */
export const groupCheckedOnOpeningBalance: GroupPolicy = {
  ...groupPolicy,
  balanceToCheck: (opening) => opening,
};

/** A group whose one refusal fails all of its moves, as if every group were an atomic batch. */
export const groupRefusalFailsAll: GroupPolicy = {
  ...groupPolicy,
  linked: () => true,
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

/**
 * L1: the reversed total checked on the read made before the transaction (the one that picks the
 * accounts' turns), and the original's record then written on `_id` alone. One at a time the
 * same as the real write; under concurrency a reversal that lost a write conflict reruns on the
 * total it read before the winner committed, and both apply.
 */
export const reversalCheckedOnARead: LifecycleRules = {
  async takeReversal(requests, session, originalKey, amount, readBefore) {
    if (
      readBefore?.status !== 'applied' ||
      Number(readBefore.reversedAmount ?? 0) + amount > Number(readBefore.params.amount)
    )
      return null;
    return requests.findOneAndUpdate(
      { _id: originalKey },
      { $inc: { reversedAmount: toLong(amount) } },
      { session, returnDocument: 'after' },
    );
  },
};

/**
 * L2: the account's status checked on a read outside the move's transaction, the write then
 * filtered without it: a close that commits between that read and the write does not stop it.
 */
export const openCheckedOnARead: AccountPreconditions = {
  ...accountPreconditions,
  async debit(accounts, session, target) {
    const seen = await accounts.findOne({ _id: target.accountId });
    if (!seen || seen.status === AccountStatus.CLOSED) return null;
    return applyDelta(accounts, session, { _id: target.accountId, ...availableCovers(target.amount) }, -target.amount);
  },
  async credit(accounts, session, target) {
    const seen = await accounts.findOne({ _id: target.accountId });
    if (!seen || seen.status === AccountStatus.CLOSED) return null;
    const currency = target.currency === undefined ? {} : { currency: target.currency };
    return applyDelta(
      accounts,
      session,
      { _id: target.accountId, balance: { $lte: toLong(Number.MAX_SAFE_INTEGER - target.amount) }, ...currency },
      target.amount,
    );
  },
};
