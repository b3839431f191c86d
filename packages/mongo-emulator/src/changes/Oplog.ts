// The oplog: every committed change in commit order, bounded to the newest `maxEntries`. Change
// streams read it by sequence number; a waiting getMore parks a resolver here and is woken by
// the next append (no polling).
import type { Binary, Timestamp } from 'bson';
import type { ChangeRecord, Document } from '../engine/types.ts';
import { encodeToken, eventDigest, timeKey } from './resumeToken.ts';

/** Events only a stream with `showExpandedEvents` reports. */
export type ExpandedEventType = 'create' | 'createIndexes' | 'dropIndexes' | 'modify';

/** What a change stream can report: a document change, a namespace command, or nothing (noop). */
export type OplogOperation =
  | { op: 'crud'; change: ChangeRecord; collectionUUID: Binary | undefined; imagesRecorded: boolean }
  | { op: 'drop'; db: string; coll: string; collectionUUID: Binary | undefined }
  | { op: 'rename'; db: string; coll: string; to: { db: string; coll: string }; collectionUUID: Binary | undefined; dropTarget: Binary | undefined }
  | { op: 'dropDatabase'; db: string }
  | { op: ExpandedEventType; db: string; coll: string; collectionUUID: Binary; operationDescription: Document; stateBeforeChange?: Document }
  | { op: 'noop'; msg: string }
  // A view's create or drop: on mongod a write to <db>.system.views that only a whole-database
  // or whole-cluster stream with showExpandedEvents reports (change_stream_filter_helpers.cpp).
  | { op: 'create' | 'drop'; db: string; coll: string; collectionUUID: undefined; operationDescription?: Document; view: true };

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
}

export class Oplog {
  readonly maxEntries: number;
  /** A ring: entry `seq` lives at `seq % maxEntries` while `firstSeq <= seq < nextSeq`. */
  readonly #ring: OplogEntry[] = [];
  #firstSeq = 0;
  #nextSeq = 0;
  readonly #waiters = new Set<() => void>();

  constructor(maxEntries: number) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError(`oplogMaxEntries must be a positive integer, got ${maxEntries}`);
    this.maxEntries = maxEntries;
  }

  get firstSeq(): number {
    return this.#firstSeq;
  }

  get nextSeq(): number {
    return this.#nextSeq;
  }

  append(operation: OplogOperation, at: { ts: Timestamp; wallTime: Date; txn?: TransactionInfo; txnOpIndex?: number }): OplogEntry {
    const entry = new Entry(this.#nextSeq, at.ts, at.txnOpIndex ?? 0, at.wallTime, operation, at.txn);
    this.#ring[entry.seq % this.maxEntries] = entry;
    this.#nextSeq += 1;
    if (this.#nextSeq - this.#firstSeq > this.maxEntries) this.#firstSeq += 1;
    this.#wake();
    return entry;
  }

  /** The entry at `seq`, or undefined when it was truncated or is not written yet. */
  get(seq: number): OplogEntry | undefined {
    return seq >= this.#firstSeq && seq < this.#nextSeq ? this.#ring[seq % this.maxEntries] : undefined;
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
    return { earliest, latest, entries: this.#nextSeq - this.#firstSeq, maxEntries: this.maxEntries };
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
    return (this.#token ??= encodeToken({ clusterTime: this.ts, tokenType: 'event', txnOpIndex: this.txnOpIndex, fromInvalidate: false, eventDigest: this.eventDigest }));
  }
}

/** What the digest of an event token covers, as mongod's eventIdentifier (plus the namespace). */
function identityOf(operation: OplogOperation): Document {
  switch (operation.op) {
    case 'crud':
      return { ns: `${operation.change.db}.${operation.change.coll}`, operationType: operation.change.op, documentKey: operation.change.documentKey };
    case 'drop':
      return { ns: `${operation.db}.${operation.coll}`, operationType: 'drop' };
    case 'rename':
      return { ns: `${operation.db}.${operation.coll}`, operationType: 'rename', to: `${operation.to.db}.${operation.to.coll}` };
    case 'dropDatabase':
      return { ns: operation.db, operationType: 'dropDatabase' };
    case 'create':
    case 'createIndexes':
    case 'dropIndexes':
    case 'modify':
      return { ns: `${operation.db}.${operation.coll}`, operationType: operation.op, operationDescription: operation.operationDescription };
    case 'noop':
      return { operationType: 'noop', msg: operation.msg };
  }
}
