import type { Timestamp } from 'bson';
import type { Catalog } from '../engine/catalog.ts';
import type { ChangeRecord, Document } from '../engine/types.ts';
import { CommandError } from '../errors.ts';
import { DEFAULT_TRANSACTION_LIFETIME_LIMIT_SECONDS } from '../serverParameters.ts';
import type { ClusterClock } from '../session/ClusterClock.ts';
import type { LogicalSession } from '../session/SessionRegistry.ts';
import { LockTable } from './LockTable.ts';
import { keysOfChange, uniqueIndexesOf, type LockKey } from './lockKeys.ts';
import { commitRefusal, installCommit } from './installCommit.ts';
import { checkTransactionStatement, type SessionOptions } from './sessionOptions.ts';
import { SnapshotCatalog } from './SnapshotCatalog.ts';
import { SnapshotPins } from './SnapshotPins.ts';
import { Transaction } from './Transaction.ts';
import { WriteHistory } from './WriteHistory.ts';

/** mongod's transactionLifetimeLimitSeconds default: an open transaction is aborted after this. */
export const DEFAULT_TRANSACTION_LIFETIME_LIMIT_MS = DEFAULT_TRANSACTION_LIFETIME_LIMIT_SECONDS * 1000;
/** Writes one transaction may stage before it is refused (TransactionTooLarge). */
export const TRANSACTION_CHANGES_MAX = 100_000;
/** Times a plain write re-checks its keys after a holding transaction ends, before giving up. */
const LOCK_WAIT_ROUNDS_MAX = 10_000;

export interface CoordinatorOptions {
  transactionLifetimeLimitMs?: number;
  logger?: { warn(message: string): void };
}

/**
 * Every session's transaction, the locks their writes hold and the history their snapshots are
 * rebuilt from. Snapshot isolation: a transaction reads and writes a private copy of the data as
 * of its first statement; its first write to a key that another open transaction holds, or that
 * was committed after its snapshot, is a WriteConflict; commit checks, then installs the
 * versions its writes left on the live catalog in one synchronous step, so others see all of
 * them or none.
 */
export class TransactionCoordinator {
  readonly #live: Catalog;
  readonly #clock: ClusterClock;
  readonly #history = new WriteHistory();
  readonly #locks = new LockTable<Transaction>();
  readonly #pins: SnapshotPins;
  readonly #bySession = new Map<string, Transaction>();
  #lifetimeLimitMs: number;
  readonly #logger: CoordinatorOptions['logger'];
  /** The transaction whose commit is being applied: its own writes do not conflict with it. */
  #committing: Transaction | undefined;
  #writeConflicts = 0;

