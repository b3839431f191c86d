// The answer of a decided life-cycle request, rebuilt from what it stored (the first caller's and
// every replay's).
import { invariant } from '../lib/assert.ts';
import { accountAfter, answerEntry, toAccountSnapshot } from './convert.ts';
import type { StoredAccount } from './holdModel.ts';
import type { LifecycleOutcome } from './lifecycleModel.ts';
import { type AccountDoc, AccountStatus, type EntryDoc } from './model.ts';
import { fromLong } from './money.ts';
import type { AccountSnapshot, CloseAccountSuccess, LifecycleOutcomeResult, ReverseMoveSuccess } from './results.ts';

/** The answer of a decided life-cycle request, from its outcome and entries (the first caller's and every replay's). */
export function lifecycleResult(outcome: LifecycleOutcome, docs: readonly EntryDoc[]): LifecycleOutcomeResult {
  const entries = docs.map((doc) => ({ ...answerEntry(doc), metadata: null }));
  const debit = entries.find((entry) => entry.id.endsWith(':debit')) ?? null;
  const credit = entries.find((entry) => entry.id.endsWith(':credit')) ?? null;
  switch (outcome.kind) {
    case 'rejected':
      return {
        kind: 'insufficientFunds',
        accountId: outcome.accountId,
        balance: fromLong(outcome.balance),
        amount: fromLong(outcome.amount),
      };
    case 'reversed': {
      invariant(debit, () => `reversal of ${outcome.originalRequestId} lacks its debit entry`);
      const result: ReverseMoveSuccess = {
        kind: 'reverseMoveSuccess',
        originalRequestId: outcome.originalRequestId,
        amount: fromLong(outcome.amount),
        originalAmount: fromLong(outcome.originalAmount),
        reversedAmount: fromLong(outcome.reversedAmount),
        debit,
        credit,
        from: accountAfter(debit),
        to: credit ? accountAfter(credit) : null,
      };
      return result;
    }
    case 'closed': {
      const account: AccountSnapshot = {
        ...accountSnapshot(outcome.account),
        status: AccountStatus.CLOSED,
        closedAt: outcome.closedAt,
      };
      const result: CloseAccountSuccess = {
        kind: 'closeAccountSuccess',
        account,
        movedAmount: fromLong(outcome.movedAmount),
        transferredTo: accountSnapshot(outcome.transferredTo),
        debit,
        credit,
      };
      return result;
    }
  }
}

function accountSnapshot(stored: StoredAccount): AccountSnapshot {
  const doc: AccountDoc = {
    _id: stored.id,
    currency: stored.currency,
    balance: stored.balance,
    version: stored.version,
    held: stored.held,
    openedAt: new Date(0),
  };
  return toAccountSnapshot(doc);
}
