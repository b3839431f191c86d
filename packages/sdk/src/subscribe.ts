// Subscriptions over graphql-ws, as async generators that survive a dropped socket: each event's
// `cursor` is remembered as it is yielded, and a reconnection resubscribes with `after` set to
// the last one, so the server replays exactly what this consumer has not seen. graphql-ws's own
// reconnection is off: it would resubscribe with the first arguments and repeat events.
import { createClient as createWsClient, type Client as WsClient } from 'graphql-ws/client';
import { PreconditionError, SdkErrorCode, type GraphQLErrorPayload } from './PreconditionError.js';
import { backoffMs, sleep, type RetryPolicy } from './retry.js';
import type { OperationEntry } from './types.js';

export interface WebSocketOptions {
  /** Default: `url` with http(s) replaced by ws(s). */
  wsUrl?: string;
  /** A WebSocket class, e.g. `ws`'s default export. Default: the global WebSocket (Node 22+). */
  webSocketImpl?: unknown;
}

interface Subscriptions {
  subscribe(field: string, entry: OperationEntry, variables: Record<string, unknown>): AsyncGenerator<unknown, void, undefined>;
  close(): Promise<void>;
}

/** Close codes after which reconnecting cannot help (graphql-ws: 4400 bad request, 4401, 4403, ...). */
function isRefusal(error: unknown): error is { code: number; reason?: string } {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'number' && code >= 4400 && code < 4500;
}

const REFUSAL_CODES: Record<number, string> = { 4401: 'UNAUTHENTICATED', 4403: 'FORBIDDEN' };

export function createSubscriptions(options: { url: string; apiKey: string } & WebSocketOptions, policy: RetryPolicy): Subscriptions {
  let ws: WsClient | undefined;
  // Counts connection acknowledgements, so that a drop after a good connection starts a new streak of failures.
  let connections = 0;
  // Operation ids count up per client, as the console's do, instead of graphql-ws's random UUIDs:
  // the server writes one frame per event for every subscriber with the same selection and the
  // same id (src/server/wsServer.ts), so clients that subscribe alike share it. Never reused
  // within a client, so never two alike on one connection (graphql-ws closes it with 4409).
  let operations = 0;

  function socket(): WsClient {
    if (ws) return ws;
    const webSocketImpl = options.webSocketImpl ?? (globalThis as { WebSocket?: unknown }).WebSocket;
    if (!webSocketImpl) throw new TypeError('no WebSocket: pass options.webSocketImpl (e.g. `import WebSocket from "ws"`)');
    ws = createWsClient({
      url: options.wsUrl ?? options.url.replace(/^http/, 'ws'),
      webSocketImpl,
      connectionParams: { authorization: `Bearer ${options.apiKey}` },
      retryAttempts: 0,
      lazyCloseTimeout: 0,
      generateID: () => String(++operations),
      on: { connected: () => void connections++ },
    });
    return ws;
  }

  async function* subscribe(field: string, entry: OperationEntry, variables: Record<string, unknown>): AsyncGenerator<unknown, void, undefined> {
    const query = entry.document.toString();
    const resumeArg = entry.resumeArg;
    let after = resumeArg ? variables[resumeArg] : undefined;
    let failures = 0;
    let streakStartedMs = 0;
    for (;;) {
      const connectionsBefore = connections;
      let resyncLast = false;
      try {
        const results = socket().iterate({ query, variables: resumeArg && after != null ? { ...variables, [resumeArg]: after } : variables });
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
        if (error instanceof PreconditionError) throw error;
        if (Array.isArray(error)) throw new PreconditionError(error as GraphQLErrorPayload[]);
        if (isRefusal(error)) {
          throw new PreconditionError([], { code: REFUSAL_CODES[error.code] ?? SdkErrorCode.SUBSCRIPTION_REFUSED, status: error.code, cause: error });
        }
        if (connections !== connectionsBefore) failures = 0;
        if (failures === 0) streakStartedMs = Date.now();
        failures++;
        const waitMs = backoffMs(policy, failures);
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
      await ws?.dispose();
      ws = undefined;
    },
  };
}
