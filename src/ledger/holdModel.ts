import { createHash } from 'node:crypto';
import type { Collection, Db, Long } from 'mongodb';
import { collectionNames } from './model.ts';

// Holds (two-phase moves, DESIGN "Holds"). A hold reserves part of an account's balance: the
// account's `held` is the sum of its PENDING holds, and a hold leaves PENDING exactly once, by the
// conditional write of one transaction (capture, void or expiry) whose filter holds
// `status: 'PENDING'` and the expiry on the database clock. A hold's requests (authorize, capture,
// void) live beside the money moves' in ledger_requests, under the same `ledger:<requestId>` keys:
// one key is one request, whichever mutation sent it.

export const holdsCollectionName = collectionNames.holds;

export const HoldStatus = Object.freeze({
  PENDING: 'PENDING',
  CAPTURED: 'CAPTURED',
  VOIDED: 'VOIDED',
  EXPIRED: 'EXPIRED',
} as const);
export type HoldStatus = (typeof HoldStatus)[keyof typeof HoldStatus];

export interface HoldDoc {
  /** Derived from the authorizing request's key (`holdIdOf`): a replay can never mint a second hold. */
  _id: string;
  accountId: string;
  currency: string;
  amount: Long;
  /** 0 until captured; then what the capture took (the rest was released with it). */
  capturedAmount: Long;
  status: HoldStatus;
  /** On the database server's clock ($$NOW at the authorization plus expiresInSeconds). */
  expiresAt: Date;
  createdAt: Date;
  /** The requestId that authorized it. */
  authorizedBy: string;
  /** The requestId of the capture or void that resolved it; null while pending or when it expired. */
  resolvedBy: string | null;
  resolvedAt: Date | null;
  /** A capture's credited account; null for a capture paid out as a withdrawal. */
  capturedTo: string | null;
  /**
   * Null while pending; the resolution as one object, written by the write that resolves the hold.
   * A field that goes from null to an object appears whole in the change event's
   * `updateDescription.updatedFields`, so `holdChanged` learns the account of a resolution from
   * the event itself, never from a looked-up current document (events.ts).
   */
  change: HoldChange | null;
}

export interface HoldChange {
  accountId: string;
  status: HoldStatus;
  amount: Long;
  capturedAmount: Long;
  at: Date;
}

export type HoldOp = 'authorizeHold' | 'captureHold' | 'voidHold';

/** What a hold request was sent with; compared by hash on a replay like a money move's parameters. */
export interface HoldParams {
  op: HoldOp;
  /** The account of an authorization, null otherwise. */
  accountId: string | null;
  /** The hold of a capture or void, null for an authorization. */
  holdId: string | null;
  /** The authorized or captured amount; null for a void or a capture of the whole hold. */
  amount: Long | null;
  /** A capture's credited account; null otherwise. */
  toAccountId: string | null;
  expiresInSeconds: number | null;
  /** The caller's reference and metadata (JSON text), stored only when sent: part of the hash. */
  reference?: string;
  metadata?: string;
}

/** Hold and account as the decision left them, stored so that every replay repeats them exactly. */
export interface StoredHold {
  id: string;
  accountId: string;
  currency: string;
  amount: Long;
  capturedAmount: Long;
  status: HoldStatus;
  expiresAt: Date;
}

export interface StoredAccount {
  id: string;
  currency: string;
  balance: Long;
  version: Long;
  held: Long;
}

export type HoldOutcome =
  | { kind: 'authorized'; hold: StoredHold; account: StoredAccount }
  | { kind: 'captured'; hold: StoredHold; account: StoredAccount; toAccount: StoredAccount | null; entryIds: string[] }
  | { kind: 'voided'; hold: StoredHold; account: StoredAccount }
  /** An authorization the available balance did not cover: final for its key, like a withdrawal's. */
  | { kind: 'rejected'; accountId: string; balance: Long; amount: Long };

export interface HoldRequestDoc {
  _id: string;
  requestId: string;
  paramsHash: string;
  params: HoldParams;
  status: 'applied' | 'rejected';
  outcome: HoldOutcome;
  firstSeenAt: Date;
  decidedAt: Date;
}

/** The hold id of an authorization: a digest of its request key, fixed length whatever the key. */
export function holdIdOf(requestKey: string): string {
  return `hold_${createHash('sha256').update(requestKey).digest('base64url').slice(0, 22)}`;
}

export interface HoldCollections {
  holds: Collection<HoldDoc>;
  /** ledger_requests, typed for the hold requests it also holds. */
  requests: Collection<HoldRequestDoc>;
}

export function holdWriteCollections(db: Db): HoldCollections {
  const options = { readPreference: 'primary', writeConcern: { w: 'majority' } } as const;
  return {
    holds: db.collection<HoldDoc>(holdsCollectionName, options),
    requests: db.collection<HoldRequestDoc>(collectionNames.requests, options),
  };
}

export function holdReportingCollections(db: Db): HoldCollections {
  const options = { readPreference: 'secondaryPreferred', readConcern: { level: 'majority' } } as const;
  return {
    holds: db.collection<HoldDoc>(holdsCollectionName, options),
    requests: db.collection<HoldRequestDoc>(collectionNames.requests, options),
  };
}

/** The hold indexes (created with the ledger's, model.ts), by name for hints. */
export const HoldIndex = Object.freeze({
  byAccountStatus: 'accountId_status_createdAt__id',
  byAccount: 'accountId_createdAt__id',
  pendingByExpiry: 'status_expiresAt',
});
