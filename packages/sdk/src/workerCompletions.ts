// Completions in batches (completeWorkItems), sent as group commit sends writes: the first
// completion goes at once, and those that finish while a batch is in flight go together in the
// next, so a lone item waits for nothing and a busy worker pays one request per batch. Each item
// keeps its own fence and key on the server (W3, W4): a stale one is refused alone.
import type { PreconditionClient } from './client.js';
import { errorMessage, type WorkerEmitter } from './workerEvents.js';
import type { HeldItem } from './workerItems.js';

/** The server's most items per completeWorkItems and heartbeatWorkItems (WorkLimits; test/sdk/sharedLimits.test.ts). */
export const COMPLETE_BATCH_MAX = 64;
export const HEARTBEAT_BATCH_MAX = 64;
/**
 * Result bytes one batch carries at most (a lone item is sent whatever its size): half the API's
 * default HTTP body limit (1 MiB), leaving room for the rest of the request.
 */
export const COMPLETE_BATCH_RESULT_BYTES_MAX = 512 * 1024;

export type HandlerOutcome = { ok: true; result: unknown } | { ok: false; error: unknown };

interface Completion {
  held: HeldItem;
  outcome: HandlerOutcome;
  result: unknown;
  bytes: number;
}

export interface CompleterDeps {
  client: PreconditionClient;
  workerId: string;
  emitter: WorkerEmitter;
  loseLease(held: HeldItem, reason: string): void;
  /** The item has left the worker's hand. */
  settle(held: HeldItem): void;
}

export interface Completer {
  add(held: HeldItem, outcome: HandlerOutcome): void;
  /** Completes given-up items as FAILED attempts (at close), so another worker takes them after the backoff, not the lease. */
  release(held: readonly HeldItem[]): Promise<void>;
  /** Completions queued or in flight. */
  readonly pending: number;
}

export function createCompleter(deps: CompleterDeps): Completer {
  const queue: Completion[] = [];
  let inFlight = 0;

  async function flush(): Promise<void> {
    while (queue.length > 0) {
      const batch = takeBatch(queue);
      inFlight += batch.length;
      try {
        await send(deps, batch);
      } finally {
        inFlight -= batch.length;
      }
    }
  }

  let flushing: Promise<void> | null = null;
  return {
    add(held, outcome) {
      const result = outcome.ok ? (outcome.result ?? null) : { error: errorMessage(outcome.error) };
      queue.push({ held, outcome, result, bytes: JSON.stringify(result)?.length ?? 4 });
      flushing ??= flush().finally(() => (flushing = null));
    },
    async release(given) {
      for (let from = 0; from < given.length; from += COMPLETE_BATCH_MAX) {
        const items = given.slice(from, from + COMPLETE_BATCH_MAX).map((held) => ({
          id: held.item.id,
          workerId: deps.workerId,
          version: held.token,
          outcome: 'FAILED' as const,
          result: { error: 'released: the worker closed before its handler finished' },
        }));
        await deps.client.completeWorkItems({ items }).catch((error: unknown) => deps.emitter.emit('error', { error }));
      }
    },
    get pending() {
      return queue.length + inFlight;
    },
  };
}

/** The oldest completions, up to the count and byte bounds (at least one). */
function takeBatch(queue: Completion[]): Completion[] {
  let bytes = 0;
  let count = 0;
  while (count < queue.length && count < COMPLETE_BATCH_MAX) {
    bytes += queue[count]!.bytes;
    if (count > 0 && bytes > COMPLETE_BATCH_RESULT_BYTES_MAX) break;
    count++;
  }
  return queue.splice(0, count);
}

async function send(deps: CompleterDeps, batch: readonly Completion[]): Promise<void> {
  const items = batch.map(({ held, outcome, result }) => ({
    id: held.item.id,
    workerId: deps.workerId,
    version: held.token,
    outcome: outcome.ok ? ('DONE' as const) : ('FAILED' as const),
    result,
  }));
  let results: ReadonlyArray<{ __typename?: string; detail?: string }>;
  try {
    results = (await deps.client.completeWorkItems({ items })).results as typeof results;
  } catch (error) {
    // The completions' fate is unknown: their leases expire and another worker retries them.
    deps.emitter.emit('error', { error });
    for (const { held } of batch) deps.settle(held);
    return;
  }
  batch.forEach(({ held, outcome, result }, i) => {
    const answer = results[i];
    const typename = answer?.__typename;
    if (typename === 'CompleteSuccess' || typename === 'DuplicateReplayed') {
      if (outcome.ok) deps.emitter.emit('completed', { item: held.item, result });
      else deps.emitter.emit('failed', { item: held.item, error: outcome.error });
    } else deps.loseLease(held, typename === 'ConflictLost' ? (answer?.detail ?? typename) : String(typename));
    deps.settle(held);
  });
}
