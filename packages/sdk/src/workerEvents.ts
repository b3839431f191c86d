// What a worker tells its listeners, and the small emitter that tells them: a listener that throws
// is ignored, so no listener can stop the loop.
import type { WorkItemFieldsFragment } from './generated/graphql.js';

export type WorkItem = WorkItemFieldsFragment;

export interface WorkerEvents {
  claimed: { item: WorkItem };
  completed: { item: WorkItem; result: unknown };
  /** The handler threw: the item was completed as FAILED (retried after the server's backoff, or dead-lettered). */
  failed: { item: WorkItem; error: unknown };
  /**
   * A heartbeat or the completion answered ConflictLost (or the item is gone), or a prefetched item's
   * lease may have run out before a slot freed: the handler's signal is aborted (or the handler never
   * starts) and nothing is completed.
   */
  leaseLost: { item: WorkItem; reason: string };
  /** A call to the API failed (network, server); the loop goes on with backoff. */
  error: { error: unknown };
}

export type WorkerListeners = { [E in keyof WorkerEvents]?: (event: WorkerEvents[E]) => void };

export interface WorkerEmitter {
  emit<E extends keyof WorkerEvents>(event: E, payload: WorkerEvents[E]): void;
  on<E extends keyof WorkerEvents>(event: E, listener: (event: WorkerEvents[E]) => void): () => void;
}

export function createWorkerEmitter(fixed: WorkerListeners = {}): WorkerEmitter {
  const listeners = new Map<keyof WorkerEvents, Set<(event: never) => void>>();
  const call = <T>(listener: ((event: T) => void) | undefined, payload: T) => {
    try {
      listener?.(payload);
    } catch {
      // A listener's failure must not stop the loop.
    }
  };
  return {
    emit(event, payload) {
      call(fixed[event], payload);
      for (const listener of (listeners.get(event) ?? []) as Set<(event: typeof payload) => void>)
        call(listener, payload);
    },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener);
      return () => {
        set.delete(listener);
      };
    },
  };
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
