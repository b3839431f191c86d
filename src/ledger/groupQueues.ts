import { turnOrder } from './accountTurns.ts';
import { groupBytesMax, groupMovesMax } from './limits.ts';

// The moves of this process waiting for their accounts' turn, one queue per set of accounts (one
// account for a deposit or a withdrawal, two for a transfer). The first move queued on an empty
// queue leads it: when its turn comes it takes whatever is queued by then, up to the group
// maximum, and commits it as one group; moves queued meanwhile go with the next group. Nobody
// waits for company: a lone move finds an empty queue and goes at once. A move whose retry budget
// runs out while it waits for the turn leaves the queue (`expire`) and answers its transient member.

/** One queued move: its bytes bound, its deadline, and how its caller hears the answer. */
export interface Queued<Item> {
  item: Item;
  bytes: number;
  /** Epoch ms: the end of the move's retry budget, waiting for the turn included. */
  deadlineMs: number;
}

export class GroupQueues<Item> {
  readonly #queues = new Map<string, Queued<Item>[]>();

  /** Queues a move under its accounts' key; true when the queue was empty, so the caller must lead it. */
  push(key: string, queued: Queued<Item>): boolean {
    const queue = this.#queues.get(key);
    if (queue) {
      queue.push(queued);
      return false;
    }
    this.#queues.set(key, [queued]);
    return true;
  }

  /**
   * The next group: the queued moves in arrival order, up to `groupMovesMax` moves and
   * `groupBytesMax` bytes (always at least one). Empty when nothing waits: the queue is then
   * gone, and the next move queued leads a new one.
   */
  take(key: string): Item[] {
    const queue = this.#queues.get(key);
    if (!queue || queue.length === 0) {
      this.#queues.delete(key);
      return [];
    }
    let count = 0;
    let bytes = 0;
    while (count < queue.length && count < groupMovesMax && (count === 0 || bytes + queue[count]!.bytes <= groupBytesMax)) {
      bytes += queue[count]!.bytes;
      count += 1;
    }
    return queue.splice(0, count).map((queued) => queued.item);
  }

  /** The earliest deadline among the queued moves: the first's (they queue in arrival order, each with the same budget). */
  firstDeadline(key: string): number | undefined {
    return this.#queues.get(key)?.[0]?.deadlineMs;
  }

  /**
   * Takes the queued moves whose deadline is past `nowMs` out of the queue. `empty`: nothing waits
   * any more, the queue is gone, and its leader stops (the next move queued leads a new one).
   */
  expire(key: string, nowMs: number): { expired: Item[]; empty: boolean } {
    const queue = this.#queues.get(key);
    if (!queue) return { expired: [], empty: true };
    const expired = queue.filter((queued) => queued.deadlineMs <= nowMs).map((queued) => queued.item);
    const left = queue.filter((queued) => queued.deadlineMs > nowMs);
    if (left.length === 0) {
      this.#queues.delete(key);
      return { expired, empty: true };
    }
    queue.splice(0, queue.length, ...left);
    return { expired, empty: false };
  }
}

/** The queue key of a move: its accounts as a set, sorted, so A→B and B→A transfers share one queue. */
export function groupKeyOf(accountIds: readonly string[]): string {
  return JSON.stringify(turnOrder(accountIds));
}
