import type { WorkDeps } from './workDeps.ts';
import { KeyNamespace, namespacedKey } from './model.ts';

// Which withdrawals already have their PAYOUT item: one lookup on the unique idempotency-key
// index per batch, so the payout projection's reconciliation writes only what is missing.

/** Of `entryIds`, those whose `payout:<entryId>` item exists. */
export async function entriesWithPayout(ctx: WorkDeps, entryIds: readonly string[]): Promise<Set<string>> {
  const prefix = `${KeyNamespace.PAYOUT}:`;
  const keys = entryIds.map((entryId) => namespacedKey(KeyNamespace.PAYOUT, entryId));
  const found = await ctx.collection
    .find({ idempotencyKey: { $in: keys } }, { projection: { _id: 0, idempotencyKey: 1 } })
    .toArray();
  return new Set(found.map((item) => item.idempotencyKey.slice(prefix.length)));
}
