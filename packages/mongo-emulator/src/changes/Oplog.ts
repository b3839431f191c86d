// The oplog: every committed change in commit order, as events (what change streams read, by
// sequence number) and as the documents of local.oplog.rs that log them (oplogEntry.ts), bounded
// like mongod's in bytes (and, for tests, in entries): the oldest documents go first, and the
// // events they logged with them, so a stream resuming before the window fails with 286. A waiting
// getMore parks a resolver here and is woken by the next append (no polling).
import type { Binary, Timestamp } from 'bson';
import type { ChangeRecord, Document } from '../engine/types.ts';
import { transientSize } from '../engine/documentSize.ts';
import { encodeToken, eventDigest, timeKey } from './resumeToken.ts';

/** Events only a stream with `showExpandedEvents` reports. */
export type ExpandedEventType = 'create' | 'createIndexes' | 'dropIndexes' | 'modify';

/** What a change stream can report: a document change, a namespace command, or nothing (noop). */
export type OplogOperation =
  | { op: 'crud'; change: ChangeRecord; collectionUUID: Binary | undefined; imagesRecorded: boolean }
  | { op: 'drop'; db: string; coll: string; collectionUUID: Binary | undefined }
  | {
      op: 'rename';
      db: string;
      coll: string;
      to: { db: string; coll: string };
      collectionUUID: Binary | undefined;
      dropTarget: Binary | undefined;
    }
  | { op: 'dropDatabase'; db: string }
  | {
      op: ExpandedEventType;
      db: string;
      coll: string;
      collectionUUID: Binary;
      operationDescription: Document;
      stateBeforeChange?: Document;
    }
  | { op: 'noop'; msg: string }
  // A view's create or drop: on mongod a write to <db>.system.views that only a whole-database
  // or whole-cluster stream with showExpandedEvents reports (change_stream_filter_helpers.cpp).
  | {
      op: 'create' | 'drop';
      db: string;
      coll: string;
      collectionUUID: undefined;
      operationDescription?: Document;
      view: true;
    };

/** Set for the writes of a multi-document transaction: they share its commit time. */
export interface TransactionInfo {
  lsid: Document;
  txnNumber: bigint;
}

export interface OplogEntry {
  /** Position in the oplog, from 0, never reused. */
  readonly seq: number;
  readonly ts: Timestamp;
  readonly tsKey: bigint;
  readonly txnOpIndex: number;
  readonly wallTime: Date;
  readonly operation: OplogOperation;
  readonly txn: TransactionInfo | undefined;
  /** The event's resume token (`_id`), made once for every stream. */
  readonly token: Document;
  readonly eventDigest: string;
}

export interface OplogWindow {
  earliest: OplogEntry;
  latest: OplogEntry;
  entries: number;
  maxEntries: number;
  bytes: number;
  maxBytes: number;
}

/** A document of local.oplog.rs, its BSON size, and the events it logs (seq below `endSeq`). */
export interface OplogRecord {
  readonly doc: Document;
  readonly bytes: number;
  readonly endSeq: number;
}

/** mongod's default oplog size on a 64-bit system is 5% of the disk, at least 990 MB. */
export const DEFAULT_OPLOG_SIZE_MB = 990;

export class Oplog {
  readonly maxEntries: number;
  readonly maxBytes: number;
  /** Events (what change streams read) from `#eventsBaseSeq`; those before `#firstSeq` are dropped. */
  #events: OplogEntry[] = [];
  #eventsBaseSeq = 0;
  #firstSeq = 0;
  #nextSeq = 0;
  /** The documents of local.oplog.rs, oldest first, from `#recordsHead`. */
  #records: OplogRecord[] = [];
  #recordsHead = 0;
  #bytes = 0;
  readonly #waiters = new Set<() => void>();

