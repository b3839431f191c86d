import { accountAfter, toLedgerEntry } from './convert.ts';
import type { EntryDoc, LedgerCollections, RequestDoc } from './model.ts';
import { fromLong } from './money.ts';
import type { LedgerEntry, MoveOutcome } from './results.ts';

/**
 * Rebuilds a decided request's outcome from what was stored. The first caller and every replay
 * go through here, so they all see the very same entries and balances. `stored` are the
 * request's entries when the caller already holds them (it inserted them itself: entries are
 * immutable, so they are what a read would return); otherwise they are read.
 */
export async function loadOutcome(
  collections: LedgerCollections,
  request: RequestDoc,
  stored?: readonly EntryDoc[],
): Promise<MoveOutcome> {
  const { outcome } = request;
  if (outcome === null) throw new Error(`invariant: request ${request._id} has no outcome yet`);
  if (outcome.kind === 'rejected') {
    return {
      kind: 'insufficientFunds',
      accountId: outcome.accountId,
      balance: fromLong(outcome.balance),
      amount: fromLong(outcome.amount),
    };
  }
  const docs = stored ?? (await collections.entries.find({ _id: { $in: outcome.entryIds } }).toArray());
  if (docs.length !== outcome.entryIds.length || !docs.every((doc) => outcome.entryIds.includes(doc._id))) {
    throw new Error(`invariant: request ${request._id} has entries other than its outcome names`);
  }
  const entries = docs.map(toLedgerEntry);
  const leg = (kind: LedgerEntry['kind']): LedgerEntry => {
    const entry = entries.find((candidate) => candidate.kind === kind);
    if (!entry) throw new Error(`invariant: request ${request._id} lacks its ${kind} entry`);
    return entry;
  };
  switch (request.params.op) {
    case 'deposit': {
      const entry = leg('deposit');
      return { kind: 'depositSuccess', entry, account: accountAfter(entry) };
    }
    case 'withdraw': {
      const entry = leg('withdrawal');
      return { kind: 'withdrawSuccess', entry, account: accountAfter(entry) };
    }
    case 'transfer': {
      const debit = leg('transferOut');
      const credit = leg('transferIn');
      return { kind: 'transferSuccess', debit, credit, from: accountAfter(debit), to: accountAfter(credit) };
    }
  }
}
