// createWorker: the worker loop users would otherwise write themselves (claim, heartbeat,
// complete, back off, stop cleanly, notice a lost lease), over the client's typed methods.
// Every guarantee stays the server's: the claim's precondition gives an item to one worker, the
// version it returned (the fencing token) makes a worker whose lease was taken over unable to
// heartbeat or complete; this loop only makes sure the handler hears of it (`signal`) and that
// the worker never tries to complete after it.
//
// It keeps its slots full (issue 43): it claims one batch ahead of its free slots (prefetch), so
// a slot that frees finds an item already in hand; it completes and heartbeats in batches
// (workerCompletions.ts, workerHeartbeats.ts). A prefetched item's lease runs from its claim, so
// it is heartbeated while it waits, and one whose lease may be running out (its heartbeats went
// unanswered) starts only once a heartbeat of its own confirms the lease is still this worker's.
import type { PreconditionClient } from './client.js';
import { createCompleter, type Completer, type HandlerOutcome } from './workerCompletions.js';
import {
  createWorkerEmitter,
  type WorkerEmitter,
  type WorkerEvents,
  type WorkerListeners,
  type WorkItem,
} from './workerEvents.js';
import { startHeartbeats } from './workerHeartbeats.js';
import { holdItem, leaseLeftMoreThan, type HeldItem } from './workerItems.js';
import { createWakeable, type Wakeable } from './workerWake.js';

export type { WorkerEvents, WorkItem };
export { COMPLETE_BATCH_MAX, HEARTBEAT_BATCH_MAX } from './workerCompletions.js';

export interface HandlerContext {
  item: WorkItem;
  /** 1 for the first claim of the item, 2 after one failure or lease expiry, ... */
  attempt: number;
  /** The item's version as claimed: heartbeat and complete present it, and fail once it is stale. */
  fencingToken: number;
  /** Aborted when the lease is lost (another worker may now hold the item) or the worker gives up on it at close. */
  signal: AbortSignal;
}

export interface WorkerOptions<R = unknown> {
  client: PreconditionClient;
  kinds: string[];
  handler: (context: HandlerContext) => Promise<R> | R;
  /** Items handled at once by this worker. Default 1. */
  concurrency?: number;
  /**
   * Items claimed ahead of the free slots, waiting (heartbeated) for one to free: default one
   * claim batch, `min(concurrency, 16)`; 0 claims only for free slots.
   */
  prefetch?: number;
  /** Each claim's lease, on the database clock. Default 30. */
  leaseSeconds?: number;
  /** Default: a random id per worker. */
  workerId?: string;
  /** Idle polling when no subscription event wakes the worker: from `minMs`, doubling to `maxMs`. Default 200 to 5 000. */
  poll?: { minMs?: number; maxMs?: number };
  /** Wake on `workItemStatusChanged` for `kinds` (needs a role that may subscribe). Default true. */
  subscribe?: boolean;
  /** Called for each event, as `worker.on` listeners are. */
  on?: WorkerListeners;
}

export interface CloseOptions {
  /** How long running (and prefetched) items may take to finish before their signals are aborted and their items released. Default 10 000. */
  timeoutMs?: number;
}

export interface Worker {
  readonly workerId: string;
  /** Handlers running now (at most `concurrency`). */
  readonly running: number;
  /** Prefetched items waiting for a slot (at most `prefetch` beyond the free slots). */
  readonly waiting: number;
  on<E extends keyof WorkerEvents>(event: E, listener: (event: WorkerEvents[E]) => void): () => void;
  /** Stops claiming, lets running and prefetched items finish within `timeoutMs`, then releases what is left. */
  close(options?: CloseOptions): Promise<void>;
}

/** The server's most items per claimWorkItems (WorkLimits.claimBatchMax; test/sdk/sharedLimits.test.ts fails when they differ). */
export const CLAIM_BATCH_MAX = 16;
const DEFAULTS = { concurrency: 1, leaseSeconds: 30, pollMinMs: 200, pollMaxMs: 5_000, closeTimeoutMs: 10_000 };

interface Settings {
  concurrency: number;
  prefetch: number;
  leaseSeconds: number;
  leaseMs: number;
  heartbeatMs: number;
  pollMinMs: number;
  pollMaxMs: number;
  workerId: string;
}

function settingsOf(options: WorkerOptions<unknown>): Settings {
  const concurrency = options.concurrency ?? DEFAULTS.concurrency;
  const leaseSeconds = options.leaseSeconds ?? DEFAULTS.leaseSeconds;
  const prefetch = options.prefetch ?? Math.min(concurrency, CLAIM_BATCH_MAX);
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new TypeError(`createWorker: concurrency must be a positive integer (got ${concurrency})`);
  if (!Number.isInteger(prefetch) || prefetch < 0)
    throw new TypeError(`createWorker: prefetch must be a non-negative integer (got ${prefetch})`);
  if (!Number.isInteger(leaseSeconds) || leaseSeconds < 1)
    throw new TypeError(`createWorker: leaseSeconds must be a positive integer (got ${leaseSeconds})`);
  if (!Array.isArray(options.kinds) || options.kinds.length === 0)
    throw new TypeError('createWorker: kinds must name at least one kind');
  const leaseMs = leaseSeconds * 1000;
  return {
    concurrency,
    prefetch,
    leaseSeconds,
    leaseMs,
    // At most a third of the lease: two heartbeats may be lost before the lease runs out.
    heartbeatMs: leaseMs / 3,
    pollMinMs: options.poll?.minMs ?? DEFAULTS.pollMinMs,
    pollMaxMs: options.poll?.maxMs ?? DEFAULTS.pollMaxMs,
    workerId: options.workerId ?? `worker-${globalThis.crypto.randomUUID()}`,
  };
}