  constructor(maxEntries: number, maxBytes = DEFAULT_OPLOG_SIZE_MB * 1024 * 1024) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1)
      throw new RangeError(`oplogMaxEntries must be a positive integer, got ${maxEntries}`);
    if (!(maxBytes > 0)) throw new RangeError(`oplog size must be positive, got ${maxBytes} bytes`);
    this.maxEntries = maxEntries;
    this.maxBytes = maxBytes;
  }

  get firstSeq(): number {
    return this.#firstSeq;
  }

  get nextSeq(): number {
    return this.#nextSeq;
  }

  /** Appends an event; the entries logging it follow through `log` (a transaction's after its last event). */
  append(
    operation: OplogOperation,
    at: { ts: Timestamp; wallTime: Date; txn?: TransactionInfo; txnOpIndex?: number },
  ): OplogEntry {
    const entry = new Entry(this.#nextSeq, at.ts, at.txnOpIndex ?? 0, at.wallTime, operation, at.txn);
    this.#events.push(entry);
    this.#nextSeq += 1;
    this.#wake();
    return entry;
  }

  /**
   * Writes the documents of local.oplog.rs that log every event appended so far, then drops the
   * oldest documents (and the events they log) while the oplog is over its size in bytes or its
   * entry count; the newest document always stays, as a capped collection keeps its last insert.
   */
  log(docs: Document[]): void {
    for (const doc of docs) {
      const bytes = transientSize(doc);
      this.#records.push({ doc, bytes, endSeq: this.#nextSeq });
      this.#bytes += bytes;
    }
    while (this.entries > 1 && (this.#bytes > this.maxBytes || this.entries > this.maxEntries)) {
      const dropped = this.#records[this.#recordsHead]!;
      this.#recordsHead += 1;
      this.#bytes -= dropped.bytes;
      this.#firstSeq = Math.max(this.#firstSeq, dropped.endSeq);
    }
    this.#compact();
  }

  /** Documents in local.oplog.rs. */
  get entries(): number {
    return this.#records.length - this.#recordsHead;
  }

  /** Their BSON size in bytes (collStats `size`). */
  get bytes(): number {
    return this.#bytes;
  }

  /** The newest document of local.oplog.rs (there always is one: the set's initiation). */
  get lastRecord(): OplogRecord {
    return this.#records[this.#records.length - 1]!;
  }

  /** The documents of local.oplog.rs in natural (insertion) order. */
  records(): OplogRecord[] {
    return this.#records.slice(this.#recordsHead);
  }

  /** Up to `max` documents of local.oplog.rs after time `afterKey` (timeKey), without copying the rest (a tailing fetcher's next batch). */
  recordsAfter(afterKey: bigint, max: number): Document[] {
    let low = this.#recordsHead;
    let high = this.#records.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (timeKey(this.#records[mid]!.doc.ts as Timestamp) <= afterKey) low = mid + 1;
      else high = mid;
    }
    const out: Document[] = [];
    for (let i = low; i < this.#records.length && out.length < max; i++) out.push(this.#records[i]!.doc);
    return out;
  }

  /** The oldest document of local.oplog.rs. */
  get firstRecord(): OplogRecord | undefined {
    return this.#records[this.#recordsHead];
  }

  /** The entry at `seq`, or undefined when it was truncated or is not written yet. */
  get(seq: number): OplogEntry | undefined {
    return seq >= this.#firstSeq && seq < this.#nextSeq ? this.#events[seq - this.#eventsBaseSeq] : undefined;
  }

  get earliest(): OplogEntry | undefined {
    return this.get(this.#firstSeq);
  }

  get latest(): OplogEntry | undefined {
    return this.get(this.#nextSeq - 1);
  }

  /** The first retained entry at or after a (time, txnOpIndex) position; nextSeq when none. */
  seqAtOrAfter(tsKey: bigint, txnOpIndex = 0): number {
    let low = this.#firstSeq;
    let high = this.#nextSeq;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const e = this.get(mid)!;
      if (e.tsKey < tsKey || (e.tsKey === tsKey && e.txnOpIndex < txnOpIndex)) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  window(): OplogWindow | undefined {
    const { earliest, latest } = this;
    if (!earliest || !latest) return undefined;
    return {
      earliest,
      latest,
      entries: this.entries,
      maxEntries: this.maxEntries,
      bytes: this.#bytes,
      maxBytes: this.maxBytes,
    };
  }

  /**
   * Resolves once an entry at `seq` or later exists, when `timeoutMs` passes, or when a signal
   * aborts, whichever comes first. Never rejects.
   */
  waitFor(seq: number, timeoutMs: number, signals: AbortSignal[]): Promise<void> {
    if (this.#nextSeq > seq || timeoutMs <= 0 || signals.some((s) => s.aborted)) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#waiters.delete(wake);
        for (const s of signals) s.removeEventListener('abort', done);
        resolve();
      };
      const wake = () => {
        if (this.#nextSeq > seq) done();
      };
      const timer = setTimeout(done, timeoutMs);
      for (const s of signals) s.addEventListener('abort', done, { once: true });
      this.#waiters.add(wake);
    });
  }

  /** Drops what was truncated from the front of both queues once it is the larger part. */
  #compact(): void {
    const deadEvents = this.#firstSeq - this.#eventsBaseSeq;
    if (deadEvents > 1024 && deadEvents * 2 > this.#events.length) {
      this.#events = this.#events.slice(deadEvents);
      this.#eventsBaseSeq = this.#firstSeq;
    }
    if (this.#recordsHead > 1024 && this.#recordsHead * 2 > this.#records.length) {
      this.#records = this.#records.slice(this.#recordsHead);
      this.#recordsHead = 0;
    }
  }

  /** Wakes waiters after a write; they run once the writing command's synchronous work ends. */
  #wake(): void {
    for (const wake of [...this.#waiters]) wake();
  }
}

/**
 * An oplog entry whose digest and resume token are made when a stream first reads them, then
 * kept: most writes are never read by any stream, and hashing every one cost each write ~5%.
 */
class Entry implements OplogEntry {
  readonly tsKey: bigint;
  #eventDigest: string | undefined;
  #token: Document | undefined;

  constructor(
    readonly seq: number,
    readonly ts: Timestamp,
    readonly txnOpIndex: number,
    readonly wallTime: Date,
    readonly operation: OplogOperation,
    readonly txn: TransactionInfo | undefined,
  ) {
    this.tsKey = timeKey(ts);
  }

  get eventDigest(): string {
    return (this.#eventDigest ??= eventDigest(identityOf(this.operation)));
  }

  get token(): Document {
    return (this.#token ??= encodeToken({
      clusterTime: this.ts,
      tokenType: 'event',
      txnOpIndex: this.txnOpIndex,
      fromInvalidate: false,
      eventDigest: this.eventDigest,
    }));
  }
}

/** What the digest of an event token covers, as mongod's eventIdentifier (plus the namespace). */
function identityOf(operation: OplogOperation): Document {
  switch (operation.op) {
    case 'crud':
      return {
        ns: `${operation.change.db}.${operation.change.coll}`,
        operationType: operation.change.op,
        documentKey: operation.change.documentKey,
      };
    case 'drop':
      return { ns: `${operation.db}.${operation.coll}`, operationType: 'drop' };
    case 'rename':
      return {
        ns: `${operation.db}.${operation.coll}`,
        operationType: 'rename',
        to: `${operation.to.db}.${operation.to.coll}`,
      };
    case 'dropDatabase':
      return { ns: operation.db, operationType: 'dropDatabase' };
    case 'create':
    case 'createIndexes':
    case 'dropIndexes':
    case 'modify':
      return {
        ns: `${operation.db}.${operation.coll}`,
        operationType: operation.op,
        operationDescription: operation.operationDescription,
      };
    case 'noop':
      return { operationType: 'noop', msg: operation.msg };
  }
}
