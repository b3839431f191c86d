// createWorker: the worker loop users would otherwise write themselves (claim, heartbeat,
// complete, back off, stop cleanly, notice a lost lease), over the client's typed methods.
// Every guarantee stays the server's: the claim's precondition gives an item to one worker, the
// version it returned (the fencing token) makes a worker whose lease was taken over unable to
// heartbeat or complete; this loop only makes sure the handler hears of it (`signal`) and that
// the worker never tries to complete after it.
import type { PreconditionClient } from './client.js';
import type { WorkItemFieldsFragment } from './generated/graphql.js';

export type WorkItem = WorkItemFieldsFragment;

export interface HandlerContext {
  item: WorkItem;
  /** 1 for the first claim of the item, 2 after one failure or lease expiry, ... */
  attempt: number;
  /** The item's version as claimed: heartbeat and complete present it, and fail once it is stale. */
  fencingToken: number;
  /** Aborted when the lease is lost (another worker may now hold the item) or the worker gives up on it at close. */
  signal: AbortSignal;
}

export interface WorkerEvents {
  claimed: { item: WorkItem };
  completed: { item: WorkItem; result: unknown };
  /** The handler threw: the item was completed as FAILED (retried after the server's backoff, or dead-lettered). */
  failed: { item: WorkItem; error: unknown };
  /** A heartbeat or the completion answered ConflictLost (or the item is gone): the handler's signal is aborted and nothing is completed. */
  leaseLost: { item: WorkItem; reason: string };
  /** A call to the API failed (network, server); the loop goes on with backoff. */
  error: { error: unknown };
}

export interface WorkerOptions<R = unknown> {
  client: PreconditionClient;
  kinds: string[];
  handler: (context: HandlerContext) => Promise<R> | R;
  /** Items handled at once by this worker. Default 1. */
  concurrency?: number;
  /** Each claim's lease, on the database clock. Default 30. */
  leaseSeconds?: number;
  /** Default: a random id per worker. */
  workerId?: string;
  /** Idle polling when no subscription event wakes the worker: from `minMs`, doubling to `maxMs`. Default 200 to 5 000. */
  poll?: { minMs?: number; maxMs?: number };
  /** Wake on `workItemStatusChanged` for `kinds` (needs a role that may subscribe). Default true. */
  subscribe?: boolean;
  /** Called for each event, as `worker.on` listeners are. */
  on?: { [E in keyof WorkerEvents]?: (event: WorkerEvents[E]) => void };
}

export interface CloseOptions {
  /** How long running handlers may take to finish before their signals are aborted and their items released. Default 10 000. */
  timeoutMs?: number;
}

export interface Worker {
  readonly workerId: string;
  /** Items being handled now. */
  readonly running: number;
  on<E extends keyof WorkerEvents>(event: E, listener: (event: WorkerEvents[E]) => void): () => void;
  /** Stops claiming, lets running handlers finish within `timeoutMs`, then releases what is left. */
  close(options?: CloseOptions): Promise<void>;
}

/** The server's most items per claimWorkItems (WorkLimits.claimBatchMax; test/sdk/sharedLimits.test.ts fails when they differ). */
export const CLAIM_BATCH_MAX = 16;
const DEFAULTS = { concurrency: 1, leaseSeconds: 30, pollMinMs: 200, pollMaxMs: 5_000, closeTimeoutMs: 10_000 };

