import type { Db } from 'mongodb';
import { projectionLeases, type LeaseDoc } from './lease.ts';
import { PAYOUT_LEASE_NAME } from './PayoutProjection.ts';

/** Reads the payout projection's lease document as its holder keeps it (the ops console's view). */
export function createPayoutLeaseReader(db: Db) {
  return Object.freeze({
    read: (): Promise<LeaseDoc | null> => projectionLeases(db).findOne({ _id: PAYOUT_LEASE_NAME }),
  });
}

export type PayoutLeaseReader = ReturnType<typeof createPayoutLeaseReader>;
