import { groupBytesMax, groupMovesMax } from './limits.ts';

// Group commit across accounts: the process's money moves wait in ONE queue, in arrival order,
// whatever their accounts. While a group transaction is in flight, every move that arrives waits
// for a next one; each transaction takes what is queued (up to `groupMovesMax` moves and
// `groupBytesMax` bytes) and decides it in arrival order (groupCommit.ts). Up to `inFlightMax`
// groups run at once, on disjoint accounts, so the pipeline stays full: a move whose account is in
// an in-flight group stays queued, and so does every later move on that account (per-account
// order is arrival order). Nobody waits for company: on an idle process a move goes at once.
// Pure bookkeeping, no I/O: the caller runs the groups it takes and says when each is done.

export interface Dispatched<Item> {
  item: Item;
  /** The accounts the move writes (one for a deposit or a withdrawal, two for a transfer). */
  accountIds: readonly string[];
  /** Its bound of what it writes (`moveBytesMax`). */
  bytes: number;
}

export interface TakenGroup<Item> {
  items: Item[];
  /** The group's distinct accounts, busy until `done`. */
  accountIds: string[];
}

export class MoveDispatch<Item> {
  readonly #queue: Dispatched<Item>[] = [];
  /** The accounts of the groups in flight. */
  readonly #busy = new Set<string>();
  #inFlight = 0;
  #startScheduled = false;

  constructor(readonly inFlightMax: number) {}

  get queued(): number {
    return this.#queue.length;
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  push(dispatched: Dispatched<Item>): void {
    this.#queue.push(dispatched);
  }

  /**
   * Runs `start` once after the current burst of pushes (one microtask later), however many ask:
   * moves sent together (a Promise.all, the requests one socket read delivered) form one group
   * rather than the first going alone, and a lone move still goes within the same turn of the
   * event loop.
   */
  startSoon(start: () => void): void {
    if (this.#startScheduled) return;
    this.#startScheduled = true;
    queueMicrotask(() => {
      this.#startScheduled = false;
      start();
    });
  }

  /**
   * The next group, or null when none may start: the in-flight bound is reached, or every queued
   * move waits for an account in flight. The group holds the queued moves in arrival order whose
   * accounts are neither in flight nor written by an earlier move left in the queue (always at
   * least one move when any may go, whatever its size).
   */
  take(): TakenGroup<Item> | null {
    if (this.#inFlight >= this.inFlightMax || this.#queue.length === 0) return null;
    /** Accounts a move left queued writes: a later move on them must wait behind it. */
    const blocked = new Set<string>();
    const accounts = new Set<string>();
    const taken: number[] = [];
    let bytes = 0;
    for (let i = 0; i < this.#queue.length && taken.length < groupMovesMax; i += 1) {
      const move = this.#queue[i]!;
      const free = move.accountIds.every((id) => !this.#busy.has(id) && !blocked.has(id));
      const fits = taken.length === 0 || bytes + move.bytes <= groupBytesMax;
      if (!free || !fits) {
        for (const id of move.accountIds) blocked.add(id);
        if (!fits) break; // the group is full: arrival order is kept by stopping here
        continue;
      }
      taken.push(i);
      bytes += move.bytes;
      for (const id of move.accountIds) accounts.add(id);
    }
    if (taken.length === 0) return null;
    const items: Item[] = [];
    for (let k = taken.length - 1; k >= 0; k -= 1) items.unshift(this.#queue.splice(taken[k]!, 1)[0]!.item);
    for (const id of accounts) this.#busy.add(id);
    this.#inFlight += 1;
    return { items, accountIds: [...accounts] };
  }

  /** A group taken by `take` has answered: its accounts are free again. */
  done(group: TakenGroup<Item>): void {
    for (const id of group.accountIds) this.#busy.delete(id);
    this.#inFlight -= 1;
  }
}
