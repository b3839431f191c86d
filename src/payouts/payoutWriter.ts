import type { Document } from 'mongodb';
import type { EntryDoc } from '../ledger/index.ts';
import { fromLong } from '../ledger/index.ts';

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
  /** The withdrawal's trace (stored on its entry), kept on the work item and not in its payload. */
  traceparent?: string | undefined;
}

/** Writes the payout for one withdrawal; `created` is false when it already existed (a replay). */
export type PayoutWriter = (payout: Payout) => Promise<{ created: boolean }>;

/** Writes the payouts of a batch of withdrawals at once; `created` counts those that did not exist yet. */
export type PayoutsWriter = (payouts: Payout[]) => Promise<{ created: number }>;

/** A batch writer from a one-by-one writer (a test's replacement writer keeps its per-payout behaviour). */
export function oneByOne(write: PayoutWriter): PayoutsWriter {
  return async (payouts) => {
    let created = 0;
    for (const payout of payouts) if ((await write(payout)).created) created += 1;
    return { created };
  };
}

/** The change-stream stages that keep only inserted withdrawal entries. */
export const WITHDRAWAL_INSERTS: Document[] = [
  { $match: { operationType: 'insert', 'fullDocument.kind': 'withdrawal' } },
];

export function payoutOf(entry: {
  entryId: string;
  requestId: string;
  accountId: string;
  currency: string;
  amount: number;
  traceparent?: string | undefined;
}): Payout {
  const { entryId, requestId, accountId, currency, amount, traceparent } = entry;
  return {
    entryId,
    payload: { entryId, requestId, accountId, currency, amount },
    ...(traceparent ? { traceparent } : {}),
  };
}

export function payoutOfInsert(change: Document): Payout {
  const doc = change['fullDocument'] as EntryDoc | undefined;
  if (doc?.kind !== 'withdrawal') throw new Error('expected the insert event of a withdrawal entry');
  return payoutOf({
    entryId: doc._id,
    requestId: doc.requestId,
    accountId: doc.accountId,
    currency: doc.currency,
    amount: fromLong(doc.amount),
    traceparent: doc.traceparent,
  });
}
