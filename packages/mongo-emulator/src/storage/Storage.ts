// The emulator's data directory (--dbpath): what makes it durable as mongod is (DESIGN.md D1-D3).
//
// - The journal is the oplog: every document of local.oplog.rs, as written, framed with a
//   checksum (records.ts) in journal/j.<n>, flushed as a group every commitIntervalMs (mongod's
//   journalCommitInterval, 100 ms) and at once when a write waits for it (j: true, w: majority).
//   What is flushed is this member's durable optime.
// - A checkpoint (checkpoint.bson, written aside and renamed; its format is checkpoint.ts) holds
//   every collection (options, indexes, documents), view, the oplog, and the sessions'
//   retryable-write and transaction records (mongod's config.transactions) at one point in time;
//   one is taken every syncdelay (60 s) and at a clean stop.
// - Recovery is mongod's replication recovery from its stable checkpoint: the last whole
//   checkpoint, then the journal after it applied as a secondary applies oplog entries.
// - replset.bson holds a member's replica-set config, term and vote (mongod's local.system.replset
//   and local.replset.election), written before the member acts on them.
// - mongod.lock: one process per directory (lock.ts).
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  truncateSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { deserialize, serialize, Timestamp } from 'bson';
import { BSON_READ_OPTIONS, type Document } from '../engine/types.ts';
import { applyEntry } from '../repl/applyEntry.ts';
import { timeKey } from '../changes/resumeToken.ts';
import {
  checkpointChunks,
  FORMAT,
  FORMAT_VERSION,
  readCheckpoint,
  restoreCheckpoint,
  type Checkpoint,
  type OpTimeLike,
  type StorageTarget,
} from './checkpoint.ts';
import { acquireLock, type DbPathLock } from './lock.ts';
import { BSON_WRITE_OPTIONS, frame, readRecords, StorageError } from './records.ts';

export { StorageError } from './records.ts';

const META_FILE = 'emulator.meta.json';
const CHECKPOINT_FILE = 'checkpoint.bson';
const REPL_FILE = 'replset.bson';
const JOURNAL_DIR = 'journal';
/** Files and directories the emulator itself keeps in a data directory. */
const OWN_NAMES = new Set([
  META_FILE,
  'mongod.lock',
  CHECKPOINT_FILE,
  `${CHECKPOINT_FILE}.tmp`,
  REPL_FILE,
  `${REPL_FILE}.tmp`,
  JOURNAL_DIR,
  'rollback',
]);
/** mongod's journalCommitInterval default (storage.journal.commitIntervalMs). */
export const DEFAULT_COMMIT_INTERVAL_MS = 100;
/** mongod's --syncdelay default: a checkpoint every 60 seconds. */
export const DEFAULT_SYNC_DELAY_SECS = 60;

export interface StorageOptions {
  dir: string;
  commitIntervalMs?: number;
  syncDelaySecs?: number;
  logger: { info(message: string): void; warn(message: string): void };
}

/** What a member persists of its replica set (mongod's local.system.replset and local.replset.election). */
export interface PersistedReplState {
  config: Document;
  term: bigint;
  votedFor: { term: bigint; candidateIndex: number } | undefined;
  /** False until the member holds the set's data (initiated or initial-synced). */
  hasData: boolean;
}

interface Snapshot {
  opTime: OpTimeLike;
  journalFrom: number;
  chunks: () => Generator<Buffer>;
}

export class Storage {
  readonly dir: string;
  readonly commitIntervalMs: number;
  readonly syncDelaySecs: number;
  /** The replica-set state found on disk, if any (a member restarted on its dbpath). */
  readonly replState: PersistedReplState | undefined;
  /** Called after each flush moved the durable optime (a member reports it, waiters re-check). */
  onDurable: (() => void) | undefined;
  /** The pauseJournalFlusherThread fail point: while it answers true, nothing is flushed. */
  flushPaused: () => boolean = () => false;
  readonly #logger: StorageOptions['logger'];
  readonly #lock: DbPathLock;
  #checkpoint: Checkpoint | undefined;
  #journal: Document[] = [];
  #target: StorageTarget | undefined;
  /** The journal file new entries go to. */
  #fileNo = 0;
  #pending: { fileNo: number; docs: Document[] }[] = [];
  #pendingLast: OpTimeLike | undefined;
  #durable: OpTimeLike = { ts: new Timestamp({ t: 0, i: 0 }), t: -1n };
  #durableKey = 0n;
  #flushing: Promise<void> | undefined;
  #flushAgain = false;
  #flushSoon = false;
  readonly #waiters = new Set<{ key: bigint; resolve: () => void }>();
  #handle: { fileNo: number; file: FileHandle } | undefined;
  #timers: NodeJS.Timeout[] = [];
  #checkpointing: Promise<void> | undefined;
  #replaying = false;
  #closed = false;
  /** Entries were journaled since the last checkpoint's snapshot (else a checkpoint would change nothing). */
  #dirty = false;
  /** Flushes and checkpoints done, for serverStatus and tests. */
  readonly stats = { flushes: 0, checkpoints: 0, recoveredEntries: 0, recoveryMs: 0 };

