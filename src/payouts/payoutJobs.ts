import type { Collection, Db } from 'mongodb';
import type { Payout } from './payoutWriter.ts';

// The BullMQ sink's unique key per entry, in MongoDB (this feature's collection): one document per
// applied withdrawal, `_id` `payout:<entryId>`, written *before* the job is added and marked
// `added` only *after* Redis acknowledged the add. BullMQ refuses a second job with the same id
// only while the first exists (a completed job removed by `removeOnComplete` frees its id), so the
// queue's retention cannot be what makes a replay a no-op; this record is, and it lives as long as
// the journal does.

export const PAYOUT_JOBS_COLLECTION = 'payout_jobs';

export type PayoutJobState = 'recorded' | 'added';

export interface PayoutJobDoc {
  /** `payout:<entryId>`: the unique index every write meets (the collection's own _id index). */
  _id: string;
  entryId: string;
  /** The queue it was recorded for (shown to operators; the key does not depend on it). */
  queue: string;
  /** BullMQ's job id (payoutJobId). */
  jobId: string;
  state: PayoutJobState;
  recordedAt: Date;
  addedAt?: Date;
  /** How `added` was learnt: the add's acknowledgement, or a worker's taken mark after a crash. */
  addedBy?: 'ack' | 'takenMark';
}

export function payoutJobs(db: Db): Collection<PayoutJobDoc> {
  // Majority: a record a failover could roll back would let a replay add a second job.
  return db.collection<PayoutJobDoc>(PAYOUT_JOBS_COLLECTION, {
    writeConcern: { w: 'majority' },
    readConcern: { level: 'majority' },
    readPreference: 'primary',
  });
}

export function payoutRecordKey(entryId: string): string {
  return `payout:${entryId}`;
}

/**
 * BullMQ's job id for an entry: the key `payout:<entryId>`, URI-encoded. BullMQ 6 refuses a custom
 * id holding `:` (unless it has exactly three parts, its old repeatable jobs' shape) and entry ids
 * are `ledger:<requestId>:debit`; encodeURIComponent is one-to-one and leaves no `:`, so the job id
 * still names exactly one entry (decodeURIComponent gives the key back).
 */
export function payoutJobId(entryId: string): string {
  return encodeURIComponent(payoutRecordKey(entryId));
}

/** Where each payout of a batch stands in the records, after recording the new ones. */
export interface RecordedBatch {
  /** Recorded by this call: never added before. */
  fresh: Payout[];
  /** Recorded by an earlier attempt that did not see its add acknowledged (a crash, a Redis failure). */
  unconfirmed: Payout[];
  /** Added for good: a replay. */
  added: Payout[];
}

/** The records as the sink uses them; src/testing replaces them with none (the meta-test's mutant). */
export interface PayoutJobRecords {
  record(payouts: Payout[], queue: string): Promise<RecordedBatch>;
  markAdded(entryIds: string[], by: 'ack' | 'takenMark'): Promise<void>;
  addedAmong(entryIds: readonly string[]): Promise<Set<string>>;
  ensureIndexes(): Promise<void>;
}

export function mongoPayoutJobRecords(db: Db): PayoutJobRecords {
  const collection = payoutJobs(db);
  return {
    async record(payouts, queue) {
      if (payouts.length === 0) return { fresh: [], unconfirmed: [], added: [] };
      // One upsert per entry on the unique _id: an existing record is left as it is.
      const result = await collection.bulkWrite(
        payouts.map(({ entryId }) => ({
          updateOne: {
            filter: { _id: payoutRecordKey(entryId) },
            update: {
              $setOnInsert: {
                entryId,
                queue,
                jobId: payoutJobId(entryId),
                state: 'recorded' as const,
                recordedAt: new Date(),
              },
            },
            upsert: true,
          },
        })),
        { ordered: false },
      );
      const freshIndexes = new Set(Object.keys(result.upsertedIds).map(Number));
      const fresh = payouts.filter((_, index) => freshIndexes.has(index));
      const seen = payouts.filter((_, index) => !freshIndexes.has(index));
      if (seen.length === 0) return { fresh, unconfirmed: [], added: [] };
      const addedIds = await this.addedAmong(seen.map((payout) => payout.entryId));
      return {
        fresh,
        unconfirmed: seen.filter((payout) => !addedIds.has(payout.entryId)),
        added: seen.filter((payout) => addedIds.has(payout.entryId)),
      };
    },
    async markAdded(entryIds, by) {
      if (entryIds.length === 0) return;
      await collection.updateMany(
        { _id: { $in: entryIds.map(payoutRecordKey) }, state: 'recorded' },
        { $set: { state: 'added', addedAt: new Date(), addedBy: by } },
      );
    },
    async addedAmong(entryIds) {
      if (entryIds.length === 0) return new Set();
      const found = await collection
        .find({ _id: { $in: entryIds.map(payoutRecordKey) }, state: 'added' }, { projection: { entryId: 1 } })
        .toArray();
      return new Set(found.map((doc) => doc.entryId));
    },
    async ensureIndexes() {
      // The unique key is _id; the one extra index finds what an interrupted add left (ops, docs/payout-queue.md).
      await collection.createIndexes([{ key: { state: 1, recordedAt: 1 }, name: 'state_recordedAt' }]);
    },
  };
}
