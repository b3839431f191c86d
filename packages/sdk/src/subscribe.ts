// Subscriptions over graphql-ws, as async generators that survive a dropped socket: each event's
// `cursor` is remembered as it is yielded, and a reconnection resubscribes with `after` set to
// the last one, so the server replays exactly what this consumer has not seen. graphql-ws's own
// reconnection is off: it would resubscribe with the first arguments and repeat events.
import { createClient as createWsClient, type Client as WsClient } from 'graphql-ws/client';
import { PreconditionError, SdkErrorCode, type GraphQLErrorPayload } from './PreconditionError.js';
import { backoffMs, sleep, type RetryPolicy } from './retry.js';
import type { OperationEntry } from './types.js';

export interface KeepAliveOptions {
  /** A ping is sent this long after the socket opened and after each pong. Default 10 000. */
  intervalMs?: number;
  /** A ping unanswered this long means a dead socket: it is dropped and every subscription resumes. Default 5 000. */
  pongTimeoutMs?: number;
}

export interface WebSocketOptions {
  /** Default: `url` with http(s) replaced by ws(s). */
  wsUrl?: string;
  /** A WebSocket class, e.g. `ws`'s default export. Default: the global WebSocket (Node 22+). */
  webSocketImpl?: unknown;
  /**
   * Pings on the subscription socket, so that a socket that hangs without closing (a frozen
   * server, a proxy that stopped forwarding) is noticed and the subscriptions resume on a new one.
   * `false` turns them off.
   */
  keepAlive?: KeepAliveOptions | false;
  /**
   * Told when the subscription socket is acknowledged and when it closes, so that a page can say
   * "live" or "reconnecting" (the subscriptions resume by themselves either way).
   */
  onConnection?: (event: ConnectionEvent) => void;
}

/** The subscription socket's state: acknowledged, or closed with its close code (null when none). */
export type ConnectionEvent = { state: 'connected' } | { state: 'closed'; code: number | null };

export const DEFAULT_KEEP_ALIVE: Required<KeepAliveOptions> = { intervalMs: 10_000, pongTimeoutMs: 5_000 };

interface Subscriptions {
  subscribe(
    field: string,
    entry: OperationEntry,
    variables: Record<string, unknown>,
  ): AsyncGenerator<unknown, void, undefined>;
  close(): Promise<void>;
}

/**
 * Close codes after which reconnecting can help although they are in graphql-ws's 44xx range:
 * 4408 and 4418 (the connection_init or its acknowledgement took too long: a slow or frozen
 * server) and 4499 (terminated, which is what the keep-alive does to a dead socket).
 */
const TRANSIENT_CLOSE_CODES = new Set([4408, 4418, 4499]);

/** Close codes after which reconnecting cannot help (graphql-ws: 4400 bad request, 4401, 4403, ...). */
/** A socket closed by the server with a 44xx code that a retry will not change. */
interface Refusal {
  code: number;
  reason?: string;
}

function isRefusal(error: unknown): error is Refusal {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'number' && code >= 4400 && code < 4500 && !TRANSIENT_CLOSE_CODES.has(code);
}

/** A WebSocket URL from the options, or a TypeError saying what is wrong with it. */
export function webSocketUrl(options: { url: string; wsUrl?: string }): string {
  const url = options.wsUrl ?? options.url.replace(/^http/, 'ws');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (cause) {
    throw new TypeError(`createClient: options.wsUrl must be a ws:// or wss:// URL (got ${JSON.stringify(url)})`, {
      cause,
    });
  }
  if (parsed.protocol !== 'ws:' && parsed.protocol !== 'wss:') {
    throw new TypeError(`createClient: options.wsUrl must be a ws:// or wss:// URL (got ${JSON.stringify(url)})`);
  }
  return url;
}

function keepAliveOf(options: WebSocketOptions): Required<KeepAliveOptions> | null {
  if (options.keepAlive === false) return null;
  const keepAlive = { ...DEFAULT_KEEP_ALIVE, ...options.keepAlive };
  for (const [name, value] of Object.entries(keepAlive)) {
    if (!(Number.isFinite(value) && value > 0))
      throw new RangeError(
        `createClient: options.keepAlive.${name} must be a positive number of milliseconds (got ${String(value)})`,
      );
  }
  return keepAlive;
}

const REFUSAL_CODES: Record<number, string> = { 4401: 'UNAUTHENTICATED', 4403: 'FORBIDDEN' };

