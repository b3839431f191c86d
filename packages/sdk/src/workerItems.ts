// An item in a worker's hand, from its claim to its completion's answer. Its lease is counted the
// way the server counts it, from the write that took or extended it: the claim's (or the last
// answered heartbeat's) send time is no later than that write, so `renewedAtMs + leaseMs` is a
// moment at or before the lease's end, on this process's monotonic clock.
import type { WorkItem } from './workerEvents.js';

export type HeldState = 'waiting' | 'running' | 'completing' | 'settled';

export interface HeldItem {
  readonly item: WorkItem;
  /** The version the claim returned: every heartbeat and the completion present it. */
  readonly token: number;
  readonly controller: AbortController;
  state: HeldState;
  /** performance.now() when the claim, or the last heartbeat the server answered, was sent. */
  renewedAtMs: number;
  /** The lease is lost or given up: the item is never completed by this worker. */
  lost: boolean;
  /** Settles once the item has left the worker's hand. */
  readonly settled: Promise<void>;
  settle(): void;
}

export function holdItem(item: WorkItem, claimSentAtMs: number): HeldItem {
  let settle: () => void = () => undefined;
  const settled = new Promise<void>((resolve) => (settle = resolve));
  const held: HeldItem = {
    item,
    token: item.version,
    controller: new AbortController(),
    state: 'waiting',
    renewedAtMs: claimSentAtMs,
    lost: false,
    settled,
    settle() {
      held.state = 'settled';
      settle();
    },
  };
  return held;
}

/** Whether a lease renewed at `renewedAtMs` surely has more than `marginMs` left now. */
export function leaseLeftMoreThan(held: HeldItem, leaseMs: number, marginMs: number, nowMs: number): boolean {
  return held.renewedAtMs + leaseMs - nowMs > marginMs;
}
