import type { Timestamp } from 'bson';
import type { ChangeRecord, Document } from '../engine/types.ts';
import type { LogicalSession } from '../session/SessionRegistry.ts';
import type { LockKey } from './lockKeys.ts';
import type { SnapshotCatalog } from './SnapshotCatalog.ts';

export type TransactionState = 'inProgress' | 'committed' | 'aborted';

/** One multi-document transaction of one session: its snapshot, its staged writes, its locks. */
export class Transaction {
  state: TransactionState = 'inProgress';
  /** The writes made so far, in order; applied to the live catalog only at commit. */
  readonly changes: ChangeRecord[] = [];
  /** The unique-index keys written so far; others' writes to them conflict or wait. */
  readonly locks: LockKey[] = [];
  /** Set when the transaction was aborted by the server, for the log and tests. */
  abortReason: string | undefined;
  readonly #endListeners = new Set<() => void>();
  #expiryTimer: NodeJS.Timeout | undefined;

  constructor(
    readonly session: LogicalSession,
    readonly lsid: Document,
    readonly txnNumber: bigint,
    readonly catalog: SnapshotCatalog,
  ) {}

  get snapshotTime(): Timestamp {
    return this.catalog.time;
  }

  expireAfter(limitMs: number, onExpiry: () => void): void {
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
