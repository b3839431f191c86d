// The writes that decide a hold's fate, and the expiry filters on the database's clock (H3).
import type { ClientSession, Collection, Document, Filter } from 'mongodb';
import { type HoldDoc, HoldStatus } from './holdModel.ts';

/**
 * The writes that decide a hold's fate. A dependency only so that the meta-tests can swap in a
 * broken one (a status checked on a read, an expiry judged on this process's clock); production
 * always uses `holdRules`.
 */
export interface HoldRules {
  /** The pipeline value of a new hold's `expiresAt`. */
  expiresAt(expiresInSeconds: number): Document;
  /**
   * Resolves a hold that is pending and unexpired, matching `extra` too, with `update`; returns the
   * hold after the write, or null when nothing matched (nothing written).
   */
  resolve(
    holds: Collection<HoldDoc>,
    session: ClientSession,
    holdId: string,
    extra: Filter<HoldDoc>,
    update: Document[],
  ): Promise<HoldDoc | null>;
}

/** `expiresAt > $$NOW`: the hold may still be resolved by a caller, on the database's clock (H3). */
export const unexpired: Document = { $expr: { $gt: ['$expiresAt', '$$NOW'] } };
/** `expiresAt <= $$NOW`: past its expiry on the database's clock, whether or not the sweeper ran. */
export const expired: Document = { $expr: { $lte: ['$expiresAt', '$$NOW'] } };

export const holdRules: HoldRules = Object.freeze<HoldRules>({
  expiresAt: (expiresInSeconds) => ({ $add: ['$$NOW', expiresInSeconds * 1_000] }),
  resolve: (holds, session, holdId, extra, update) =>
    holds.findOneAndUpdate(
      { _id: holdId, status: HoldStatus.PENDING, ...unexpired, ...extra } as Filter<HoldDoc>,
      update,
      {
        session,
        returnDocument: 'after',
      },
    ),
});
