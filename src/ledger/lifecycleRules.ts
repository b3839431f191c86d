// The write that decides a reversal (L1), swappable only by the meta-test.
import type { ClientSession, Collection } from 'mongodb';
import type { RequestDoc } from './model.ts';
import { toLong } from './money.ts';

/**
 * The write that decides a reversal against its original (L1). A dependency only so that the
 * meta-test can swap in a broken one (the reversed total checked on a read before the write);
 * production always uses `lifecycleRules`.
 */
export interface LifecycleRules {
  /**
   * Adds `amount` to the original's `reversedAmount` if the total stays within the original's
   * amount; the record after the write, or null when nothing matched (nothing written).
   * `readBefore` is the original as read before the transaction (to pick the accounts' turns):
   * what a check must never rely on, and what the meta-test's mutant does rely on.
   */
  takeReversal(
    requests: Collection<RequestDoc>,
    session: ClientSession,
    originalKey: string,
    amount: number,
    readBefore: RequestDoc | null,
  ): Promise<RequestDoc | null>;
}

export const lifecycleRules: LifecycleRules = Object.freeze<LifecycleRules>({
  takeReversal: (requests, session, originalKey, amount) =>
    requests.findOneAndUpdate(
      {
        _id: originalKey,
        status: 'applied',
        $expr: { $lte: [{ $add: [{ $ifNull: ['$reversedAmount', toLong(0)] }, toLong(amount)] }, '$params.amount'] },
      },
      { $inc: { reversedAmount: toLong(amount) } },
      { session, returnDocument: 'after' },
    ),
});