/**
 * When every error of a subscription's answer is UNAVAILABLE (over graphql-ws as a `next` with
 * errors or an `error` message): the least wait before resubscribing, in ms. Else null.
 */
function unavailableRetryAfterMs(error: unknown): number | null {
  const errors: readonly GraphQLErrorPayload[] | null =
    error instanceof PreconditionError ? error.errors : Array.isArray(error) ? (error as GraphQLErrorPayload[]) : null;
  if (!errors || errors.length === 0 || !errors.every((e) => e.extensions?.code === 'UNAVAILABLE')) return null;
  const seconds = Math.max(...errors.map((e) => Number(e.extensions?.['retryAfterSeconds'] ?? 0)));
  return Number.isFinite(seconds) ? seconds * 1000 : 0;
}

/** The WebSocket class to open sockets with: the one passed in, else the runtime's global one. */
function webSocketImplOf(options: WebSocketOptions, field: string): unknown {
  const impl = options.webSocketImpl ?? (globalThis as { WebSocket?: unknown }).WebSocket;
  if (typeof impl !== 'function') {
    throw new TypeError(
      `subscribe.${field}: no WebSocket implementation: this runtime has no global WebSocket (Node 20 has none); ` +
        "pass createClient({ webSocketImpl }), e.g. `import WebSocket from 'ws'`",
    );
  }
  return impl;
}

/**
 * `impl`, with an error listener on every socket it makes. graphql-ws detaches its own listener
 * from a socket it gives up, and `ws` reports a socket closed before it opened (the keep-alive
 * dropping a silent handshake) with an error event a tick later: with no listener, EventEmitter
 * would throw it out of the event loop. The subscription learns of the drop from the close.
 */
function withErrorListener(impl: unknown): unknown {
  const Base = impl as new (...args: unknown[]) => { addEventListener(type: 'error', listener: () => void): void };
  return class extends Base {
    constructor(...args: unknown[]) {
      super(...args);
      this.addEventListener('error', () => undefined);
    }
  };
}

/** The error a subscription refused by the server ends with; the server's close reason says why. */
function refusalError(error: Refusal, field: string): PreconditionError {
  // "Forbidden: role dashboard may open no subscription (allowed: ...)"
  const code = REFUSAL_CODES[error.code] ?? SdkErrorCode.SUBSCRIPTION_REFUSED;
  const reason = error.reason
    ? String(error.reason).replace(/^(Forbidden|Unauthorized): /, '')
    : `socket closed with ${error.code}`;
  return new PreconditionError([{ message: `${reason} (subscription ${field})`, extensions: { code } }], {
    code,
    status: error.code,
    cause: error,
  });
}

/**
 * How long to wait at least before resuming after `error` (0 for a dropped socket); throws what
 * the subscription ends with when it is not to be resumed: the server's GraphQL errors, a refusal.
 */
function resumableAfterMs(error: unknown, field: string): number {
  // The database was between primaries (R5): resume from the cursor like after a dropped
  // socket, no sooner than the server asked (extensions.retryAfterSeconds).
  const unavailableAfterMs = unavailableRetryAfterMs(error);
  if (unavailableAfterMs !== null) return unavailableAfterMs;
  if (error instanceof PreconditionError) throw error;
  if (Array.isArray(error)) throw new PreconditionError(error as GraphQLErrorPayload[]);
  if (isRefusal(error)) throw refusalError(error, field);
  return 0;
}

/** A subscription's variables, and the events it yields. */
type Variables = Record<string, unknown>;
type Events = AsyncGenerator<unknown, void, undefined>;

/**
 * The keep-alive's watch on the socket in use: it is dead, and `drop` is called, unless it opens
 * within a ping and its pong (a peer or proxy that took the connection and went silent cannot be
 * pinged, and would be waited for forever) and, once open, unless each ping is answered within
 * pongTimeoutMs. One timer: a client is dropped before the next one connects.
 */
function deadSocketWatch(keepAlive: Required<KeepAliveOptions> | null) {
  let deadline: ReturnType<typeof setTimeout> | undefined;
  const stop = () => {
    clearTimeout(deadline);
    deadline = undefined;
  };
  const dropUnlessHeardWithin = (ms: number, drop: () => void) => {
    stop();
    deadline = setTimeout(() => {
      deadline = undefined;
      drop();
    }, ms);
  };
  return {
    connecting: (drop: () => void) =>
      keepAlive && dropUnlessHeardWithin(keepAlive.intervalMs + keepAlive.pongTimeoutMs, drop),
    pinged: (drop: () => void) => keepAlive && dropUnlessHeardWithin(keepAlive.pongTimeoutMs, drop),
    stop,
  };
}

