import { toLedgerEntry } from './convert.ts';
import { type LedgerCollections, withdrawalsByIdIndex } from './model.ts';
import type { LedgerEntry } from './results.ts';

// Applied withdrawals in `_id` order, for the payout projection's reconciliation after change-
// stream history is lost. An entry exists only once its debit applied, so every withdrawal entry
// is an applied withdrawal. The walk is hinted, so the server uses the index or refuses.

/** Withdrawal entries whose `_id` sorts after `afterId` (all of them when null), `_id` ascending. */
export async function withdrawalsAfter(
  collections: LedgerCollections,
  afterId: string | null,
  limit: number,
): Promise<LedgerEntry[]> {
  const filter = afterId === null ? { kind: 'withdrawal' as const } : { kind: 'withdrawal' as const, _id: { $gt: afterId } };
  const docs = await collections.entries
    .find(filter, { readConcern: { level: 'majority' }, hint: { ...withdrawalsByIdIndex } })
    .sort({ _id: 1 })
    .limit(limit)
    .toArray();
  return docs.map(toLedgerEntry);
}
