// Fan-out that scales with subscribers: a feed hands the same item object to every subscriber
// (src/streams/ChangeFeed.ts), so the selection of one subscription (document + variables + role:
// the only inputs of its per-event execution) is executed once per item and the result shared by
// every subscriber with the same selection; its JSON is built once too (SharedPayload). Each
// subscriber keeps its own source iterator, so the per-subscriber bounded queue, catch-up and
// resync semantics (SLOW_SUBSCRIBER, …) are the feed's, unchanged. Nothing here is specific to a
// subscription: every subscription whose source shares its items benefits.
import {
  createSourceEventStream,
  execute,
  print,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
} from 'graphql';
import type { GraphqlTelemetry } from './telemetry.ts';

/** A `next` payload serialized once and sent as is to every subscriber of a selection. */
export class SharedPayload {
  constructor(readonly json: string) {}
}

export interface MultiplexerStats {
  /** Per-event executions run (one per item and distinct selection). */
  executions: number;
  /** Per-event results served from an execution another subscriber's item already ran. */
  shared: number;
}

export interface SubscriptionMultiplexer {
  /** graphql-ws's `subscribe`: the source stream, each item mapped through the shared execution. */
  subscribe(args: ExecutionArgs): Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult>;
  /** The payload to send for `result`: shared JSON when it has no errors, else null (format per subscriber). */
  payloadOf(result: ExecutionResult): SharedPayload | null;
  readonly stats: MultiplexerStats;
}

/**
 * `selectionScope(context)` names what besides the document and variables the execution depends on
 * (the role); each result is counted on `telemetry.subscriptionResultsTotal`.
 */
export function createSubscriptionMultiplexer(
  selectionScope: (context: unknown) => string,
  telemetry: Pick<GraphqlTelemetry, 'subscriptionResultsTotal'>,
): SubscriptionMultiplexer {
  // Label sets bound once: these count every delivery, and prom-client hashes labels per call.
  const executed = telemetry.subscriptionResultsTotal.labels({ outcome: 'executed' });
  const sharedResults = telemetry.subscriptionResultsTotal.labels({ outcome: 'shared' });
  // Keyed by the item object, so results go away with the item once every queue has sent it.
  const results = new WeakMap<object, Map<string, Promise<ExecutionResult>>>();
  const payloads = new WeakMap<ExecutionResult, SharedPayload>();
  const printed = new WeakMap<DocumentNode, string>();
  const stats: MultiplexerStats = { executions: 0, shared: 0 };

  const selectionKey = (args: ExecutionArgs): string => {
    let text = printed.get(args.document);
    if (text === undefined) printed.set(args.document, (text = print(args.document)));
    return [selectionScope(args.contextValue), args.operationName ?? '', text, stableJson(args.variableValues ?? {})].join('\u0000');
  };

  // A function declaration, not an arrow made per call: tsx names each arrow it creates.
  function run(item: unknown, args: ExecutionArgs): Promise<ExecutionResult> {
    stats.executions++;
    executed.inc();
    return Promise.resolve(execute({ ...args, rootValue: item }));
  }

  const executeFor = (item: unknown, key: string, args: ExecutionArgs): Promise<ExecutionResult> => {
    if (typeof item !== 'object' || item === null) return run(item, args);
    let byKey = results.get(item);
    if (!byKey) results.set(item, (byKey = new Map()));
    const known = byKey.get(key);
    if (known) {
      stats.shared++;
      sharedResults.inc();
      return known;
    }
    const result = run(item, args);
    byKey.set(key, result);
    return result;
  };

  return {
    stats,
    async subscribe(args) {
      const source = await createSourceEventStream(args);
      if (!isAsyncIterable(source)) return source as ExecutionResult;
      const key = selectionKey(args);
      return mapAsyncIterator(source as AsyncIterableIterator<unknown>, (item) => executeFor(item, key, args));
    },
    payloadOf(result) {
      if (result.errors) return null;
      let payload = payloads.get(result);
      if (!payload) payloads.set(result, (payload = new SharedPayload(JSON.stringify(result))));
      return payload;
    },
  };
}

/** JSON with object keys sorted, so `{a, b}` and `{b, a}` name the same selection. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    const entries = Object.keys(value as Record<string, unknown>)
      .sort()
      .filter((name) => (value as Record<string, unknown>)[name] !== undefined)
      .map((name) => `${JSON.stringify(name)}:${stableJson((value as Record<string, unknown>)[name])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

// Like graphql-js's own mapAsyncIterator: an iterator object, not an async generator, so that
// `return()` (unsubscribe) reaches the source at once instead of waiting for its next item.
function mapAsyncIterator<T, U>(source: AsyncIterableIterator<T>, map: (value: T) => Promise<U>): AsyncIterableIterator<U> {
  const mapResult = async (result: IteratorResult<T>): Promise<IteratorResult<U>> => {
    if (result.done) return result;
    try {
      return { value: await map(result.value), done: false };
    } catch (error) {
      await source.return?.();
      throw error;
    }
  };
  return {
    next: () => source.next().then(mapResult),
    return: async () => (source.return ? mapResult(await source.return()) : { value: undefined, done: true }),
    throw: async (error?: unknown) => {
      if (source.throw) return mapResult(await source.throw(error));
      throw error;
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