/** Where and as whom subscriptions connect. */
type SubscriptionsOptions = { url: string; apiKey: string } & WebSocketOptions;

export function createSubscriptions(options: SubscriptionsOptions, policy: RetryPolicy): Subscriptions {
  const url = webSocketUrl(options);
  const keepAlive = keepAliveOf(options);
  let ws: WsClient | undefined;
  const watch = deadSocketWatch(keepAlive);
  // Counts connection acknowledgements, so that a drop after a good connection starts a new streak of failures.
  let connections = 0;
  // Operation ids count up per client, as the console's do, instead of graphql-ws's random UUIDs:
  // the server writes one frame per event for every subscriber with the same selection and the
  // same id (src/server/wsServer.ts), so clients that subscribe alike share it. Never reused
  // within a client, so never two alike on one connection (graphql-ws closes it with 4409).
  let operations = 0;

  function socket(field: string): WsClient {
    if (ws) return ws;
    // terminate() closes at once with 4499, without waiting for a close handshake that a dead
    // peer would never answer; every subscription on the socket then resumes.
    const drop = () => {
      if (ws === client) ws = undefined;
      client.terminate();
    };
    const client: WsClient = createWsClient({
      url,
      webSocketImpl: withErrorListener(webSocketImplOf(options, field)),
      connectionParams: { authorization: `Bearer ${options.apiKey}` },
      retryAttempts: 0,
      lazyCloseTimeout: 0,
      generateID: () => String(++operations),
      ...(keepAlive ? { keepAlive: keepAlive.intervalMs } : {}),
      on: {
        connecting: () => watch.connecting(drop),
        opened: () => watch.stop(),
        connected: () => {
          connections++;
          options.onConnection?.({ state: 'connected' });
        },
        ping: (received) => {
          if (!received) watch.pinged(drop);
        },
        pong: (received) => {
          if (received) watch.stop();
        },
        closed: (event) => {
          watch.stop();
          const code = (event as { code?: unknown } | null)?.code;
          options.onConnection?.({ state: 'closed', code: typeof code === 'number' ? code : null });
          // A closed client is not reused: the next subscription opens a fresh one.
          if (ws === client) ws = undefined;
        },
      },
    });
    ws = client;
    return client;
  }

  function subscribe(field: string, entry: OperationEntry, variables: Variables): Events {
    // Checked now, so a missing WebSocket throws from the call, not from the first next().
    webSocketImplOf(options, field);
    return events(field, entry, variables);
  }

  async function* events(field: string, entry: OperationEntry, variables: Variables): Events {
    const query = entry.document.toString();
    const resumeArg = entry.resumeArg;
    let after = resumeArg ? variables[resumeArg] : undefined;
    let failures = 0;
    let streakStartedMs = 0;
    for (;;) {
      const connectionsBefore = connections;
      let resyncLast = false;
      try {
        const results = socket(field).iterate({
          query,
          variables: resumeArg && after != null ? { ...variables, [resumeArg]: after } : variables,
        });
        for await (const result of results) {
          if (result.errors?.length) throw new PreconditionError(result.errors as GraphQLErrorPayload[]);
          const event = (result.data as Record<string, unknown> | null | undefined)?.[field];
          if (event == null) continue;
          const cursor = (event as { cursor?: unknown }).cursor;
          if (typeof cursor === 'string') after = cursor;
          resyncLast = (event as { __typename?: unknown }).__typename === 'ResyncRequired';
          failures = 0;
          yield event;
        }
        // The server ended it. After ResyncRequired it may have done so to make the consumer
        // re-read state; the consumer asked for more by pulling again, so go on from its cursor.
        if (resumeArg && resyncLast) continue;
        return;
      } catch (error) {
        const resumeAfterMs = resumableAfterMs(error, field);
        if (connections !== connectionsBefore) failures = 0;
        if (failures === 0) streakStartedMs = Date.now();
        failures++;
        const waitMs = backoffMs(policy, failures, resumeAfterMs);
        if (failures >= policy.maxAttempts || Date.now() + waitMs - streakStartedMs > policy.maxElapsedMs) {
          throw new PreconditionError([], { code: SdkErrorCode.NETWORK_ERROR, attempts: failures, cause: error });
        }
        await sleep(waitMs);
      }
    }
  }

  return {
    subscribe,
    async close() {
      watch.stop();
      const closing = ws;
      ws = undefined;
      await closing?.dispose();
    },
  };
}
