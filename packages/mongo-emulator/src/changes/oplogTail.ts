// Tailable, awaitData cursors on local.oplog.rs: what a secondary's oplog fetcher reads its sync
// source with (src/mongo/db/repl/oplog_fetcher.cpp: find {ts: {$gte: lastFetched}}, tailable,
// awaitData, then getMores that wait up to maxTimeMS for new entries). A cursor remembers the
// last time it returned; the entries after it are its next batch. When the capped oplog dropped
// entries the cursor had not returned, its getMore fails with CappedPositionLost, as mongod's.
import { randomBytes } from 'node:crypto';
import type { Document } from '../engine/types.ts';
import { compileFilter } from '../engine/match.ts';
import { CommandError } from '../errors.ts';
import type { Oplog } from './Oplog.ts';
import { timeKey } from './resumeToken.ts';
import type { Timestamp } from 'bson';

/** Entries per batch when the fetcher sets no batchSize (mongod bounds the fetcher's batches by bytes). */
const DEFAULT_BATCH_ENTRIES = 5_000;
/** Open tailable cursors at once; each member has a few fetchers reading it. */
const OPEN_TAILS_MAX = 1_000;
/** A tailable cursor no getMore used for this long is dropped (its fetcher is gone or moved on). */
const TAIL_IDLE_TIMEOUT_MS = 60_000;

interface Tail {
  ns: string;
  lastUsedMs: number;
  lastKey: bigint;
  batchSize: number;
}

export class OplogTails {
  readonly #tails = new Map<bigint, Tail>();

  constructor(private readonly oplog: () => Oplog) {}

  owns(id: bigint): boolean {
    return this.#tails.has(id);
  }

  /** `find` with `tailable: true`: the first batch, and a cursor that stays open on an empty result. */
  open(filter: Document, batchSize: number | undefined): Document {
    const matches = Object.keys(filter).length === 0 ? undefined : compileFilter(filter, { now: new Date() });
    const records = this.oplog().records();
    const size = batchSize || DEFAULT_BATCH_ENTRIES;
    const firstBatch: Document[] = [];
    let lastKey = -1n;
    for (const { doc } of records) {
      if (matches && !matches(doc)) continue;
      if (firstBatch.length >= size) break;
      firstBatch.push(doc);
      lastKey = timeKey(doc.ts as Timestamp);
    }
    if (firstBatch.length === 0) return { firstBatch, id: 0n, ns: 'local.oplog.rs' };
    const idleSince = Date.now() - TAIL_IDLE_TIMEOUT_MS;
    for (const [id, t] of this.#tails) if (t.lastUsedMs < idleSince) this.#tails.delete(id);
    if (this.#tails.size >= OPEN_TAILS_MAX)
      throw new CommandError(
        'ExceededMemoryLimit',
        `mongo-emulator: more than ${OPEN_TAILS_MAX} tailable oplog cursors`,
      );
    const id = randomBytes(8).readBigInt64LE() & 0x7fffffffffffffffn || 1n;
    this.#tails.set(id, { ns: 'local.oplog.rs', lastUsedMs: Date.now(), lastKey, batchSize: size });
    return { firstBatch, id, ns: 'local.oplog.rs' };
  }

  /** The entries after the cursor's last, waiting up to `maxTimeMS` for one when there are none. */
  async getMore(
    id: bigint,
    batchSize: number | undefined,
    maxTimeMS: number,
    signals: AbortSignal[],
  ): Promise<Document> {
    const tail = this.#tails.get(id);
    if (!tail) throw new CommandError('CursorNotFound', `cursor id ${id} not found`);
    tail.lastUsedMs = Date.now();
    let batch = this.#after(tail, batchSize || tail.batchSize);
    if (batch.length === 0 && maxTimeMS > 0) {
      const oplog = this.oplog();
      await oplog.waitFor(oplog.nextSeq, maxTimeMS, signals);
      if (!this.#tails.has(id)) throw new CommandError('CursorKilled', `cursor id ${id} was killed`);
      batch = this.#after(tail, batchSize || tail.batchSize);
    }
    return { nextBatch: batch, id, ns: tail.ns };
  }

  kill(ids: bigint[]): bigint[] {
    return ids.filter((id) => this.#tails.delete(id));
  }

  /** Every cursor ends (the oplog was replaced: rollback or a new initial sync). */
  killAll(): void {
    this.#tails.clear();
  }

  #after(tail: Tail, size: number): Document[] {
    const oplog = this.oplog();
    const first = oplog.firstRecord;
    if (first && tail.lastKey >= 0n && timeKey(first.doc.ts as Timestamp) > tail.lastKey) {
      for (const [id, t] of this.#tails) if (t === tail) this.#tails.delete(id);
      throw new CommandError(
        'CappedPositionLost',
        'CollectionScan died due to position in capped collection being deleted',
      );
    }
    const batch = oplog.recordsAfter(tail.lastKey, size);
    if (batch.length > 0) tail.lastKey = timeKey(batch[batch.length - 1]!.ts as Timestamp);
    return batch;
  }
}
