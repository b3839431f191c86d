// A hold request's stored snapshots, and the answers rebuilt from them (the first caller's and
// every replay's).
import { invariant } from '../lib/assert.ts';
import type { AccountState } from './accountFilters.ts';
import { answerEntry, toAccountSnapshot } from './convert.ts';
import type { HoldDoc, HoldOutcome, StoredAccount, StoredHold } from './holdModel.ts';
import type { EntryDoc } from './model.ts';
import { fromLong, toLong } from './money.ts';
import type { AccountSnapshot, HoldOutcomeResult, HoldSnapshot } from './results.ts';

export function storedHold(doc: HoldDoc): StoredHold {
  return {
    id: doc._id,
    accountId: doc.accountId,
    currency: doc.currency,
    amount: doc.amount,
    capturedAmount: doc.capturedAmount,
    status: doc.status,
    expiresAt: doc.expiresAt,
  };
}

export function storedAccount(state: AccountState): StoredAccount {
  return {
    id: state._id,
    currency: state.currency,
    balance: toLong(fromLong(state.balance)),
    version: toLong(fromLong(state.version)),
    held: toLong(fromLong(state.held ?? 0)),
  };
}

export function holdSnapshot(stored: StoredHold): HoldSnapshot {
  return {
    id: stored.id,
    accountId: stored.accountId,
    currency: stored.currency,
    amount: fromLong(stored.amount),
    capturedAmount: fromLong(stored.capturedAmount),
    status: stored.status,
    expiresAt: stored.expiresAt,
  };
}

function accountSnapshot(stored: StoredAccount): AccountSnapshot {
  return toAccountSnapshot({
    _id: stored.id,
    currency: stored.currency,
    balance: stored.balance,
    version: stored.version,
    held: stored.held,
    openedAt: new Date(0),
  });
}

export function outcomeResult(outcome: HoldOutcome, entries: readonly EntryDoc[]): HoldOutcomeResult {
  switch (outcome.kind) {
    case 'rejected':
      return {
        kind: 'insufficientFunds',
        accountId: outcome.accountId,
        balance: fromLong(outcome.balance),
        amount: fromLong(outcome.amount),
      };
    case 'authorized':
      return {
        kind: 'authorizeHoldSuccess',
        hold: holdSnapshot(outcome.hold),
        account: accountSnapshot(outcome.account),
      };
    case 'voided':
      return { kind: 'voidHoldSuccess', hold: holdSnapshot(outcome.hold), account: accountSnapshot(outcome.account) };
    case 'captured': {
      const debit = entries.find((entry) => entry.kind === 'withdrawal' || entry.kind === 'transferOut');
      invariant(debit, () => `capture of ${outcome.hold.id} lacks its debit entry`);
      const credit = entries.find((entry) => entry.kind === 'transferIn');
      return {
        kind: 'captureHoldSuccess',
        hold: holdSnapshot(outcome.hold),
        entry: answerEntry(debit),
        credit: credit ? answerEntry(credit) : null,
        account: accountSnapshot(outcome.account),
        toAccount: outcome.toAccount === null ? null : accountSnapshot(outcome.toAccount),
      };
    }
  }
}
