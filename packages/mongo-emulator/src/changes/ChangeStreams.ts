// The server's change streams: the oplog every committed change is appended to, and the open
// change-stream cursors that read it. Command handlers call in here and stay thin.
import { randomBytes } from 'node:crypto';
import type { Timestamp } from 'bson';
import type { Catalog } from '../engine/catalog.ts';
import type { ChangeRecord, Document } from '../engine/types.ts';
import { CommandError } from '../errors.ts';
import type { ClusterClock } from '../session/ClusterClock.ts';
import { ChangeStreamCursor, type CursorBatch } from './ChangeStreamCursor.ts';
import { labelStreamError } from './changeStreamLabels.ts';
import { recordsImages } from './images.ts';
import { createEvent } from './namespaceEvents.ts';
import { DEFAULT_OPLOG_SIZE_MB, Oplog, type OplogOperation, type TransactionInfo } from './Oplog.ts';
import { formatEntry, formatTransaction, TERM, type SessionFields } from './oplogEntry.ts';
import { parseChangeStream } from './streamSpec.ts';
import { OplogTails } from './oplogTail.ts';

/** Open change streams at once; a client leaking more is refused rather than slowing every write. */
const OPEN_STREAMS_MAX = 10_000;
/** An idle stream is dropped after this long, as mongod's cursorTimeoutMillis (10 minutes). */
const STREAM_IDLE_TIMEOUT_MS = 10 * 60 * 1000;
/** How long a getMore waits for events when the client sets no maxTimeMS (mongod: 1 second). */
export const DEFAULT_AWAIT_DATA_TIMEOUT_MS = 1000;
/** aggregate's default first batch, in events. */
const DEFAULT_FIRST_BATCH_SIZE = 101;

/** Who runs a getMore, for $currentOp while it waits. */
export interface ActiveOperation {
  opid: number;
  startedAt: Date;
  command: Document;
  connection: { id: number; remoteAddress: string; appName: string | undefined; clientMetadata: Document | undefined };
}

export interface OpenStream {
  readonly id: bigint;
  readonly ns: string;
  readonly cursor: ChangeStreamCursor;
  readonly originatingCommand: Document;
  readonly lsid: Document | undefined;
  readonly killed: AbortController;
  active: ActiveOperation | undefined;
}

export interface ChangeStreamsOptions {
  catalog: Catalog;
  clock: ClusterClock;
  oplogMaxEntries: number;
  /** The oplog's size bound (mongod's --oplogSizeMB). */
  oplogSizeMB?: number;
  /** Aborted when the server stops: every stream is killed, so no getMore keeps waiting. */
  stopSignal?: AbortSignal;
}

export class ChangeStreams {
  oplog: Oplog;
  /**
   * On a replica-set member (src/repl): the newest time (timeKey) majority-committed on this
   * member; streams return no event after it. Undefined on the one-node emulator, where every
   * write is majority-committed at once.
   */
  majorityVisible: (() => bigint) | undefined;
  readonly #commitWaiters = new Set<() => void>();
  /** Tailable cursors on local.oplog.rs (a secondary's oplog fetcher reads through one). */
  readonly tails = new OplogTails(() => this.oplog);
  /** The replica set's current term, which every entry this member writes carries (`t`). */
  term: bigint = TERM;
  /** With --dbpath: every document written to local.oplog.rs, for the journal (storage/Storage.ts). */
  journal: ((docs: Document[]) => void) | undefined;
  /** With --dbpath: the oplog was started afresh (initiate, initial sync), which needs a checkpoint. */
  onReset: (() => void) | undefined;
  /** While a replicated entry is applied: its time, and its transaction's next txnOpIndex. */
  #replicating:
    | { ts: Timestamp; wallTime: Date; txn: TransactionInfo | undefined; nextIndex: number; quiet: boolean }
    | undefined;
  readonly #catalog: Catalog;
  readonly #clock: ClusterClock;
  readonly #streams = new Map<bigint, OpenStream>();
  #transaction: { info: TransactionInfo; nextIndex: number; operations: OplogOperation[] } | undefined;
  /** The retryable write statement being applied, whose entries carry its session fields. */
  #statement: SessionFields | undefined;
  /** Per session (gone with it): the txnNumber of its last retryable write and that write's optime. */
  readonly #lastWrites = new WeakMap<object, { txnNumber: bigint; opTime: Document }>();
  #nextOpid = 1;