/** The worker's moving parts, shared by its loops. */
interface Runtime<R> {
  options: WorkerOptions<R>;
  settings: Settings;
  emitter: WorkerEmitter;
  wakeable: Wakeable;
  completer: Completer;
  /** Every item in hand, from claim to its completion's answer. */
  inHand: Set<HeldItem>;
  /** Prefetched items, oldest first. */
  waiting: HeldItem[];
  running: number;
  closing: boolean;
}

export function createWorker<R = unknown>(options: WorkerOptions<R>): Worker {
  const settings = settingsOf(options);
  const emitter = createWorkerEmitter(options.on);
  const rt: Runtime<R> = {
    options,
    settings,
    emitter,
    inHand: new Set(),
    waiting: [],
    running: 0,
    closing: false,
    wakeable: createWakeable(() => rt.closing),
    completer: createCompleter({
      client: options.client,
      workerId: settings.workerId,
      emitter,
      loseLease: (held, reason) => loseLease(rt, held, reason),
      settle: (held) => settle(rt, held),
    }),
  };
  const heartbeats = startHeartbeats({
    client: options.client,
    workerId: settings.workerId,
    emitter,
    heartbeatMs: settings.heartbeatMs,
    held: () => rt.inHand,
    loseLease: (held, reason) => loseLease(rt, held, reason),
  });
  const loop = claimLoop(rt);
  const listening = listen(rt);
  let closed: Promise<void> | null = null;
  return {
    workerId: settings.workerId,
    get running() {
      return rt.running;
    },
    get waiting() {
      return rt.waiting.length;
    },
    on: (event, listener) => emitter.on(event, listener),
    close: (closeOptions = {}) =>
      (closed ??= close(rt, loop, listening, closeOptions).finally(() => heartbeats.stop())),
  };
}

/** Claims while there is room: the free slots plus the prefetch, less what waits or runs. */
async function claimLoop<R>(rt: Runtime<R>): Promise<void> {
  const { settings, options } = rt;
  let idleMs = settings.pollMinMs;
  while (!rt.closing) {
    const room = settings.concurrency + settings.prefetch - rt.running - rt.waiting.length;
    // Completions not yet answered count too: a slow API must not let the hand grow without end.
    if (room <= 0 || rt.completer.pending >= settings.concurrency + settings.prefetch) {
      await rt.wakeable.nap(settings.pollMaxMs);
      continue;
    }
    let claimed = 0;
    let raced = false;
    const sentAtMs = performance.now();
    try {
      const answer = await options.client.claimWorkItems({
        kinds: options.kinds,
        workerId: settings.workerId,
        max: Math.min(room, CLAIM_BATCH_MAX),
        leaseSeconds: settings.leaseSeconds,
      });
      if (answer.__typename === 'ClaimWorkItemsSuccess') {
        raced = answer.conflicts > 0;
        for (const item of answer.items) {
          claimed++;
          take(rt, holdItem(item, sentAtMs));
        }
      }
    } catch (error) {
      rt.emitter.emit('error', { error });
    }
    if (claimed > 0 || raced) {
      idleMs = settings.pollMinMs;
      continue;
    }
    await rt.wakeable.nap(idleMs);
    idleMs = Math.min(settings.pollMaxMs, idleMs * 2);
  }
}

/** A claimed item joins the hand: it runs at once if a slot is free, else waits for one. */
function take<R>(rt: Runtime<R>, held: HeldItem): void {
  rt.inHand.add(held);
  rt.waiting.push(held);
  rt.emitter.emit('claimed', { item: held.item });
  startWaiting(rt);
}

/**
 * Fills the free slots from the prefetched items, oldest first. An item whose lease surely has
 * more than one heartbeat tick (half a beat) left starts at once. One whose beats went unanswered
 * for most of a lease is first confirmed by a heartbeat of its own: the server extends it only if
 * no other worker took it over (the version fences it), so the item starts on a lease that is
 * surely this worker's, and is dropped (leaseLost, never run) otherwise. Dropping it without
 * asking would cost it an attempt whenever the API is merely slow.
 */
function startWaiting<R>(rt: Runtime<R>): void {
  while (rt.running < rt.settings.concurrency && rt.waiting.length > 0) {
    const held = rt.waiting.shift()!;
    if (held.lost) continue;
    const fresh = leaseLeftMoreThan(held, rt.settings.leaseMs, rt.settings.heartbeatMs / 2, performance.now());
    void run(rt, held, !fresh);
  }
}

