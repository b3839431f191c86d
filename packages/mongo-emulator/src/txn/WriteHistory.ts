import type { Timestamp } from 'bson';
import type { ChangeRecord } from '../engine/types.ts';
import { LockKeyMap } from './LockKeyMap.ts';
import type { LockKey } from './lockKeys.ts';

/** Committed changes kept for snapshots and conflict checks; older ones are forgotten. */
export const HISTORY_ENTRIES_MAX = 10_000;
/** How far back a snapshot may reach (mongod's minSnapshotHistoryWindowInSeconds: 300). */
export const HISTORY_WINDOW_MS = 300_000;
/** Dropped entries a list keeps at its front before it is compacted (amortizes the splice). */
const COMPACT_AFTER_ENTRIES = 1024;

interface HistoryEntry {
  readonly time: Timestamp;
  readonly change: ChangeRecord;
  readonly ns: string;
  readonly recordedAtMs: number;
  /** The unique-index keys the change removed or added. */
  readonly keys: LockKey[];
}

/** Entries in commit order; those before `head` are dropped (kept until the next compaction). */
interface EntryList {
  entries: HistoryEntry[];
  head: number;
}

/**
 * The recent committed changes, in commit order with their cluster times: enough to rebuild any
 * collection as of a recent time (by undoing what came after) and to tell whether a key was
 * written after a snapshot. Bounded by count and by age.
 *
 * Indexed by namespace and by key, so a snapshot or a conflict check costs what touched its own
 * collection or keys: at 32 concurrent transactions hundreds of commits (to other collections,
 * other keys) land between one's snapshot and its writes, and walking them all for every write
 * was a twentieth of the engine's CPU.
 */
export class WriteHistory {
  readonly #all: EntryList = { entries: [], head: 0 };
  readonly #byNamespace = new Map<string, EntryList>();
  /** Each key written by a kept entry, with the latest such entry. */
  readonly #lastWritten = new LockKeyMap<HistoryEntry>();
  /** Snapshots at or after this time can be rebuilt; before it, history was dropped. */
  #oldestAvailable: Timestamp | undefined;

  constructor(private readonly nowMs: () => number = Date.now) {}

  /** Records a committed change; times only grow from one call to the next. */
  record(time: Timestamp, change: ChangeRecord, keys: LockKey[]): void {
    const ns = `${change.db}.${change.coll}`;
    const entry: HistoryEntry = { time, change, ns, keys, recordedAtMs: this.nowMs() };
    this.#all.entries.push(entry);
    let list = this.#byNamespace.get(ns);
    if (!list) this.#byNamespace.set(ns, (list = { entries: [], head: 0 }));
    list.entries.push(entry);
    for (const key of keys) this.#lastWritten.set(key, entry);
    this.#prune();
  }

  /** Whether a snapshot at `time` can be rebuilt. */
  covers(time: Timestamp): boolean {
    return this.#oldestAvailable === undefined || time.greaterThanOrEqual(this.#oldestAvailable);
  }

  /** Changes to `ns` committed after `time`, newest first (the order to undo them in). */
  changesAfter(ns: string, time: Timestamp): ChangeRecord[] {
    const out: ChangeRecord[] = [];
    const list = this.#byNamespace.get(ns);
    if (!list) return out;
    for (let i = list.entries.length - 1; i >= list.head; i--) {
      const entry = list.entries[i]!;
      if (!entry.time.greaterThan(time)) break;
      out.push(entry.change);
    }
    return out;
  }

  /** Whether any of `keys` was written after `time` (or history no longer tells). */
  writtenAfter(keys: LockKey[], time: Timestamp): boolean {
    if (!this.covers(time)) return true;
    for (const key of keys) {
      const last = this.#lastWritten.get(key);
      if (last?.time.greaterThan(time)) return true;
    }
    return false;
  }

  #prune(): void {
    const all = this.#all;
    const oldestKeptMs = this.nowMs() - HISTORY_WINDOW_MS;
    while (
      all.head < all.entries.length &&
      (all.entries.length - all.head > HISTORY_ENTRIES_MAX || all.entries[all.head]!.recordedAtMs < oldestKeptMs)
    ) {
      this.#drop(all.entries[all.head]!);
      all.head++;
    }
    compact(all);
  }

  /** Forgets the oldest kept entry (so also the oldest of its namespace). */
  #drop(entry: HistoryEntry): void {
    this.#oldestAvailable = entry.time;
    // A key written again later stays, with that later time.
    for (const key of entry.keys) if (this.#lastWritten.get(key) === entry) this.#lastWritten.delete(key);
    const list = this.#byNamespace.get(entry.ns)!;
    list.head++;
    if (list.head === list.entries.length) this.#byNamespace.delete(entry.ns);
    else compact(list);
  }
}

/** Drops the front of a list now and then, so it does not grow without bound. */
function compact(list: EntryList): void {
  if (list.head > COMPACT_AFTER_ENTRIES && list.head * 2 > list.entries.length) {
    list.entries.splice(0, list.head);
    list.head = 0;
  }
}
