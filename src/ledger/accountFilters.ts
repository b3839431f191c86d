import type { ClientSession, Collection, Filter } from 'mongodb';
import type { AccountDoc } from './model.ts';
import { fromLong, toLong } from './money.ts';

// The account decision: one conditional write per account, inside the move's transaction. The
// filter holds the whole precondition, so the check and the change are one atomic write: two
// moves that both pass a check on the same balance cannot both write it (the second one meets a
// write conflict and its whole move retries on the new balance). A lone move's filter holds its
// own check (`balance >= amount`); a group's holds the balance and version its decisions were
// made on (groupCommit.ts).

/** One account leg of a move. */
export interface DecisionTarget {
  accountId: string;
  /** Positive minor units. */
  amount: number;
  /** A transfer's credit requires the debited account's currency. */
  currency?: string;
}

/** The account right after a write of this move, or as this move's snapshot read it. */
export type AccountState = Pick<AccountDoc, '_id' | 'currency' | 'balance' | 'version'>;

/** An account as a group's snapshot read it (money as safe integers). */
export interface AccountRead {
  _id: string;
  currency: string;
  balance: number;
  version: number;
}

/**
 * The account writes. Services take this object as a dependency so that a test can swap in a
 * broken one and watch the race tests fail; production never passes anything but
 * `accountPreconditions`. `debit` and `credit` (a lone move) return the account after the write,
 * or null when the account is missing or the precondition does not hold (nothing written).
 */
export interface AccountPreconditions {
  debit(accounts: Collection<AccountDoc>, session: ClientSession, target: DecisionTarget): Promise<AccountState | null>;
  credit(accounts: Collection<AccountDoc>, session: ClientSession, target: DecisionTarget): Promise<AccountState | null>;
  /** A group's accounts, read once in its transaction's snapshot. */
  readGroup(accounts: Collection<AccountDoc>, session: ClientSession, accountIds: readonly string[]): Promise<AccountRead[]>;
  /**
   * The filter of a group's write on one account: the account exactly as the group read it, so the
   * write applies only to the state every decision of the group was made on.
   */
  groupFilter(read: AccountRead): Filter<AccountDoc>;
}

/** Largest balance a credit may reach: above it a balance no longer reads back as a safe integer. */
export const balanceMax = Number.MAX_SAFE_INTEGER;

const stateProjection = { currency: 1, balance: 1, version: 1 } as const;

/** `$inc` of the balance by `delta` and of the version by one; returns the account after it. */
export function applyDelta(
  accounts: Collection<AccountDoc>,
  session: ClientSession,
  filter: Filter<AccountDoc>,
  delta: number,
): Promise<AccountState | null> {
  return accounts.findOneAndUpdate(
    filter,
    { $inc: { balance: toLong(delta), version: toLong(1) } },
    { session, returnDocument: 'after', projection: stateProjection },
  );
}

export const accountPreconditions: AccountPreconditions = Object.freeze<AccountPreconditions>({
  debit: (accounts, session, { accountId, amount }) =>
    applyDelta(accounts, session, { _id: accountId, balance: { $gte: toLong(amount) } }, -amount),
  credit: (accounts, session, { accountId, amount, currency }) =>
    applyDelta(
      accounts,
      session,
      { _id: accountId, balance: { $lte: toLong(balanceMax - amount) }, ...(currency === undefined ? {} : { currency }) },
      amount,
    ),
  readGroup: async (accounts, session, accountIds) => {
    const docs = await accounts.find({ _id: { $in: [...accountIds] } }, { session, projection: stateProjection }).toArray();
    return docs.map((doc) => ({ _id: doc._id, currency: doc.currency, balance: fromLong(doc.balance), version: fromLong(doc.version) }));
  },
  groupFilter: (read) => ({ _id: read._id, balance: toLong(read.balance), version: toLong(read.version) }),
});

/** Why a write matched nothing: the account as this move's snapshot sees it (null: no such account). */
export function readAccount(accounts: Collection<AccountDoc>, session: ClientSession, accountId: string): Promise<AccountState | null> {
  return accounts.findOne({ _id: accountId }, { session, projection: stateProjection });
}
