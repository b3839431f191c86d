// Heartbeats in batches (heartbeatWorkItems): one timer per worker beats every item in its hand
// whose lease was last renewed half a beat or more ago, waiting (prefetched) and running items
// alike, so a prefetched item's lease runs on while it waits for a slot.
import type { PreconditionClient } from './client.js';
import { HEARTBEAT_BATCH_MAX } from './workerCompletions.js';
import type { WorkerEmitter } from './workerEvents.js';
import type { HeldItem } from './workerItems.js';

export interface HeartbeatDeps {
  client: PreconditionClient;
  workerId: string;
  emitter: WorkerEmitter;
  /** Time between two renewals of one lease: a third of it, so two beats may be lost before it runs out. */
  heartbeatMs: number;
  held(): Iterable<HeldItem>;
  loseLease(held: HeldItem, reason: string): void;
}

export interface Heartbeats {
  stop(): void;
}

export function startHeartbeats(deps: HeartbeatDeps): Heartbeats {
  const tickMs = deps.heartbeatMs / 2;
  let beating = false;
  const timer = setInterval(() => {
    // A beat still in flight (a slow API): the next tick tries again rather than piling calls up.
    if (beating) return;
    const now = performance.now();
    const due = [...deps.held()].filter(
      (held) =>
        !held.lost && (held.state === 'waiting' || held.state === 'running') && now - held.renewedAtMs >= tickMs,
    );
    if (due.length === 0) return;
    beating = true;
    void beat(deps, due).finally(() => (beating = false));
  }, tickMs);
  return { stop: () => clearInterval(timer) };
}

async function beat(deps: HeartbeatDeps, due: readonly HeldItem[]): Promise<void> {
  const chunks: HeldItem[][] = [];
  for (let from = 0; from < due.length; from += HEARTBEAT_BATCH_MAX)
    chunks.push(due.slice(from, from + HEARTBEAT_BATCH_MAX));
  await Promise.all(chunks.map((chunk) => beatChunk(deps, chunk)));
}

async function beatChunk(deps: HeartbeatDeps, chunk: readonly HeldItem[]): Promise<void> {
  const sentAtMs = performance.now();
  let results: ReadonlyArray<{ __typename?: string; detail?: string }>;
  try {
    const items = chunk.map((held) => ({ id: held.item.id, workerId: deps.workerId, version: held.token }));
    results = (await deps.client.heartbeatWorkItems({ items })).results as typeof results;
  } catch (error) {
    // Not an answer: the leases may well be alive; the next tick tries again.
    deps.emitter.emit('error', { error });
    return;
  }
  chunk.forEach((held, i) => {
    const typename = results[i]?.__typename;
    if (typename === 'HeartbeatSuccess') held.renewedAtMs = Math.max(held.renewedAtMs, sentAtMs);
    else deps.loseLease(held, typename === 'ConflictLost' ? (results[i]?.detail ?? typename) : String(typename));
  });
}