  private constructor(options: StorageOptions, lock: DbPathLock, replState: PersistedReplState | undefined) {
    this.dir = options.dir;
    this.commitIntervalMs = options.commitIntervalMs ?? DEFAULT_COMMIT_INTERVAL_MS;
    this.syncDelaySecs = options.syncDelaySecs ?? DEFAULT_SYNC_DELAY_SECS;
    this.#logger = options.logger;
    this.#lock = lock;
    this.replState = replState;
  }

  /**
   * Opens `dir` (created when missing): takes mongod.lock, refuses a foreign or damaged directory
   * (StorageError, naming the file), reads the last checkpoint and the journal after it. Nothing
   * is applied until attach().
   */
  static open(options: StorageOptions): Storage {
    const dir = options.dir;
    mkdirSync(dir, { recursive: true });
    const lock = acquireLock(dir);
    try {
      checkOwnDirectory(dir);
      const replState = readReplState(dir);
      const storage = new Storage(options, lock, replState);
      storage.#read();
      return storage;
    } catch (error) {
      lock.release();
      throw error;
    }
  }

  /** This member's durable optime: the last oplog entry flushed to the journal. */
  get durableOpTime(): OpTimeLike {
    return this.#durable;
  }

  #read(): void {
    const checkpointFile = join(this.dir, CHECKPOINT_FILE);
    const journalDir = join(this.dir, JOURNAL_DIR);
    mkdirSync(journalDir, { recursive: true });
    const files = journalFiles(journalDir);
    if (existsSync(checkpointFile)) this.#checkpoint = readCheckpoint(checkpointFile);
    else if (files.some((f) => statSync(join(journalDir, `j.${f}`)).size > 0)) {
      throw new StorageError(
        'DataDirectoryDamaged',
        `${checkpointFile} is missing but ${journalDir} holds a journal: the directory is damaged`,
      );
    }
    const from = this.#checkpoint?.journalFrom ?? 0;
    const replay = files.filter((n) => n >= from);
    for (const [i, n] of replay.entries()) {
      if (n !== from + i)
        throw new StorageError(
          'DataDirectoryDamaged',
          `${join(journalDir, `j.${from + i}`)} is missing (the journal goes from j.${from} to j.${replay.at(-1)})`,
        );
      const file = join(journalDir, `j.${n}`);
      const bytes = readFileSync(file);
      const { records, tornAt } = readRecords(bytes, file);
      if (tornAt !== undefined) {
        if (i !== replay.length - 1)
          throw new StorageError(
            'DataDirectoryDamaged',
            `${file} is damaged: it ends in a partial record at byte ${tornAt} but is not the last journal file`,
          );
        this.#logger.warn(
          `storage: ${file}: a torn last record at byte ${tornAt} (${bytes.length - tornAt} bytes, a crash during a write) was truncated`,
        );
        truncateSync(file, tornAt);
      }
      for (const record of records) {
        try {
          this.#journal.push(deserialize(record, BSON_READ_OPTIONS) as Document);
        } catch (error) {
          throw new StorageError(
            'DataDirectoryDamaged',
            `${file} is damaged: a record does not decode (${(error as Error).message})`,
          );
        }
      }
    }
    // New entries go to a file of their own: a restart never appends after a truncated tail.
    this.#fileNo = Math.max(from, ...replay);
    this.#rotate();
  }

  /**
   * New journal entries go to the next file from here. The file is made now, empty, so the
   * files after a checkpoint are always consecutive and a missing one is damage.
   */
  #rotate(): void {
    this.#fileNo += 1;
    closeSync(openSync(join(this.dir, JOURNAL_DIR, `j.${this.#fileNo}`), 'a', 0o600));
    syncDirectory(join(this.dir, JOURNAL_DIR));
  }

  /**
   * Restores the checkpoint and replays the journal into a fresh server, then journals every
   * oplog entry the server writes from now on. A directory with no checkpoint gets its first.
   */
  attach(target: StorageTarget): void {
    const started = Date.now();
    this.#target = target;
    const checkpoint = this.#checkpoint;
    if (checkpoint) restoreCheckpoint(target, checkpoint);
    this.#replaying = true;
    try {
      const after = checkpoint ? timeKey(checkpoint.ts) : -1n;
      for (const entry of this.#journal) {
        if (timeKey(entry.ts as Timestamp) <= after) continue;
        try {
          // Idempotent, as mongod's recovery applies oplog entries from the stable timestamp.
          applyEntry(target, entry, true);
        } catch (error) {
          throw new StorageError(
            'DataDirectoryDamaged',
            `${join(this.dir, JOURNAL_DIR)}: the entry at Timestamp(${(entry.ts as Timestamp).high}, ${(entry.ts as Timestamp).low}) cannot be applied: ${(error as Error).message}`,
          );
        }
        target.clock.advanceTo(entry.ts as Timestamp);
        this.stats.recoveredEntries += 1;
      }
    } finally {
      this.#replaying = false;
    }
    this.#dirty = this.#journal.length > 0;
    this.#journal = [];
    const last = target.changeStreams.oplog.lastRecord.doc;
    this.#setDurable({ ts: last.ts as Timestamp, t: BigInt(last.t as bigint) });
    target.changeStreams.journal = (docs) => this.#append(docs);
    target.changeStreams.onReset = () => this.checkpointNow();
    if (!checkpoint) {
      writeFileSync(
        join(this.dir, META_FILE),
        `${JSON.stringify({ format: FORMAT, version: FORMAT_VERSION, createdAt: new Date().toISOString() })}\n`,
        { mode: 0o600 },
      );
      this.checkpointNow();
    }
    this.stats.recoveryMs = Date.now() - started;
    if (checkpoint || this.stats.recoveredEntries > 0) {
      this.#logger.info(
        `storage: recovered ${this.dir} from ${checkpoint ? `the checkpoint at Timestamp(${checkpoint.ts.high}, ${checkpoint.ts.low})` : 'no checkpoint'} and ${this.stats.recoveredEntries} journal entries in ${this.stats.recoveryMs} ms`,
      );
    }
    const flushTimer = setInterval(() => void this.#flush(), this.commitIntervalMs);
    const checkpointTimer = setInterval(() => void this.checkpoint(), this.syncDelaySecs * 1000);
    flushTimer.unref();
    checkpointTimer.unref();
    this.#timers = [flushTimer, checkpointTimer];
  }

  /** The journal hook: oplog documents just written, flushed with the next group. */
  #append(docs: Document[]): void {
    if (this.#replaying || this.#closed || docs.length === 0) return;
    this.#dirty = true;
    let batch = this.#pending.at(-1);
    if (!batch || batch.fileNo !== this.#fileNo) this.#pending.push((batch = { fileNo: this.#fileNo, docs: [] }));
    batch.docs.push(...docs);
    const last = docs.at(-1)!;
    this.#pendingLast = { ts: last.ts as Timestamp, t: BigInt(last.t as bigint) };
  }

  /**
   * Resolves once everything written so far is in the journal (j: true, and w: majority on one
   * node): a flush starts at once, grouped with the other writes of this turn of the event loop.
   */
  waitDurable(): Promise<void> {
    const target = this.#pendingLast;
    if (!target || timeKey(target.ts) <= this.#durableKey) return Promise.resolve();
    const key = timeKey(target.ts);
    const done = new Promise<void>((resolve) => this.#waiters.add({ key, resolve }));
    this.requestFlush();
    return done;
  }

  /** A flush as soon as this turn's writes are in (a waiter for j: true, a secondary's batch). */
  requestFlush(): void {
    if (this.#flushSoon) return;
    this.#flushSoon = true;
    setImmediate(() => {
      this.#flushSoon = false;
      void this.#flush();
    });
  }

  #flush(): Promise<void> {
    if (this.#flushing) {
      this.#flushAgain = true;
      return this.#flushing;
    }
    if (this.#pending.length === 0 || this.flushPaused()) return Promise.resolve();
    this.#flushing = this.#flushOnce().finally(() => {
      this.#flushing = undefined;
      if (this.#flushAgain) {
        this.#flushAgain = false;
        void this.#flush();
      }
    });
    return this.#flushing;
  }

  async #flushOnce(): Promise<void> {
    const batches = this.#pending;
    const last = this.#pendingLast;
    this.#pending = [];
    try {
      for (const batch of batches) {
        const file = await this.#journalHandle(batch.fileNo);
        const bytes = Buffer.concat(batch.docs.map((doc) => frame(serialize(doc, BSON_WRITE_OPTIONS))));
        await file.write(bytes);
        await file.datasync();
      }
    } catch (error) {
      // A journal that cannot be written is fatal to mongod (an fassert); here the write waits
      // stay unanswered rather than acknowledged, and the failure is logged loudly.
      this.#logger.warn(`storage: the journal write to ${this.dir} failed: ${(error as Error).message}`);
      return;
    }
    this.stats.flushes += 1;
    if (last) this.#setDurable(last);
  }

  #setDurable(opTime: OpTimeLike): void {
    const key = timeKey(opTime.ts);
    if (key < this.#durableKey) return;
    this.#durable = opTime;
    this.#durableKey = key;
    for (const waiter of [...this.#waiters]) {
      if (waiter.key <= key) {
        this.#waiters.delete(waiter);
        waiter.resolve();
      }
    }
    this.onDurable?.();
  }

  async #journalHandle(fileNo: number): Promise<FileHandle> {
    if (this.#handle?.fileNo === fileNo) return this.#handle.file;
    await this.#handle?.file.close();
    const file = await open(join(this.dir, JOURNAL_DIR, `j.${fileNo}`), 'a', 0o600);
    this.#handle = { fileNo, file };
    return file;
  }

  /** A checkpoint in the background (every syncdelay seconds): the server keeps serving while it is written. */
  checkpoint(): Promise<void> {
    if (this.#checkpointing || !this.#target || this.#closed || !this.#dirty)
      return this.#checkpointing ?? Promise.resolve();
    const snapshot = this.#snapshot();
    this.#checkpointing = (async () => {
      try {
        await this.#writeCheckpoint(snapshot);
      } catch (error) {
        this.#logger.warn(`storage: the checkpoint of ${this.dir} failed: ${(error as Error).message}`);
        this.#dirty = true;
      } finally {
        this.#checkpointing = undefined;
      }
    })();
    return this.#checkpointing;
  }

  /**
   * A checkpoint written before this call returns: the oplog was started afresh (replSetInitiate,
   * an initial sync, a rollback), which the journal cannot express, so the journal before it is
   * void and what comes after goes to a new file.
   */
  checkpointNow(): void {
    if (!this.#target) return;
    this.#pending = [];
    const snapshot = this.#snapshot();
    const file = join(this.dir, CHECKPOINT_FILE);
    const fd = openSync(`${file}.tmp`, 'w', 0o600);
    try {
      for (const chunk of snapshot.chunks()) writeSync(fd, chunk);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(`${file}.tmp`, file);
    syncDirectory(this.dir);
    this.stats.checkpoints += 1;
    this.#setDurable(snapshot.opTime);
    this.#removeJournalsBefore(snapshot.journalFrom);
  }

  /**
   * The state at this instant, without copying documents: collections are copy-on-write clones
   * (O(1)) and stored document versions are immutable, so the checkpoint can be written while
   * the server goes on. New journal entries go to a new file from here.
   */
  #snapshot(): Snapshot {
    const { changeStreams } = this.#target!;
    this.#dirty = false;
    const last = changeStreams.oplog.lastRecord.doc;
    const opTime = { ts: last.ts as Timestamp, t: BigInt(last.t as bigint) };
    this.#rotate();
    const journalFrom = this.#fileNo;
    const chunks = checkpointChunks(this.#target!, { journalFrom, opTime });
    return { opTime, journalFrom, chunks };
  }

  async #writeCheckpoint(snapshot: Snapshot): Promise<void> {
    const file = join(this.dir, CHECKPOINT_FILE);
    const handle = await open(`${file}.tmp`, 'w', 0o600);
    try {
      let buffered: Buffer[] = [];
      let size = 0;
      for (const chunk of snapshot.chunks()) {
        buffered.push(chunk);
        size += chunk.length;
        // Written in pieces of a few MB: serialising yields to the event loop between them.
        if (size > 4 * 1024 * 1024) {
          await handle.write(Buffer.concat(buffered));
          buffered = [];
          size = 0;
        }
      }
      if (buffered.length > 0) await handle.write(Buffer.concat(buffered));
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (this.#closed && !this.#closing) return;
    renameSync(`${file}.tmp`, file);
    syncDirectory(this.dir);
    this.stats.checkpoints += 1;
    // The journal before the checkpoint is no longer needed once the journal after it is on disk.
    await this.#flush();
    this.#removeJournalsBefore(snapshot.journalFrom);
  }

  #closing = false;

  #removeJournalsBefore(fileNo: number): void {
    const dir = join(this.dir, JOURNAL_DIR);
    for (const n of journalFiles(dir)) {
      if (n >= fileNo) continue;
      try {
        unlinkSync(join(dir, `j.${n}`));
      } catch {
        // Already gone.
      }
    }
  }

  /** Persists a member's config, term and vote before it acts on them (written aside, renamed). */
  saveReplState(state: PersistedReplState): void {
    if (this.#closed) return;
    const file = join(this.dir, REPL_FILE);
    const fd = openSync(`${file}.tmp`, 'w', 0o600);
    try {
      writeSync(fd, frame(serialize({ ...state, votedFor: state.votedFor ?? null }, BSON_WRITE_OPTIONS)));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(`${file}.tmp`, file);
    syncDirectory(this.dir);
  }

  /** A clean stop: the journal flushed, a last checkpoint, the lock released. */
  async close(): Promise<void> {
    if (this.#closed) return;
    for (const timer of this.#timers) clearInterval(timer);
    await this.#checkpointing;
    await this.#flush();
    await this.#flushing;
    if (this.#target) {
      this.#closing = true;
      await this.checkpoint();
    }
    this.#closed = true;
    await this.#handle?.file.close();
    this.#lock.release();
  }

  /** A process that is going away at once (SIGKILL cannot be caught; this is for tests in one process). */
  abandon(): void {
    this.#closed = true;
    for (const timer of this.#timers) clearInterval(timer);
    void this.#handle?.file.close();
    this.#lock.release();
  }
}

/** Refuses a directory that is not the emulator's: one holding files it did not write. */
function checkOwnDirectory(dir: string): void {
  const names = readdirSync(dir);
  const metaFile = join(dir, META_FILE);
  if (!names.includes(META_FILE)) {
    const foreign = names.find((n) => n !== 'mongod.lock' && !OWN_NAMES.has(n));
    if (foreign !== undefined) {
      const what = /^(WiredTiger|.*\.wt$|storage\.bson$)/.test(foreign)
        ? 'a mongod data directory (WiredTiger files), which the emulator cannot read'
        : 'not an emulator data directory';
      throw new StorageError(
        'DataDirectoryForeign',
        `${dir} is ${what}: it holds ${join(dir, foreign)} and no ${META_FILE}; use an empty directory`,
      );
    }
    if (names.includes(CHECKPOINT_FILE))
      throw new StorageError('DataDirectoryDamaged', `${metaFile} is missing beside ${join(dir, CHECKPOINT_FILE)}`);
    return;
  }
  let meta: Document;
  try {
    meta = JSON.parse(readFileSync(metaFile, 'utf8')) as Document;
  } catch (error) {
    throw new StorageError('DataDirectoryDamaged', `${metaFile} is damaged: ${(error as Error).message}`);
  }
  if (meta.format !== FORMAT)
    throw new StorageError(
      'DataDirectoryForeign',
      `${metaFile} names format ${JSON.stringify(meta.format)}, not ${FORMAT}`,
    );
  if (meta.version !== FORMAT_VERSION)
    throw new StorageError(
      'DataDirectoryForeign',
      `${metaFile} is of format version ${String(meta.version)}; this emulator reads version ${FORMAT_VERSION}`,
    );
}

/** A member's persisted replica-set state in `dir`, if it has one (the launcher reads it to bring a set back). */
export function readReplState(dir: string): PersistedReplState | undefined {
  const file = join(dir, REPL_FILE);
  if (!existsSync(file)) return undefined;
  const bytes = readFileSync(file);
  const { records, tornAt } = readRecords(bytes, file);
  if (tornAt !== undefined || records.length !== 1)
    throw new StorageError('DataDirectoryDamaged', `${file} is damaged: it does not hold one whole record`);
  const doc = deserialize(records[0]!, BSON_READ_OPTIONS) as Document;
  const votedFor = doc.votedFor as Document | null;
  return {
    config: doc.config as Document,
    term: BigInt(doc.term as bigint),
    votedFor: votedFor
      ? { term: BigInt(votedFor.term as bigint), candidateIndex: Number(votedFor.candidateIndex) }
      : undefined,
    hasData: doc.hasData === true,
  };
}

function journalFiles(dir: string): number[] {
  return readdirSync(dir)
    .map((n) => /^j\.(\d+)$/.exec(n))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b);
}

/** A rename is durable once the directory itself is synced. */
function syncDirectory(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some platforms cannot fsync a directory; the rename is then as durable as they make it.
  }
}