  constructor(live: Catalog, clock: ClusterClock, options: CoordinatorOptions = {}) {
    this.#live = live;
    this.#clock = clock;
    this.#lifetimeLimitMs = options.transactionLifetimeLimitMs ?? DEFAULT_TRANSACTION_LIFETIME_LIMIT_MS;
    this.#logger = options.logger;
    this.#pins = new SnapshotPins(live);
    // Registered after the clock's own observer, so clock.now() is this change's time.
    live.observe((change) => this.#onLiveWrite(change));
  }

  /** mongod's transactionLifetimeLimitSeconds; a change applies to transactions begun after it. */
  get transactionLifetimeLimitSeconds(): number {
    return this.#lifetimeLimitMs / 1000;
  }

  set transactionLifetimeLimitSeconds(seconds: number) {
    this.#lifetimeLimitMs = seconds * 1000;
  }

  /**
   * Plain writes that met a key an open transaction holds and waited for it: serverStatus's
   * metrics.operation.writeConflicts, as mongod counts the write conflicts it retries internally.
   * Tests watch it to know a write is waiting, instead of sleeping.
   */
  get writeConflicts(): number {
    return this.#writeConflicts;
  }

  /** Open (in progress) transactions, for serverStatus and tests. */
  get openCount(): number {
    let n = 0;
    for (const txn of this.#bySession.values()) if (txn.state === 'inProgress') n++;
    return n;
  }

  /**
   * Begins or continues the transaction a statement names (mongod's beginOrContinue); returns
   * undefined when the command is not part of one. A retryable write with a newer txnNumber
   * ends the session's open transaction.
   */
  statement(
    session: LogicalSession | undefined,
    name: string,
    command: Document,
    options: SessionOptions,
  ): Transaction | undefined {
    if (options.txnNumber === undefined || !session) return undefined;
    const n = options.txnNumber;
    const current = this.#bySession.get(session.key);
    if (options.autocommit === undefined) {
      if (current?.state === 'inProgress' && n > current.txnNumber)
        this.#abort(current, 'a newer txnNumber started on its session');
      return undefined;
    }
    checkTransactionStatement(name, command, options);
    if (n < session.txnNumber) {
      throw new CommandError(
        'TransactionTooOld',
        `Cannot start transaction ${n} on session ${session.key} because a newer transaction ${session.txnNumber} has already started.`,
      );
    }
    if (options.startTransaction) return this.#begin(session, command.lsid as Document, n);
    if (!current || current.txnNumber !== n) {
      throw new CommandError(
        'NoSuchTransaction',
        `Given transaction number ${n} does not match any in-progress transactions. The active transaction number is ${session.txnNumber}`,
      );
    }
    if (current.state === 'aborted')
      throw new CommandError('NoSuchTransaction', `Transaction with { txnNumber: ${n} } has been aborted.`);
    if (current.state === 'committed' && name !== 'commitTransaction') {
      throw new CommandError('TransactionCommitted', `Transaction with { txnNumber: ${n} } has been committed.`);
    }
    return current;
  }

  /** Applies a transaction's writes; a retried commit of a committed transaction does nothing. */
  commit(txn: Transaction): void {
    if (txn.state === 'committed') return;
    if (txn.state === 'aborted')
      throw new CommandError('NoSuchTransaction', `Transaction with { txnNumber: ${txn.txnNumber} } has been aborted.`);
    if (this.#history.writtenAfter(txn.locks, txn.snapshotTime)) {
      this.#abort(txn, 'a key it wrote changed after its snapshot');
      throw writeConflict();
    }
    // Locks make this unreachable unless a collection was dropped, replaced or given a unique
    // index after the snapshot: the commit is then refused whole, as a conflict to retry.
    const refusal = commitRefusal(this.#live, txn.catalog, txn.changes);
    if (refusal) {
      this.#abort(txn, refusal);
      throw writeConflict();
    }
    this.#committing = txn;
    try {
      installCommit(this.#live, txn.catalog, txn.changes);
    } catch (error) {
      // commitRefusal makes this unreachable; if it happens the partial commit must be visible in the log.
      this.#logger?.warn(
        `transaction ${txn.txnNumber} on session ${txn.session.key} failed while committing: ${String(error)}`,
      );
      throw error;
    } finally {
      this.#committing = undefined;
      this.#release(txn);
    }
    txn.end('committed');
  }

  /** The client's abortTransaction, or a failed statement: its writes are dropped. */
  abort(txn: Transaction, reason = 'aborted by the client'): void {
    this.#abort(txn, reason);
  }

  /** Aborts the open transactions of sessions that end (endSessions, killAllSessions). */
  abandonSessions(keys: Iterable<string> | 'all'): void {
    const all = keys === 'all';
    for (const key of all ? [...this.#bySession.keys()] : keys) {
      const txn = this.#bySession.get(key);
      if (txn) this.#abort(txn, 'its session ended');
      this.#bySession.delete(key);
    }
  }

  /**
   * `killSessions`: aborts the open transactions of the sessions named (or of every session),
   * releasing what they hold at once. Unlike endSessions the sessions stay known, so a later
   * statement of the killed transaction is refused with NoSuchTransaction, as on mongod
   * (src/mongo/db/session/kill_sessions_local.cpp killSessionsAbortUnpreparedTransactions).
   * Returns how many transactions it aborted.
   */
  killSessions(keys: Iterable<string> | 'all'): number {
    let aborted = 0;
    for (const key of keys === 'all' ? [...this.#bySession.keys()] : keys) {
      const txn = this.#bySession.get(key);
      if (txn?.state !== 'inProgress') continue;
      this.#abort(txn, 'its session was killed');
      aborted++;
    }
    return aborted;
  }

  /** Open transactions with no statement running: `$currentOp`'s idle sessions. */
  *idleTransactions(): Iterable<Transaction> {
    for (const txn of this.#bySession.values()) if (txn.idle) yield txn;
  }

  /** A read-only view of the data at `time` (readConcern snapshot outside transactions). */
  snapshotAt(time: Timestamp | undefined): SnapshotCatalog {
    const at = time ?? this.#clock.now();
    this.#checkAvailable(at);
    return new SnapshotCatalog(this.#live, this.#history, at, () => {
      throw new CommandError('InvalidOptions', 'A snapshot read cannot write');
    });
  }

  /**
   * Waits until no open transaction holds any of `keys`, as mongod's plain writes retry their
   * write conflicts: bounded by `deadlineMs` (maxTimeMS) and by the given abort signals.
   */
  async waitForKeys(keys: () => LockKey[], deadlineMs: number | undefined, signals: AbortSignal[]): Promise<void> {
    for (let round = 0; round < LOCK_WAIT_ROUNDS_MAX; round++) {
      if (this.#locks.size === 0) return;
      const holder = this.#locks.conflictFor(keys());
      if (!holder) return;
      this.#writeConflicts++;
      const outcome = await waitFor(holder.whenEnded(), deadlineMs, signals);
      if (outcome === 'timeout') throw new CommandError('MaxTimeMSExpired', 'operation exceeded time limit');
      if (outcome === 'aborted') throw new CommandError('InterruptedAtShutdown', 'interrupted at shutdown');
    }
    throw new CommandError(
      'WriteConflict',
      `still conflicting after ${LOCK_WAIT_ROUNDS_MAX} waits for open transactions`,
    );
  }

  /** Stops the lifetime timers (the server is stopping). */
  stop(): void {
    this.abandonSessions('all');
  }

  /**
   * A transaction the primary committed, replicated to this member (mongod's applier writes its
   * config.transactions record): should this member become primary, a retried commitTransaction
   * of it succeeds instead of NoSuchTransaction, so withTransaction does not apply it twice.
   */
  /** The txnNumber of the session's last committed transaction, if its last one committed (a checkpoint keeps it). */
  committedTxnNumber(key: string): bigint | undefined {
    const txn = this.#bySession.get(key);
    return txn?.state === 'committed' ? txn.txnNumber : undefined;
  }

  recordReplicatedCommit(session: LogicalSession, lsid: Document, n: bigint): void {
    if (n < session.txnNumber) return;
    const previous = this.#bySession.get(session.key);
    if (previous?.state === 'inProgress') this.#abort(previous, 'a newer transaction committed on its session');
    session.txnNumber = n;
    session.executed.clear();
    // Never read: commit() returns at once for a committed transaction.
    const txn = new Transaction(session, lsid, n, undefined as unknown as SnapshotCatalog);
    txn.end('committed');
    this.#bySession.set(session.key, txn);
  }

  #begin(session: LogicalSession, lsid: Document, n: bigint): Transaction {
    if (n === session.txnNumber) {
      throw new CommandError(
        'ConflictingOperationInProgress',
        `Cannot start a transaction at given transaction number ${n} on session ${session.key} because it is already in use.`,
      );
    }
    const previous = this.#bySession.get(session.key);
    if (previous) this.#abort(previous, 'a newer transaction started on its session');
    session.txnNumber = n;
    session.executed.clear();
    const time = this.#clock.now();
    this.#checkAvailable(time);
    let txn: Transaction;
    const catalog = new SnapshotCatalog(this.#live, this.#history, time, (change) => this.#stage(txn, change));
    txn = new Transaction(session, lsid, n, catalog);
    this.#pins.add(catalog);
    txn.expireAfter(this.#lifetimeLimitMs, () =>
      this.#abort(txn, "it ran longer than 'transactionLifetimeLimitSeconds'"),
    );
    this.#bySession.set(session.key, txn);
    return txn;
  }

  /** A write inside the transaction's snapshot: first writer of a key wins, later ones conflict. */
  #stage(txn: Transaction, change: ChangeRecord): void {
    if (txn.state !== 'inProgress')
      throw new CommandError('NoSuchTransaction', `Transaction with { txnNumber: ${txn.txnNumber} } has been aborted.`);
    if (txn.changes.length >= TRANSACTION_CHANGES_MAX) {
      throw new CommandError(
        'TransactionTooLarge',
        `Total size of all transaction operations must be less than ${TRANSACTION_CHANGES_MAX} operations`,
      );
    }
    const keys = keysOfChange(change, uniqueIndexesOf(txn.catalog.getCollection(change.db, change.coll)));
    if (this.#locks.conflictFor(keys, txn) || this.#history.writtenAfter(keys, txn.snapshotTime)) throw writeConflict();
    this.#locks.acquire(keys, txn);
    txn.locks.push(...keys);
    txn.changes.push(change);
  }

  #onLiveWrite(change: ChangeRecord): void {
    // The keys matter only to a transaction open now (besides the one committing): one begun
    // later has its snapshot after this write, so never asks whether this write came after it.
    // Plain writes with no transaction open skip computing them.
    if (this.#pins.openCount - (this.#committing ? 1 : 0) === 0) {
      this.#history.record(this.#clock.now(), change, NO_KEYS);
      return;
    }
    const keys = keysOfChange(change, uniqueIndexesOf(this.#live.getCollection(change.db, change.coll)));
    this.#history.record(this.#clock.now(), change, keys);
    if (this.#locks.size === 0) return;
    // A plain write whose targets were not known in advance (an update moving a unique key onto
    // one a transaction holds): the transaction can no longer commit as it read, so it ends now.
    const holder = this.#locks.conflictFor(keys, this.#committing);
    if (holder) this.#abort(holder, 'a write outside it touched a key it holds');
  }

  #abort(txn: Transaction, reason: string): void {
    if (txn.state !== 'inProgress') return;
    this.#release(txn);
    txn.end('aborted', reason);
  }

  #release(txn: Transaction): void {
    this.#locks.release(txn.locks, txn);
    this.#pins.delete(txn.catalog);
  }

  #checkAvailable(time: Timestamp): void {
    if (!this.#history.covers(time)) {
      throw new CommandError(
        'SnapshotTooOld',
        `Read timestamp ${time.toString()} is older than the oldest available timestamp.`,
      );
    }
  }
}

const NO_KEYS: LockKey[] = [];

function writeConflict(): CommandError {
  return new CommandError(
    'WriteConflict',
    'Caused by :: Write conflict during plan execution and yielding is disabled. :: Please retry your operation or multi-document transaction.',
  );
}

function waitFor(
  ended: Promise<void>,
  deadlineMs: number | undefined,
  signals: AbortSignal[],
): Promise<'ended' | 'timeout' | 'aborted'> {
  return new Promise((resolve) => {
    if (signals.some((s) => s.aborted)) return resolve('aborted');
    const timer =
      deadlineMs === undefined ? undefined : setTimeout(() => finish('timeout'), Math.max(0, deadlineMs - Date.now()));
    const onAbort = () => finish('aborted');
    function finish(outcome: 'ended' | 'timeout' | 'aborted') {
      clearTimeout(timer);
      for (const s of signals) s.removeEventListener('abort', onAbort);
      resolve(outcome);
    }
    for (const s of signals) s.addEventListener('abort', onAbort, { once: true });
    void ended.then(() => finish('ended'));
  });
}
