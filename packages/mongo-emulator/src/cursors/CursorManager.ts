import { randomBytes } from 'node:crypto';
import { calculateObjectSize } from 'bson';
import { CommandError } from '../errors.ts';
import type { Document } from '../engine/types.ts';
import { MAX_BSON_OBJECT_SIZE_BYTES } from '../wire/constants.ts';

/** Open cursors at once; a client that leaks more is refused rather than exhausting memory. */
const OPEN_CURSORS_MAX = 100_000;
/** A cursor idle this long is dropped, as mongod's cursorTimeoutMillis (10 minutes) does. */
const CURSOR_IDLE_TIMEOUT_MS = 10 * 60 * 1000;
/** A batch stops growing past this many bytes (the first document always goes). */
const BATCH_SIZE_MAX_BYTES = MAX_BSON_OBJECT_SIZE_BYTES;
/** find and aggregate's default first batch, in documents. */
export const DEFAULT_FIRST_BATCH_SIZE = 101;

interface OpenCursor {
  ns: string;
  remaining: Document[];
  lastUsedMs: number;
}

/**
 * The server's open cursors. A command materialises its whole result (the engine is
 * synchronous and in memory); the cursor hands it out in batches.
 */
export class CursorManager {
  private readonly cursors = new Map<bigint, OpenCursor>();

  /** The reply's `cursor` document for a fresh result, keeping what the first batch leaves. */
  open(ns: string, results: Document[], options: { batchSize?: number; singleBatch?: boolean }): Document {
    const batchSize = options.batchSize ?? DEFAULT_FIRST_BATCH_SIZE;
    const firstBatch = takeBatch(results, batchSize);
    let id = 0n;
    if (results.length > 0 && !options.singleBatch) id = this.register(ns, results);
    return { firstBatch, id, ns };
  }

  /** The next batch; `afterCheckout` (fail points) runs once the cursor is held, and what it throws deletes the cursor, as mongod's getMore does on any error. */
  getMore(id: bigint, ns: string, batchSize: number | undefined, afterCheckout?: () => void): Document {
    const cursor = this.cursors.get(id);
    if (!cursor) throw new CommandError('CursorNotFound', `cursor id ${id} not found`);
    if (cursor.ns !== ns) {
      throw new CommandError(
        'Unauthorized',
        `Requested getMore on namespace '${ns}', but cursor belongs to a different namespace ${cursor.ns}`,
      );
    }
    try {
      afterCheckout?.();
    } catch (error) {
      this.cursors.delete(id);
      throw error;
    }
    cursor.lastUsedMs = Date.now();
    const nextBatch = takeBatch(cursor.remaining, batchSize ?? Number.MAX_SAFE_INTEGER);
    if (cursor.remaining.length === 0) this.cursors.delete(id);
    return { id: this.cursors.has(id) ? id : 0n, ns, nextBatch };
  }

  /** Kills the given cursors; answers which were found. */
  kill(ids: bigint[]): { killed: bigint[]; notFound: bigint[] } {
    const killed: bigint[] = [];
    const notFound: bigint[] = [];
    for (const id of ids) (this.cursors.delete(id) ? killed : notFound).push(id);
    return { killed, notFound };
  }

  get openCount(): number {
    return this.cursors.size;
  }

  private register(ns: string, remaining: Document[]): bigint {
    this.dropIdle();
    if (this.cursors.size >= OPEN_CURSORS_MAX) {
      throw new CommandError(
        'ExceededMemoryLimit',
        `mongo-emulator: more than ${OPEN_CURSORS_MAX} open cursors; close cursors you do not exhaust`,
      );
    }
    let id = randomCursorId();
    while (this.cursors.has(id)) id = randomCursorId();
    this.cursors.set(id, { ns, remaining, lastUsedMs: Date.now() });
    return id;
  }

  private dropIdle(): void {
    const oldestAllowedMs = Date.now() - CURSOR_IDLE_TIMEOUT_MS;
    for (const [id, cursor] of this.cursors) if (cursor.lastUsedMs < oldestAllowedMs) this.cursors.delete(id);
  }
}

/** Removes and returns the next batch: at most `count` documents and about 16 MiB. */
function takeBatch(results: Document[], count: number): Document[] {
  let taken = 0;
  let bytes = 0;
  while (taken < results.length && taken < count) {
    const size = calculateObjectSize(results[taken]!);
    if (taken > 0 && bytes + size > BATCH_SIZE_MAX_BYTES) break;
    bytes += size;
    taken += 1;
  }
  return results.splice(0, taken);
}

/** A positive, non-zero int64, as mongod's cursor ids are. */
function randomCursorId(): bigint {
  const id = randomBytes(8).readBigInt64LE() & 0x7fffffffffffffffn;
  return id === 0n ? 1n : id;
}