  constructor(options: ChangeStreamsOptions) {
    this.#catalog = options.catalog;
    this.#clock = options.clock;
    this.oplog = new Oplog(options.oplogMaxEntries, (options.oplogSizeMB ?? DEFAULT_OPLOG_SIZE_MB) * 1024 * 1024);
    // mongod's oplog starts with the replica set's initiation; older start points are history lost.
    const initiated = { op: 'noop' as const, msg: 'initiating set' };
    const at = { ts: this.#clock.now(), wallTime: new Date() };
    this.oplog.append(initiated, at);
    this.oplog.log([formatEntry(initiated, at)]);
    options.catalog.observeCreations((collection) => this.recordCommand(createEvent(collection)));
    // One listener for the whole server, not one per waiting getMore.
    options.stopSignal?.addEventListener('abort', () => this.kill([...this.#streams.keys()]), { once: true });
  }

  /** Appends one committed document change; the clock has already ticked for it. */
  recordChange(change: ChangeRecord): void {
    const collection = this.#catalog.getCollection(change.db, change.coll);
    // Images are recorded by the collection's setting at the time of the write.
    this.#append(
      {
        op: 'crud',
        change,
        collectionUUID: collection?.uuid,
        imagesRecorded: change.op !== 'insert' && recordsImages(collection?.options),
      },
      true,
    );
  }

  /** A no-op entry (a new primary's "new primary"), a write of its own on the clock. */
  recordNoop(msg: string): void {
    this.#append({ op: 'noop', msg }, false);
  }

  /** Appends a namespace command (drop, rename, create, createIndexes...), a write of its own on the clock. */
  recordCommand(operation: Exclude<OplogOperation, { op: 'crud' | 'noop' }>): void {
    this.#append(operation, false);
  }

  /** Inside a transaction's commit every entry after the first shares its time; otherwise each is a write. */
  #append(operation: OplogOperation, clockTicked: boolean): void {
    const replicating = this.#replicating;
    if (replicating !== undefined) {
      if (!replicating.quiet) {
        this.oplog.append(operation, {
          ts: replicating.ts,
          wallTime: replicating.wallTime,
          txn: replicating.txn,
          txnOpIndex: replicating.txn ? replicating.nextIndex++ : 0,
        });
      }
      return;
    }
    const txn = this.#transaction;
    const latest = this.oplog.latest;
    if (txn && txn.nextIndex > 0 && latest) {
      txn.operations.push(operation);
      this.oplog.append(operation, {
        ts: latest.ts,
        wallTime: latest.wallTime,
        txn: txn.info,
        txnOpIndex: txn.nextIndex++,
      });
      return;
    }
    const ts = clockTicked ? this.#clock.now() : this.#clock.tick();
    const at = { ts, wallTime: this.#clock.lastWriteDate };
    if (txn) {
      // Logged as applyOps once the commit has applied every write (withTransaction).
      txn.operations.push(operation);
      this.oplog.append(operation, { ...at, txn: txn.info, txnOpIndex: txn.nextIndex++ });
      return;
    }
    this.oplog.append(operation, at);
    const statement = this.#statement;
    this.#log([formatEntry(operation, at, statement, statement && this.#prevOpTime(statement, ts), this.term)]);
  }

  /**
   * Applies an entry of the sync source's oplog (src/repl): the changes `apply` makes become this
   * member's events at the entry's time (a transaction's numbered by txnOpIndex), and the entry
   * itself is logged as it was written, so optimes and resume tokens match across members.
   */
  replicate(entry: Document, txn: TransactionInfo | undefined, apply: () => void): void {
    const at = { ts: entry.ts as Timestamp, wallTime: entry.wall as Date };
    this.#replicating = { ...at, txn, nextIndex: 0, quiet: false };
    try {
      if (entry.op === 'n')
        this.oplog.append({ op: 'noop', msg: String((entry.o as Document | undefined)?.msg ?? '') }, at);
      apply();
    } finally {
      this.#replicating = undefined;
    }
    this.#log([entry]);
  }

  /** Writes documents to local.oplog.rs, and to the journal when there is one. */
  #log(docs: Document[]): void {
    this.oplog.log(docs);
    this.journal?.(docs);
  }

  /** Runs `apply` (an initial sync's clone) without events or entries: the oplog starts after it. */
  quiet(apply: () => void): void {
    this.#replicating = { ts: this.#clock.now(), wallTime: new Date(), txn: undefined, nextIndex: 0, quiet: true };
    try {
      apply();
    } finally {
      this.#replicating = undefined;
    }
  }

  /**
   * Starts this member's oplog afresh from `entry` (initial sync's first entry, the sync source's
   * at the clone's start): what it held before is gone, and the streams reading it end.
   */
  resetOplog(entry: Document): void {
    this.kill([...this.#streams.keys()]);
    this.tails.killAll();
    this.oplog = new Oplog(this.oplog.maxEntries, this.oplog.maxBytes);
    this.oplog.append(
      { op: 'noop', msg: String((entry.o as Document | undefined)?.msg ?? '') },
      { ts: entry.ts as Timestamp, wallTime: entry.wall as Date },
    );
    this.oplog.log([entry]);
    this.onReset?.();
  }

  /**
   * The oplog of a checkpoint (storage/Storage.ts): local.oplog.rs as it was, for sync sources
   * and rollback. The events before it are not kept, so change streams resume from the
   * checkpoint on (a token before it is history lost, 286, never a silent gap).
   */
  restoreOplog(records: Document[]): void {
    const last = records.at(-1);
    if (!last) return;
    this.oplog = new Oplog(this.oplog.maxEntries, this.oplog.maxBytes);
    this.oplog.append({ op: 'noop', msg: 'checkpoint' }, { ts: last.ts as Timestamp, wallTime: last.wall as Date });
    this.oplog.log(records);
  }

  /** The optime of the session's previous write under the same txnNumber; records this one's. */
  #prevOpTime(session: SessionFields, ts: Timestamp): Document | undefined {
    const last = this.#lastWrites.get(session.owner);
    this.#lastWrites.set(session.owner, { txnNumber: session.txnNumber, opTime: { ts, t: this.term } });
    return last && last.txnNumber === session.txnNumber ? last.opTime : undefined;
  }

  /** Runs one statement of a retryable write: the entries it logs carry its lsid, txnNumber and stmtId. */
  withStatement<T>(session: SessionFields, apply: () => T): T {
    this.#statement = session;
    try {
      return apply();
    } finally {
      this.#statement = undefined;
    }
  }

  /**
   * Runs `commit` (which applies a transaction's writes through the catalog) so that its changes
   * share one commit time, carry the transaction's lsid/txnNumber and are numbered by txnOpIndex.
   */
  withTransaction<T>(info: TransactionInfo, commit: () => T): T {
    const txn = { info, nextIndex: 0, operations: [] as OplogOperation[] };
    this.#transaction = txn;
    try {
      return commit();
    } finally {
      this.#transaction = undefined;
      // One applyOps entry (more when it is too large) for the whole commit; none for a read-only one.
      if (txn.operations.length > 0) {
        const commitAt = this.oplog.latest!;
        let first = true;
        const times = () => {
          if (first) {
            first = false;
            return { ts: commitAt.ts, wallTime: commitAt.wallTime };
          }
          return { ts: this.#clock.tick(), wallTime: this.#clock.lastWriteDate };
        };
        this.#log(formatTransaction(txn.operations, times, info, this.term));
      }
    }
  }

  /** Opens a stream for `aggregate` and answers its first batch. */
  open(request: {
    db: string;
    coll: string | null;
    pipeline: Document[];
    batchSize: number | undefined;
    command: Document;
  }): Document {
    const spec = parseChangeStream(request.db, request.coll, request.pipeline);
    const clientToken =
      spec.start.kind === 'resumeAfter' || spec.start.kind === 'startAfter'
        ? ((request.pipeline[0]!.$changeStream as Document)[spec.start.kind] as Document)
        : undefined;
    const cursor = new ChangeStreamCursor(
      spec,
      this.oplog,
      (db, coll, key) => this.#lookup(db, coll, key),
      this.#clock.now(),
      clientToken,
      this.majorityVisible,
    );
    const batch = cursor.nextBatch(request.batchSize ?? DEFAULT_FIRST_BATCH_SIZE);
    const ns = request.coll === null ? `${request.db}.$cmd.aggregate` : `${request.db}.${request.coll}`;
    const id = batch.closed ? 0n : this.#register(ns, cursor, request.command);
    return cursorReply('firstBatch', batch, id, ns);
  }

  owns(id: bigint): boolean {
    return this.#streams.has(id);
  }

  /** A getMore: returns at once when events are ready, else waits for one up to `maxTimeMS`. */
  async getMore(request: {
    id: bigint;
    ns: string;
    batchSize: number | undefined;
    maxTimeMS: number | undefined;
    command: Document;
    connection: ActiveOperation['connection'];
    signals: AbortSignal[];
    /** Runs once the stream is checked out (fail points); what it throws ends the stream. */
    afterCheckout?: () => void;
  }): Promise<Document> {
    const stream = this.#streams.get(request.id);
    if (!stream) throw new CommandError('CursorNotFound', `cursor id ${request.id} not found`);
    if (stream.ns !== request.ns) {
      throw new CommandError(
        'Unauthorized',
        `Requested getMore on namespace '${request.ns}', but cursor belongs to a different namespace ${stream.ns}`,
      );
    }
    const limit = request.batchSize ?? Number.MAX_SAFE_INTEGER;
    const signals = [...request.signals, stream.killed.signal];
    const deadlineMs = Date.now() + (request.maxTimeMS ?? DEFAULT_AWAIT_DATA_TIMEOUT_MS);
    stream.active = {
      opid: this.#nextOpid++,
      startedAt: new Date(),
      command: request.command,
      connection: request.connection,
    };
    try {
      request.afterCheckout?.();
      let batch = stream.cursor.nextBatch(limit);
      // Bounded by the deadline: each pass either reads new entries or waits for one.
      while (batch.events.length === 0 && !batch.closed && Date.now() < deadlineMs && !signals.some((s) => s.aborted)) {
        if (stream.cursor.waitingForCommit) await this.#waitForCommit(deadlineMs - Date.now(), signals);
        else await this.oplog.waitFor(stream.cursor.position, deadlineMs - Date.now(), signals);
        batch = stream.cursor.nextBatch(limit);
      }
      if (stream.killed.signal.aborted) throw new CommandError('CursorKilled', `cursor id ${request.id} was killed`);
      if (batch.closed) this.#streams.delete(request.id);
      return cursorReply('nextBatch', batch, batch.closed ? 0n : request.id, stream.ns);
    } catch (error) {
      this.#streams.delete(request.id);
      throw labelStreamError(error);
    } finally {
      stream.active = undefined;
    }
  }

  /** The member's majority commit point moved (src/repl): streams waiting for it read on. */
  commitPointAdvanced(): void {
    for (const wake of [...this.#commitWaiters]) wake();
  }

  #waitForCommit(timeoutMs: number, signals: AbortSignal[]): Promise<void> {
    if (timeoutMs <= 0 || signals.some((s) => s.aborted)) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#commitWaiters.delete(done);
        for (const s of signals) s.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      for (const s of signals) s.addEventListener('abort', done, { once: true });
      this.#commitWaiters.add(done);
    });
  }

  /** Kills the streams among `ids`; answers which ids were streams. */
  kill(ids: bigint[]): bigint[] {
    const killed: bigint[] = [];
    for (const id of ids) {
      const stream = this.#streams.get(id);
      if (!stream) continue;
      this.#streams.delete(id);
      stream.killed.abort();
      killed.push(id);
    }
    return killed;
  }

  /** Open streams, for $currentOp. */
  streams(): OpenStream[] {
    return [...this.#streams.values()];
  }

  #register(ns: string, cursor: ChangeStreamCursor, command: Document): bigint {
    this.#dropIdle();
    if (this.#streams.size >= OPEN_STREAMS_MAX) {
      throw new CommandError(
        'ExceededMemoryLimit',
        `mongo-emulator: more than ${OPEN_STREAMS_MAX} open change streams; close the ones you no longer read`,
      );
    }
    let id = randomCursorId();
    while (this.#streams.has(id)) id = randomCursorId();
    const { lsid, $clusterTime: _clusterTime, ...originatingCommand } = command;
    this.#streams.set(id, {
      id,
      ns,
      cursor,
      originatingCommand,
      lsid: lsid as Document | undefined,
      killed: new AbortController(),
      active: undefined,
    });
    return id;
  }

  #dropIdle(): void {
    const oldestAllowedMs = Date.now() - STREAM_IDLE_TIMEOUT_MS;
    for (const [id, stream] of this.#streams) {
      if (!stream.active && stream.cursor.lastAccessDate.getTime() < oldestAllowedMs) this.#streams.delete(id);
    }
  }

  #lookup(db: string, coll: string, documentKey: Document): Document | null {
    return this.#catalog.getCollection(db, coll)?.find(documentKey, { limit: 1 })[0] ?? null;
  }
}

function cursorReply(batchField: 'firstBatch' | 'nextBatch', batch: CursorBatch, id: bigint, ns: string): Document {
  return { cursor: { [batchField]: batch.events, postBatchResumeToken: batch.postBatchResumeToken, id, ns } };
}

/** A positive, non-zero int64, as mongod's cursor ids are. */
function randomCursorId(): bigint {
  const id = randomBytes(8).readBigInt64LE() & 0x7fffffffffffffffn;
  return id === 0n ? 1n : id;
}
