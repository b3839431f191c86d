import type { Collection, Db, IndexDescription, ObjectId } from 'mongodb';
import { isIndexConflict } from '../db/mongoErrors.ts';
import { leaseCollection, type LeaseDoc } from '../db/lease.ts';
import { collectionNames } from '../ledger/index.ts';

// The audit's own collections (only this folder writes them), and the indexes it needs on the
// ledger's journal, which it only reads.
//
// ledger_audit       one document: the audit's lease (src/db/lease.ts) and its schedule: where
//                    the incremental runs stand, when each kind of run is next due (database
//                    clock), and an operator's request for a run now.
// ledger_audit_runs  one document per finished run: its scope, counts and mismatches.

export const AUDIT_STATE_COLLECTION = 'ledger_audit';
export const AUDIT_RUNS_COLLECTION = 'ledger_audit_runs';
export const AUDIT_LEASE_NAME = 'ledgerAudit';

export type AuditScope = 'incremental' | 'full';

export const MismatchKind = Object.freeze({
  /** The balance differs from the opening balance (0) plus the account's entries. */
  BALANCE: 'BALANCE',
  NEGATIVE_BALANCE: 'NEGATIVE_BALANCE',
  /** A transferOut without its transferIn of the same requestId and amount. */
  TRANSFER_UNBALANCED: 'TRANSFER_UNBALANCED',
  /** An applied withdrawal without its `payout:<entryId>` work item. */
  PAYOUT_MISSING: 'PAYOUT_MISSING',
  /** A request still pending past the bound. */
  REQUEST_UNDECIDED: 'REQUEST_UNDECIDED',
  /** The account's `held` differs from the sum of its pending holds (H1). */
  HELD: 'HELD',
  /** balance - held is below zero (H1). */
  NEGATIVE_AVAILABLE: 'NEGATIVE_AVAILABLE',
  /** A move's reversals took back more than it moved, or its `reversedAmount` differs from its reversals' entries (L1). */
  REVERSAL_EXCEEDS_ORIGINAL: 'REVERSAL_EXCEEDS_ORIGINAL',
  /** A CLOSED account holds money or pending holds (L2). */
  CLOSED_NOT_EMPTY: 'CLOSED_NOT_EMPTY',
} as const);
export type MismatchKind = (typeof MismatchKind)[keyof typeof MismatchKind];

export interface Mismatch {
  kind: MismatchKind;
  /** The account concerned; null for a request (whose accounts the stable fields do not name). */
  accountId: string | null;
  /** What was checked: the account, the entry or the request id. */
  subject: string;
  /** Minor units for balances and amounts; 1 for a payout; the bound in ms for a request. */
  expected: number;
  actual: number;
}

export interface AuditStateDoc extends LeaseDoc {
  /** Entries stamped from here (less the margin) are what the next incremental run looks at. */
  incrementalCursor?: Date | null;
  nextIncrementalAt?: Date | null;
  nextFullAt?: Date | null;
  /** Set by `runLedgerAudit`; cleared by the full run that started after it. */
  requestedAt?: Date | null;
}

export interface AuditRunDoc {
  _id: ObjectId;
  scope: AuditScope;
  startedAt: Date;
  finishedAt: Date;
  accountsChecked: number;
  entriesChecked: number;
  requestsChecked: number;
  mismatchCount: number;
  mismatchCounts: Partial<Record<MismatchKind, number>>;
  /** At most `mismatchesStoredMax`; `mismatchCount` is exact. */
  mismatches: Mismatch[];
}

export function auditState(db: Db): Collection<AuditStateDoc> {
  return leaseCollection<AuditStateDoc>(db, AUDIT_STATE_COLLECTION);
}

export function auditRuns(db: Db): Collection<AuditRunDoc> {
  return db.collection<AuditRunDoc>(AUDIT_RUNS_COLLECTION, {
    readPreference: 'primary',
    writeConcern: { w: 'majority' },
  });
}

/**
 * On the ledger's journal: the incremental window and the per-account sums (covered). The transfer
 * pairs are looked up by requestId on the ledger's own `requestId` index (two legs per key at most).
 */
const journalIndexes: IndexDescription[] = [
  { key: { createdAt: 1, _id: 1 }, name: 'audit_createdAt_id' },
  { key: { accountId: 1, kind: 1, amount: 1 }, name: 'audit_accountId_kind_amount' },
  // The same index as the payout catch-up's (src/payouts/withdrawalWalk.ts): the full
  // sweep walks transferOut and withdrawal entries by it. Declared identically, so creating it twice is a no-op.
  { key: { kind: 1, createdAt: 1, _id: 1 }, name: 'kind_createdAt_id' },
];

/** The recovery sweep's index, declared by the ledger too; found undecided requests by it. */
const requestIndexes: IndexDescription[] = [{ key: { status: 1, firstSeenAt: 1 }, name: 'status_firstSeenAt' }];

export async function ensureAuditIndexes(db: Db): Promise<void> {
  await auditRuns(db).createIndexes([{ key: { finishedAt: -1 }, name: 'finishedAt' }]);
  await db.collection(collectionNames.entries).createIndexes(journalIndexes);
  await db
    .collection(collectionNames.requests)
    .createIndexes(requestIndexes)
    .catch((error: unknown) => {
      // The ledger declares it its own way: theirs serves as well.
      if (!isIndexConflict(error)) throw error;
    });
}