export function createWorker<R = unknown>(options: WorkerOptions<R>): Worker {
  const concurrency = options.concurrency ?? DEFAULTS.concurrency;
  const leaseSeconds = options.leaseSeconds ?? DEFAULTS.leaseSeconds;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new TypeError(`createWorker: concurrency must be a positive integer (got ${concurrency})`);
  if (!Number.isInteger(leaseSeconds) || leaseSeconds < 1) throw new TypeError(`createWorker: leaseSeconds must be a positive integer (got ${leaseSeconds})`);
  if (!Array.isArray(options.kinds) || options.kinds.length === 0) throw new TypeError('createWorker: kinds must name at least one kind');
  const { client } = options;
  const workerId = options.workerId ?? `worker-${globalThis.crypto.randomUUID()}`;
  const pollMinMs = options.poll?.minMs ?? DEFAULTS.pollMinMs;
  const pollMaxMs = options.poll?.maxMs ?? DEFAULTS.pollMaxMs;
  // At most a third of the lease: two heartbeats may be lost before the lease runs out.
  const heartbeatMs = (leaseSeconds * 1000) / 3;

  const listeners = new Map<keyof WorkerEvents, Set<(event: never) => void>>();
  function emit<E extends keyof WorkerEvents>(event: E, payload: WorkerEvents[E]): void {
    try {
      options.on?.[event]?.(payload);
    } catch {
      // A listener's failure must not stop the loop.
    }
    for (const listener of (listeners.get(event) ?? []) as Set<(event: WorkerEvents[E]) => void>) {
      try {
        listener(payload);
      } catch {
        // As above.
      }
    }
  }

  /** Items in hand: their controllers, so that close() can give up on them. */
  const inHand = new Map<string, { item: WorkItem; controller: AbortController; done: Promise<void>; settled: { lost: boolean } }>();
  let closing = false;
  let wakeUp: (() => void) | null = null;
  /** A wake-up that came while the loop was not napping (claiming, say): the next nap returns at once. */
  let woken = false;
  const wake = () => {
    const resolve = wakeUp;
    wakeUp = null;
    if (resolve) resolve();
    else woken = true;
  };
  /** Resolves after `ms`, or sooner on wake() (or at once if one came since the last nap). */
  const nap = (ms: number) =>
    new Promise<void>((resolve) => {
      if (woken || closing) {
        woken = false;
        resolve();
        return;
      }
      const timer = setTimeout(() => {
        wakeUp = null;
        resolve();
      }, ms);
      wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  async function handle(item: WorkItem): Promise<void> {
    const controller = new AbortController();
    const settled = { lost: false };
    const token = item.version;
    const loseLease = (reason: string) => {
      if (settled.lost) return;
      settled.lost = true;
      controller.abort(new Error(`lease lost: ${reason}`));
      emit('leaseLost', { item, reason });
    };
    const beat = setInterval(() => {
      void (async () => {
        try {
          const answer = await client.heartbeatWorkItem({ id: item.id, workerId, version: token });
          if (answer.__typename !== 'HeartbeatSuccess') loseLease(answer.__typename === 'ConflictLost' ? answer.detail : answer.__typename);
        } catch (error) {
          // Not an answer: the lease may well be alive; the next beat tries again.
          emit('error', { error });
        }
      })();
    }, heartbeatMs);
    const done = (async () => {
      let outcome: { ok: true; result: unknown } | { ok: false; error: unknown };
      try {
        outcome = { ok: true, result: await options.handler({ item, attempt: item.attempts, fencingToken: token, signal: controller.signal }) };
      } catch (error) {
        outcome = { ok: false, error };
      } finally {
        clearInterval(beat);
      }
      // Never complete after the lease was lost (or given up at close).
      if (settled.lost) return;
      const result = outcome.ok ? (outcome.result ?? null) : { error: errorMessage(outcome.error) };
      try {
        const answer = await client.completeWorkItem({ id: item.id, workerId, version: token, outcome: outcome.ok ? 'DONE' : 'FAILED', result });
        if (answer.__typename === 'CompleteSuccess' || answer.__typename === 'DuplicateReplayed') {
          if (outcome.ok) emit('completed', { item, result });
          else emit('failed', { item, error: outcome.error });
        } else loseLease(answer.__typename === 'ConflictLost' ? answer.detail : answer.__typename);
      } catch (error) {
        // The completion's fate is unknown: its lease expires and another worker retries it.
        emit('error', { error });
      }
    })();
    inHand.set(item.id, { item, controller, done, settled });
    try {
      await done;
    } finally {
      inHand.delete(item.id);
      wake();
    }
  }

  async function claimLoop(): Promise<void> {
    let idleMs = pollMinMs;
    while (!closing) {
      const free = concurrency - inHand.size;
      if (free <= 0) {
        await nap(pollMaxMs);
        continue;
      }
      let claimed = 0;
      let raced = false;
      try {
        const answer = await client.claimWorkItems({ kinds: options.kinds, workerId, max: Math.min(free, CLAIM_BATCH_MAX), leaseSeconds });
        if (answer.__typename === 'ClaimWorkItemsSuccess') {
          raced = answer.conflicts > 0;
          for (const item of answer.items) {
            if (closing) break;
            claimed++;
            emit('claimed', { item });
            void handle(item);
          }
        }
      } catch (error) {
        emit('error', { error });
      }
      if (claimed > 0 || raced) {
        idleMs = pollMinMs;
        continue;
      }
      await nap(idleMs);
      idleMs = Math.min(pollMaxMs, idleMs * 2);
    }
  }

  /** Wakes the loop when an item of its kinds becomes PENDING (created, retried or requeued). */
  let events: AsyncGenerator<unknown, void, undefined> | null = null;
  async function listen(): Promise<void> {
    if (options.subscribe === false) return;
    try {
      events = client.subscribe.workItemStatusChanged({ kinds: options.kinds }) as AsyncGenerator<unknown, void, undefined>;
      for await (const event of events) {
        if (closing) break;
        const status = (event as { status?: unknown }).status;
        if (status === 'PENDING' || (event as { __typename?: unknown }).__typename === 'ResyncRequired') wake();
      }
    } catch (error) {
      // Polling goes on without the subscription.
      if (!closing) emit('error', { error });
    }
  }

  const loop = claimLoop();
  void listen();

  let closed: Promise<void> | null = null;
  return {
    workerId,
    get running() {
      return inHand.size;
    },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener);
      return () => {
        set.delete(listener);
      };
    },
    close(closeOptions = {}) {
      return (closed ??= (async () => {
        closing = true;
        wake();
        // Not awaited: an async generator ends only once its pending step settles, i.e. at the
        // subscription's next event; the listener ignores that event (closing) and the
        // subscription ends with it, or with the client's close().
        void events?.return(undefined).catch(() => undefined);
        await loop;
        const timeoutMs = closeOptions.timeoutMs ?? DEFAULTS.closeTimeoutMs;
        let timer: ReturnType<typeof setTimeout> | undefined;
        const deadline = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
        const finished = await Promise.race([Promise.all([...inHand.values()].map((h) => h.done)).then(() => 'done' as const), deadline]);
        clearTimeout(timer);
        if (finished === 'timeout') {
          // Given up: abort the handlers, never complete them as done, and release each item as a
          // failed attempt so that another worker takes it after the server's backoff rather than
          // after the whole lease.
          await Promise.all(
            [...inHand.values()].map(async (held) => {
              held.settled.lost = true;
              held.controller.abort(new Error('worker closed before the handler finished'));
              await client
                .completeWorkItem({ id: held.item.id, workerId, version: held.item.version, outcome: 'FAILED', result: { error: 'released: the worker closed before its handler finished' } })
                .catch((error: unknown) => emit('error', { error }));
            }),
          );
        }
      })());
    },
  };
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
