import type { ClientSession, Collection, Filter } from 'mongodb';
import { type AccountDoc, AccountStatus } from './model.ts';
import type { AccountClosed } from './results.ts';
import { fromLong, toLong } from './money.ts';

// The account decision: one conditional write per account, inside the move's transaction. The
// filter holds the whole precondition, so the check and the change are one atomic write: two
// moves that both pass a check on the same balance cannot both write it (the second one meets a
// write conflict and its whole move retries on the new balance). A lone move's filter holds its
// own check (`balance - held >= amount`: what pending holds reserve cannot be spent, H1); a
// group's holds the balance, held amount and version its decisions were made on (groupCommit.ts).

/** One account leg of a move. */
export interface DecisionTarget {
  accountId: string;
  /** Positive minor units. */
  amount: number;
  /** A transfer's credit requires the debited account's currency. */
  currency?: string;
}

/** The account right after a write of this move, or as this move's snapshot read it. */
export type AccountState = Pick<
  AccountDoc,
  '_id' | 'currency' | 'balance' | 'version' | 'held' | 'status' | 'closedAt'
>;

/** An account as a group's snapshot read it (money as safe integers). */
export interface AccountRead {
  _id: string;
  currency: string;
  balance: number;
  version: number;
  /** Sum of pending holds (0 when the field is absent). */
  held: number;
  /** CLOSED once closed (absent: OPEN). */
  status?: AccountStatus;
  closedAt?: Date | null;
}

/**
 * The account writes. Services take this object as a dependency so that a test can swap in a
 * broken one and watch the race tests fail; production never passes anything but
 * `accountPreconditions`. `debit` and `credit` (a lone move) return the account after the write,
 * or null when the account is missing or the precondition does not hold (nothing written).
 */
export interface AccountPreconditions {
  debit(accounts: Collection<AccountDoc>, session: ClientSession, target: DecisionTarget): Promise<AccountState | null>;
  credit(
    accounts: Collection<AccountDoc>,
    session: ClientSession,
    target: DecisionTarget,
  ): Promise<AccountState | null>;
  /** A group's accounts, read once in its transaction's snapshot. */
  readGroup(
    accounts: Collection<AccountDoc>,
    session: ClientSession,
    accountIds: readonly string[],
  ): Promise<AccountRead[]>;
  /**
   * The filter of a group's write on one account: the account exactly as the group read it, so the
   * write applies only to the state every decision of the group was made on.
   */
  groupFilter(read: AccountRead): Filter<AccountDoc>;
}

/** Largest balance a credit may reach: above it a balance no longer reads back as a safe integer. */
export const balanceMax = Number.MAX_SAFE_INTEGER;

export const stateProjection = { currency: 1, balance: 1, version: 1, held: 1, status: 1, closedAt: 1 } as const;

/**
 * The account is open: in the filter of every write that moves money on an account, so that a close
 * committed before the write makes it match nothing, and one committed after its snapshot makes it
 * conflict (L2). Absent `status` (an account older than closing) is open.
 */
export const isOpen: Filter<AccountDoc> = Object.freeze({ status: { $ne: AccountStatus.CLOSED } });

/** `balance - held >= amount` as a filter: the available balance covers the amount (absent `held` is 0). */
export function availableCovers(amount: number): Filter<AccountDoc> {
  return { $expr: { $gte: [{ $subtract: ['$balance', { $ifNull: ['$held', toLong(0)] }] }, toLong(amount)] } };
}

/** `held` equal to `held` as read: an absent field (an account older than holds) reads as 0. */
export function heldIs(held: number): Filter<AccountDoc> {
  return held === 0 ? ({ held: { $in: [null, toLong(0)] } } as Filter<AccountDoc>) : { held: toLong(held) };
}

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
    applyDelta(accounts, session, { _id: accountId, ...isOpen, ...availableCovers(amount) }, -amount),
  credit: (accounts, session, { accountId, amount, currency }) =>
    applyDelta(
      accounts,
      session,
      {
        _id: accountId,
        ...isOpen,
        balance: { $lte: toLong(balanceMax - amount) },
        ...(currency === undefined ? {} : { currency }),
      },
      amount,
    ),
  readGroup: async (accounts, session, accountIds) => {
    const docs = await accounts
      .find({ _id: { $in: [...accountIds] } }, { session, projection: stateProjection })
      .toArray();
    return docs.map((doc) => ({
      _id: doc._id,
      currency: doc.currency,
      balance: fromLong(doc.balance),
      version: fromLong(doc.version),
      held: fromLong(doc.held ?? 0),
      status: doc.status ?? AccountStatus.OPEN,
      closedAt: doc.closedAt ?? null,
    }));
  },
  // The held amount too: a hold authorized after the group's read changes `held` (not the balance
  // or version), and the group's debits were decided on the available balance it read.
  // And open: a close of an empty account changes neither balance nor version.
  groupFilter: (read) => ({
    _id: read._id,
    ...isOpen,
    balance: toLong(read.balance),
    version: toLong(read.version),
    ...heldIs(read.held),
  }),
});

/** Why a write on a closed account matched nothing (its filter decided it: `isOpen`). */
export function accountClosed(account: Pick<AccountState, '_id' | 'closedAt'>): AccountClosed {
  return { kind: 'accountClosed', accountId: account._id, closedAt: account.closedAt ?? null };
}

/** Why a write matched nothing: the account as this move's snapshot sees it (null: no such account). */
export function readAccount(
  accounts: Collection<AccountDoc>,
  session: ClientSession,
  accountId: string,
): Promise<AccountState | null> {
  return accounts.findOne({ _id: accountId }, { session, projection: stateProjection });
}
