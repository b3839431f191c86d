// Fan-out that scales with subscribers: a feed hands the same item object to every subscriber
// (src/fanout/ChangeFeed.ts), so the selection of one subscription (document + variables + role:
// the only inputs of its per-event execution) is executed once per item and the result shared by
// every subscriber with the same selection; its JSON is built once too (SharedPayload). Each
// subscriber keeps its own source iterator, so the per-subscriber bounded queue, catch-up and
// resync semantics (SLOW_SUBSCRIBER, …) are the feed's, unchanged. Nothing here is specific to a
// subscription: every subscription whose source shares its items benefits. A subscription is a
// MultiplexedStream, which wsServer.ts drives itself to write frames without graphql-ws's
// per-event path; to any other consumer it is a plain async iterator of results.
import {
  createSourceEventStream,
  execute,
  print,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
} from 'graphql';
import { batchedIncrement } from '../observability/batchedCounter.ts';
import type { GraphqlTelemetry } from './telemetry.ts';

/** A value, or the promise of one (graphql-js's execute answers either). */
export type PromiseOrValue<T> = Promise<T> | T;

/**
 * A `next` payload serialized once and sent as is to every subscriber of a selection, whatever
 * their operation ids (each frame is the subscription's own prefix, then these bytes).
 */
export class SharedPayload {
  #bytes: Buffer | null = null;

  constructor(
    readonly result: ExecutionResult,
    private readonly stats: MultiplexerStats,
  ) {}

  /** The payload's UTF-8 JSON, built on first use and then shared. */
  get bytes(): Buffer {
    if (this.#bytes) return this.#bytes;
    this.stats.serializations++;
    return (this.#bytes = Buffer.from(JSON.stringify(this.result)));
  }
}

export interface MultiplexerStats {
  /** Per-event executions run (one per item and distinct selection). */
  executions: number;
  /** Per-event results served from an execution another subscriber's item already ran. */
  shared: number;
  /** Payloads serialized to JSON (one per item and distinct selection, whatever the subscribers' ids). */
  serializations: number;
}

export interface SubscriptionMultiplexer {
  /** graphql-ws's `subscribe`: the source stream, each item mapped through the shared execution. */
  subscribe(args: ExecutionArgs): Promise<MultiplexedStream | ExecutionResult>;
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
  // Batched: these count every delivery, and prom-client hashes labels on every call.
  const countExecuted = batchedIncrement(telemetry.subscriptionResultsTotal, { outcome: 'executed' });
  const countShared = batchedIncrement(telemetry.subscriptionResultsTotal, { outcome: 'shared' });
  // Keyed by the item object, so results go away with the item once every queue has sent it. A
  // settled execution is stored as its value, so later subscribers of the item need no await.
  const results = new WeakMap<object, Map<string, PromiseOrValue<ExecutionResult>>>();
  const payloads = new WeakMap<ExecutionResult, SharedPayload>();
  const printed = new WeakMap<DocumentNode, string>();
  const stats: MultiplexerStats = { executions: 0, shared: 0, serializations: 0 };

  const selectionKey = (args: ExecutionArgs): string => {
    let text = printed.get(args.document);
    if (text === undefined) printed.set(args.document, (text = print(args.document)));
    return [
      selectionScope(args.contextValue),
      args.operationName ?? '',
      text,
      stableJson(args.variableValues ?? {}),
    ].join('\u0000');
  };

  // A function declaration, not an arrow made per call: tsx names each arrow it creates.
  function run(item: unknown, args: ExecutionArgs): PromiseOrValue<ExecutionResult> {
    stats.executions++;
    countExecuted();
    return execute({ ...args, rootValue: item });
  }

  function executeFor(item: unknown, key: string, args: ExecutionArgs): PromiseOrValue<ExecutionResult> {
    if (typeof item !== 'object' || item === null) return run(item, args);
    let byKey = results.get(item);
    if (!byKey) results.set(item, (byKey = new Map()));
    const known = byKey.get(key);
    if (known) {
      stats.shared++;
      countShared();
      return known;
    }
    const result = run(item, args);
    byKey.set(key, result);
    if (isPromise(result))
      void result.then(
        (value) => byKey.set(key, value),
        () => undefined,
      );
    return result;
  }

  const payloadOf = (result: ExecutionResult): SharedPayload | null => {
    if (result.errors) return null;
    let payload = payloads.get(result);
    if (!payload) payloads.set(result, (payload = new SharedPayload(result, stats)));
    return payload;
  };

  return {
    stats,
    async subscribe(args) {
      const source = await createSourceEventStream(args);
      if (!isAsyncIterable(source)) return source as ExecutionResult;
      const key = selectionKey(args);
      return new MultiplexedStream(
        source as AsyncIterableIterator<unknown>,
        (item) => executeFor(item, key, args),
        payloadOf,
      );
    },
    payloadOf,
  };
}

/**
 * One subscription: its source items, each mapped through the shared execution. Iterated, it is
 * like graphql-js's own mapAsyncIterator: an iterator object, not an async generator, so that
 * `return()` (unsubscribe) reaches the source at once instead of waiting for its next item.
 */
export class MultiplexedStream implements AsyncIterableIterator<ExecutionResult> {
  constructor(
    /** The source stream (the feed's per-subscriber queue). */
    readonly source: AsyncIterableIterator<unknown>,
    /** The shared execution of `item`: a value once settled, so most subscribers need no await. */
    readonly resultOf: (item: unknown) => PromiseOrValue<ExecutionResult>,
    /** The shared payload of a result without errors, else null. */
    readonly payloadOf: (result: ExecutionResult) => SharedPayload | null,
  ) {}

  async next(): Promise<IteratorResult<ExecutionResult>> {
    const step = await this.source.next();
    if (step.done) return step;
    try {
      return { value: await this.resultOf(step.value), done: false };
    } catch (error) {
      await this.source.return?.();
      throw error;
    }
  }

  async return(): Promise<IteratorResult<ExecutionResult>> {
    if (this.source.return) await this.source.return();
    return { value: undefined, done: true };
  }

  async throw(error?: unknown): Promise<IteratorResult<ExecutionResult>> {
    if (!this.source.throw) throw error;
    const step = await this.source.throw(error);
    return step.done ? step : { value: await this.resultOf(step.value), done: false };
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}

export function isPromise<T>(value: PromiseOrValue<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
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
