// A life-cycle request as stored under its key: its parameters, its outcome (reversals and closings).
import type { Long } from 'mongodb';
import type { StoredAccount } from './holdModel.ts';

/** What a life-cycle request was sent with; compared by hash on a replay. */
export type LifecycleParams =
  | { op: 'reverseMove'; originalRequestId: string; amount: Long | null }
  | { op: 'closeAccount'; accountId: string; transferBalanceTo: string };

/** What a life-cycle request decided, stored on its request so every replay repeats it. */
export type LifecycleOutcome =
  | {
      kind: 'reversed';
      originalRequestId: string;
      originalAmount: Long;
      reversedAmount: Long;
      amount: Long;
      entryIds: string[];
    }
  | {
      kind: 'closed';
      account: StoredAccount;
      closedAt: Date;
      movedAmount: Long;
      transferredTo: StoredAccount;
      entryIds: string[];
    }
  /** The account to debit no longer held the amount: final for the key, like a withdrawal's. */
  | { kind: 'rejected'; accountId: string; balance: Long; amount: Long };

export interface LifecycleRequestDoc {
  _id: string;
  requestId: string;
  paramsHash: string;
  params: LifecycleParams;
  status: 'applied' | 'rejected';
  outcome: LifecycleOutcome;
  firstSeenAt: Date;
  decidedAt: Date;
}
