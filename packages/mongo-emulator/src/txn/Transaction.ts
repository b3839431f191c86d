import type { Timestamp } from 'bson';
import type { ChangeRecord, Document } from '../engine/types.ts';
import type { LogicalSession } from '../session/SessionRegistry.ts';
import type { LockKey } from './lockKeys.ts';
import type { SnapshotCatalog } from './SnapshotCatalog.ts';

export type TransactionState = 'inProgress' | 'committed' | 'aborted';

/**
 * The client that ran a transaction's last statement, as mongod keeps it for an idle session's
 * `$currentOp` entry (SingleTransactionStats::LastClientInfo, src/mongo/db/transaction/
 * transaction_participant.cpp reportStashedState): a survivor reads the appName there to learn
 * which process left the transaction open.
 */
export interface TransactionClient {
  readonly connectionId: number;
  readonly client: string;
  readonly appName: string | undefined;
  readonly clientMetadata: Document | undefined;
}

/** One multi-document transaction of one session: its snapshot, its staged writes, its locks. */
export class Transaction {
  state: TransactionState = 'inProgress';
  /** The writes made so far, in order; applied to the live catalog only at commit. */
  readonly changes: ChangeRecord[] = [];
  /** The unique-index keys written so far; others' writes to them conflict or wait. */
  readonly locks: LockKey[] = [];
  /** Set when the transaction was aborted by the server, for the log and tests. */
  abortReason: string | undefined;
  /** Wall-clock start, for `$currentOp`'s startWallClockTime and timeOpenMicros. */
  readonly startedAt = new Date();
  /** Who ran the last statement; undefined for a transaction known only from replication. */
  lastClient: TransactionClient | undefined;
  /** When the last statement finished: the transaction has been idle since (timeInactiveMicros). */
  idleSince = this.startedAt;
  #statementsRunning = 0;
  readonly #endListeners = new Set<() => void>();
  #expiryTimer: NodeJS.Timeout | undefined;
  #expiresAt: Date | undefined;

  constructor(
    readonly session: LogicalSession,
    readonly lsid: Document,
    readonly txnNumber: bigint,
    readonly catalog: SnapshotCatalog,
  ) {}

  get snapshotTime(): Timestamp {
    return this.catalog.time;
  }

  /** A statement of this transaction starts on `client`'s connection (mongod unstashes it). */
  checkOut(client: TransactionClient): void {
    this.lastClient = client;
    this.#statementsRunning++;
  }

  /** The statement ended: the transaction is stashed, idle until the next one. */
  checkIn(): void {
    this.#statementsRunning--;
    this.idleSince = new Date();
  }

  /** Open with no statement running: what `$currentOp` lists as an idle session. */
  get idle(): boolean {
    return this.state === 'inProgress' && this.#statementsRunning === 0;
  }

  /** When the server aborts it (transactionLifetimeLimitSeconds after its start). */
  get expiresAt(): Date | undefined {
    return this.#expiresAt;
  }

  expireAfter(limitMs: number, onExpiry: () => void): void {
    this.#expiresAt = new Date(this.startedAt.getTime() + limitMs);
    this.#expiryTimer = setTimeout(onExpiry, limitMs);
    // An abandoned transaction must never keep the process alive.
    this.#expiryTimer.unref();
  }

  /** Resolves once the transaction is committed or aborted. */
  whenEnded(): Promise<void> {
    if (this.state !== 'inProgress') return Promise.resolve();
    return new Promise((resolve) => this.#endListeners.add(resolve));
  }

  /** Moves to a final state exactly once and wakes whoever waits for it. */
  end(state: 'committed' | 'aborted', reason?: string): void {
    if (this.state !== 'inProgress') return;
    this.state = state;
    this.abortReason = reason;
    clearTimeout(this.#expiryTimer);
    for (const listener of this.#endListeners) listener();
    this.#endListeners.clear();
  }
}
