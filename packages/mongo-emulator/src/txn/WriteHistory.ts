import type { Timestamp } from 'bson';
import type { ChangeRecord } from '../engine/types.ts';
import { compareLockKeys, type LockKey } from './lockKeys.ts';

/** Committed changes kept for snapshots and conflict checks; older ones are forgotten. */
export const HISTORY_ENTRIES_MAX = 10_000;
/** How far back a snapshot may reach (mongod's minSnapshotHistoryWindowInSeconds: 300). */
export const HISTORY_WINDOW_MS = 300_000;

interface HistoryEntry {
  readonly time: Timestamp;
  readonly change: ChangeRecord;
  readonly recordedAtMs: number;
  /** The unique-index keys the change touched, computed on first need (most never are). */
  keys: LockKey[] | (() => LockKey[]);
}

/**
 * The recent committed changes, in commit order with their cluster times: enough to rebuild any
 * collection as of a recent time (by undoing what came after) and to tell whether a key was
 * written after a snapshot. Bounded by count and by age.
 */
export class WriteHistory {
  readonly #entries: HistoryEntry[] = [];
  #head = 0;
  /** Snapshots at or after this time can be rebuilt; before it, history was dropped. */
  #oldestAvailable: Timestamp | undefined;

  constructor(private readonly nowMs: () => number = Date.now) {}

  record(time: Timestamp, change: ChangeRecord, keys: () => LockKey[]): void {
    this.#entries.push({ time, change, keys, recordedAtMs: this.nowMs() });
    this.#prune();
  }

  /** Whether a snapshot at `time` can be rebuilt. */
  covers(time: Timestamp): boolean {
    return this.#oldestAvailable === undefined || time.greaterThanOrEqual(this.#oldestAvailable);
  }

  /** Changes to `ns` committed after `time`, newest first (the order to undo them in). */
  changesAfter(ns: string, time: Timestamp): ChangeRecord[] {
    const out: ChangeRecord[] = [];
    for (let i = this.#entries.length - 1; i >= this.#head; i--) {
      const entry = this.#entries[i]!;
      if (!entry.time.greaterThan(time)) break;
      if (`${entry.change.db}.${entry.change.coll}` === ns) out.push(entry.change);
    }
    return out;
  }

  /** Whether any of `keys` was written after `time` (or history no longer tells). */
  writtenAfter(keys: LockKey[], time: Timestamp): boolean {
    if (!this.covers(time)) return true;
    for (let i = this.#entries.length - 1; i >= this.#head; i--) {
      const entry = this.#entries[i]!;
      if (!entry.time.greaterThan(time)) return false;
      if (typeof entry.keys === 'function') entry.keys = entry.keys();
      if (entry.keys.some((written) => keys.some((key) => compareLockKeys(written, key) === 0))) return true;
    }
    return false;
  }

  #prune(): void {
    const oldestKeptMs = this.nowMs() - HISTORY_WINDOW_MS;
    while (
      this.#head < this.#entries.length &&
      (this.#entries.length - this.#head > HISTORY_ENTRIES_MAX || this.#entries[this.#head]!.recordedAtMs < oldestKeptMs)
    ) {
      this.#oldestAvailable = this.#entries[this.#head]!.time;
      this.#head++;
    }
    // Compact now and then so the array does not grow without bound.
    if (this.#head > 1024 && this.#head * 2 > this.#entries.length) {
      this.#entries.splice(0, this.#head);
      this.#head = 0;
    }
  }
}
