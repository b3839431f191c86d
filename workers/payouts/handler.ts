// What the payout worker does with one PAYOUT item: pay the entry's withdrawal out at the provider
// under the entry's key, and hand the provider's reference back as the completion's result, so
// that the fenced completion records it on the item.
import type { HandlerContext } from '@precondition/sdk';
import { z } from 'zod';
import { payoutKey, type PayoutProvider } from './provider.ts';

/** The kind the payout projection gives each applied withdrawal's item. */
export const PAYOUT_KIND = 'PAYOUT';

/** What the projection puts in a PAYOUT item's payload (src/payouts' PayoutPayload, as the API shows it). */
const payoutPayload = z.object({
  entryId: z.string().min(1),
  accountId: z.string().min(1),
  currency: z.string().min(1),
  amount: z.number().int().positive(),
});

/** A completed payout's result, as recorded on its item. */
export interface PayoutResult {
  /** The provider's reference (the `id` of its answer). */
  providerId: string;
  /** The key the provider holds the payout under. */
  key: string;
}

export function createPayoutHandler(
  provider: PayoutProvider,
): (context: Pick<HandlerContext, 'item' | 'signal'>) => Promise<PayoutResult> {
  return async ({ item, signal }) => {
    const payload = payoutPayload.safeParse(item.payload);
    if (!payload.success) {
      throw new Error(
        `item ${item.id} is not a payout: its payload has ${payload.error.issues.map((issue) => `${issue.path.join('.') || 'payload'}: ${issue.message}`).join('; ')}`,
      );
    }
    const { entryId, accountId, amount, currency } = payload.data;
    // From the entry, so the same on every attempt and every worker: a retry after a kill or a
    // lease taken over mid-call is answered by the provider with the payout it already made.
    const key = payoutKey(entryId);
    // The projection's items are keyed `payout:<entryId>` too (clients' keys are stored as
    // `client:<key>`): any other PAYOUT item was not made from a withdrawal, and pays nothing.
    if (item.idempotencyKey !== key) {
      throw new Error(
        `item ${item.id} (key ${item.idempotencyKey}) was not created by the payout projection for entry ${entryId}: not paid`,
      );
    }
    const receipt = await provider.pay({ key, entryId, accountId, amount, currency }, signal);
    return { providerId: receipt.id, key };
  };
}
