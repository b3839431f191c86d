import type { Document } from 'mongodb';
import type { EntryDoc } from '../../ledger/index.ts';
import { fromLong } from '../../ledger/money.ts';

// What a PAYOUT work item carries, built the same way from a change event and from the
// reconciliation's query, so a replay or a reconciliation of the same withdrawal is identical.

export interface PayoutPayload {
  entryId: string;
  requestId: string;
  accountId: string;
  currency: string;
  /** Minor units. */
  amount: number;
}

export interface Payout {
  entryId: string;
  payload: PayoutPayload;
}

/** Writes the payout for one withdrawal; `created` is false when it already existed (a replay). */
export type PayoutWriter = (payout: Payout) => Promise<{ created: boolean }>;

/** The change-stream stages that keep only inserted withdrawal entries. */
export const WITHDRAWAL_INSERTS: Document[] = [{ $match: { operationType: 'insert', 'fullDocument.kind': 'withdrawal' } }];

export function payoutOf(entry: { entryId: string; requestId: string; accountId: string; currency: string; amount: number }): Payout {
  const { entryId, requestId, accountId, currency, amount } = entry;
  return { entryId, payload: { entryId, requestId, accountId, currency, amount } };
}

export function payoutOfInsert(change: Document): Payout {
  const doc = change['fullDocument'] as EntryDoc | undefined;
  if (!doc || doc.kind !== 'withdrawal') throw new Error('expected the insert event of a withdrawal entry');
  return payoutOf({ entryId: doc._id, requestId: doc.requestId, accountId: doc.accountId, currency: doc.currency, amount: fromLong(doc.amount) });
}
