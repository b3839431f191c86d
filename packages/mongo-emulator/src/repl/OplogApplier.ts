// Applies fetched oplog entries on a secondary (mongod's oplog_applier_impl.cpp, in short: one
// entry at a time, in order, honouring secondaryDelaySecs and the rsSyncApplyStop fail point),
// then sends the batch to the journal at once.
import type { Timestamp } from 'bson';
import type { Document } from '../engine/types.ts';
import { applyEntry } from './applyEntry.ts';
import { delay } from './delay.ts';
import type { ReplHost } from './replHost.ts';

/** How often a batch held by rsSyncApplyStop looks whether the fail point was lifted. */
const FAIL_POINT_POLL_MS = 50;

export interface ApplierHost {
  readonly server: ReplHost;
  /** This member's secondaryDelaySecs (0 without a configuration). */
  secondaryDelaySecs(): number;
  isPrimary(): boolean;
  /** A batch was applied: waiters re-check and the member reports its new position. */
  batchApplied(): void;
}

export class OplogApplier {
  readonly #host: ApplierHost;

  constructor(host: ApplierHost) {
    this.#host = host;
  }

  /** Applies `batch` in order; `idempotent` for an initial sync's replay over cloned data. Stops early on abort or a step-up. */
  async applyBatch(batch: Document[], signal: AbortSignal, idempotent = false): Promise<void> {
    if (batch.length === 0) return;
    const server = this.#host.server;
    const delaySecs = this.#host.secondaryDelaySecs();
    for (const entry of batch) {
      while (server.failPoints.replicationStopped('rsSyncApplyStop')) {
        await delay(FAIL_POINT_POLL_MS, signal);
        if (signal.aborted) return;
      }
      if (delaySecs > 0) {
        const dueMs = (entry.wall as Date).getTime() + delaySecs * 1000;
        if (dueMs > Date.now()) await delay(dueMs - Date.now(), signal);
      }
      if (signal.aborted || this.#host.isPrimary()) return;
      applyEntry(server, entry, idempotent);
      server.clock.advanceTo(entry.ts as Timestamp);
    }
    // The batch goes to the journal at once rather than at the next commit interval, as mongod's
    // secondaries do (sync_tail.cpp, ApplyBatchFinalizerForJournal: waitUntilDurable after each
    // batch, then the durable optime moves); the position is reported again when the flush
    // lands (storage.onDurable).
    server.storage?.requestFlush();
    this.#host.batchApplied();
  }
}