/** A heartbeat of one item, answered: whether its lease is this worker's now. */
async function confirmLease<R>(rt: Runtime<R>, held: HeldItem): Promise<boolean> {
  const sentAtMs = performance.now();
  try {
    const answer = await rt.options.client.heartbeatWorkItems({
      items: [{ id: held.item.id, workerId: rt.settings.workerId, version: held.token }],
    });
    const result = answer.results[0] as { __typename?: string; detail?: string } | undefined;
    if (result?.__typename === 'HeartbeatSuccess') {
      held.renewedAtMs = Math.max(held.renewedAtMs, sentAtMs);
      return true;
    }
    loseLease(
      rt,
      held,
      result?.__typename === 'ConflictLost' ? (result.detail ?? 'ConflictLost') : String(result?.__typename),
    );
  } catch (error) {
    rt.emitter.emit('error', { error });
    loseLease(
      rt,
      held,
      'its lease may have run out while it waited for a slot, and the heartbeat that would confirm it went unanswered: not started',
    );
  }
  return false;
}

async function run<R>(rt: Runtime<R>, held: HeldItem, confirm: boolean): Promise<void> {
  held.state = 'running';
  rt.running++;
  let outcome: HandlerOutcome | null = null;
  if (!confirm || (await confirmLease(rt, held))) {
    try {
      outcome = {
        ok: true,
        result: await rt.options.handler({
          item: held.item,
          attempt: held.item.attempts,
          fencingToken: held.token,
          signal: held.controller.signal,
        }),
      };
    } catch (error) {
      outcome = { ok: false, error };
    }
  }
  rt.running--;
  // Never complete after the lease was lost (or given up at close), nor an item never run.
  if (held.lost || outcome === null) settle(rt, held);
  else {
    held.state = 'completing';
    rt.completer.add(held, outcome);
  }
  startWaiting(rt);
  rt.wakeable.wake();
}

function loseLease<R>(rt: Runtime<R>, held: HeldItem, reason: string): void {
  if (held.lost) return;
  held.lost = true;
  held.controller.abort(new Error(`lease lost: ${reason}`));
  rt.emitter.emit('leaseLost', { item: held.item, reason });
  // A running handler settles its item when it returns; a waiting one never will.
  if (held.state === 'waiting') {
    const at = rt.waiting.indexOf(held);
    if (at >= 0) rt.waiting.splice(at, 1);
    settle(rt, held);
  }
}

function settle<R>(rt: Runtime<R>, held: HeldItem): void {
  if (held.state === 'settled') return;
  rt.inHand.delete(held);
  held.settle();
  rt.wakeable.wake();
}

/** Wakes the loop when an item of its kinds becomes PENDING (created, retried or requeued). */
function listen<R>(rt: Runtime<R>): { stop(): void } {
  let events: AsyncGenerator<unknown, void, undefined> | null = null;
  const stop = () => {
    // Not awaited: an async generator ends only once its pending step settles, i.e. at the
    // subscription's next event; the listener ignores that event (closing) and the
    // subscription ends with it, or with the client's close().
    void events?.return(undefined).catch(() => undefined);
  };
  if (rt.options.subscribe === false) return { stop };
  void (async () => {
    try {
      events = rt.options.client.subscribe.workItemStatusChanged({ kinds: rt.options.kinds }) as AsyncGenerator<
        unknown,
        void,
        undefined
      >;
      for await (const event of events) {
        if (rt.closing) break;
        const status = (event as { status?: unknown }).status;
        if (status === 'PENDING' || (event as { __typename?: unknown }).__typename === 'ResyncRequired')
          rt.wakeable.wake();
      }
    } catch (error) {
      // Polling goes on without the subscription.
      if (!rt.closing) rt.emitter.emit('error', { error });
    }
  })();
  return { stop };
}

/**
 * Stops claiming, lets the items in hand (running and prefetched) finish within the timeout; past
 * it, aborts their handlers, never completes them as done, and releases each as a failed attempt
 * so that another worker takes it after the server's backoff rather than after the whole lease.
 */
async function close<R>(
  rt: Runtime<R>,
  loop: Promise<void>,
  listening: { stop(): void },
  closeOptions: CloseOptions,
): Promise<void> {
  rt.closing = true;
  rt.wakeable.wake();
  listening.stop();
  await loop;
  const timeoutMs = closeOptions.timeoutMs ?? DEFAULTS.closeTimeoutMs;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
  const finished = await Promise.race([
    Promise.all([...rt.inHand].map((held) => held.settled)).then(() => 'done' as const),
    deadline,
  ]);
  clearTimeout(timer);
  if (finished === 'done') return;
  const givenUp = [...rt.inHand].filter((held) => held.state === 'waiting' || held.state === 'running');
  for (const held of givenUp) {
    held.lost = true;
    held.controller.abort(new Error('worker closed before the handler finished'));
    if (held.state === 'waiting') settle(rt, held);
  }
  rt.waiting.length = 0;
  await rt.completer.release(givenUp);
}
