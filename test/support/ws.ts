// graphql-ws helpers for tests: a client whose subscriptions can be read one event at a time,
// and a raw connection attempt that reports how the server answered connection_init.
import { createClient, type Client, type FormattedExecutionResult } from 'graphql-ws';
import WebSocket from 'ws';

const EVENT_WAIT_MS = 5_000;
/** Events buffered per subscription before the test reads them; more is a test bug. */
const BUFFERED_EVENTS_MAX = 10_000;

export interface TestSubscription<TData = any> {
  /** The next result (data or errors), or throws after `timeoutMs`. */
  next(timeoutMs?: number): Promise<FormattedExecutionResult<TData, unknown>>;
  /** Resolves when the server completes the subscription or it fails; with its error, if any. */
  readonly ended: Promise<unknown>;
  unsubscribe(): void;
}

export interface TestWsClient {
  client: Client;
  subscribe<TData = any>(query: string, variables?: Record<string, unknown>): TestSubscription<TData>;
  /** A query or mutation over the socket: its single result. */
  execute<TData = any>(
    query: string,
    variables?: Record<string, unknown>,
  ): Promise<FormattedExecutionResult<TData, unknown>>;
  close(): Promise<void>;
}

export function createTestWsClient(wsUrl: string, connectionParams: Record<string, unknown>): TestWsClient {
  const client = createClient({ url: wsUrl, webSocketImpl: WebSocket, connectionParams, retryAttempts: 0, lazy: true });
  const subscribe = <TData>(query: string, variables: Record<string, unknown> = {}): TestSubscription<TData> => {
    const buffered: Array<FormattedExecutionResult<TData, unknown>> = [];
    const waiters: Array<(result: FormattedExecutionResult<TData, unknown>) => void> = [];
    let endedWith: { error: unknown } | undefined;
    let resolveEnded!: (error: unknown) => void;
    const ended = new Promise<unknown>((resolve) => (resolveEnded = resolve));
    const finish = (error: unknown) => {
      endedWith = { error };
      resolveEnded(error);
    };
    const unsubscribe = client.subscribe<TData>(
      { query, variables },
      {
        next: (result) => {
          const waiter = waiters.shift();
          if (waiter) return waiter(result);
          if (buffered.length >= BUFFERED_EVENTS_MAX) throw new Error('test subscription buffer is full');
          buffered.push(result);
        },
        error: (error) => finish(error),
        complete: () => finish(undefined),
      },
    );
    return {
      ended,
      unsubscribe,
      next(timeoutMs = EVENT_WAIT_MS) {
        const ready = buffered.shift();
        if (ready) return Promise.resolve(ready);
        return new Promise((resolve, reject) => {
          const timer = setTimeout(
            () =>
              reject(
                new Error(`no subscription event within ${timeoutMs}ms${endedWith ? ' (subscription ended)' : ''}`),
              ),
            timeoutMs,
          );
          waiters.push((result) => {
            clearTimeout(timer);
            resolve(result);
          });
        });
      },
    };
  };
  return {
    client,
    subscribe,
    async execute(query, variables = {}) {
      const iterator = client.iterate({ query, variables });
      const first = await iterator.next();
      await iterator.return?.();
      return first.value;
    },
    async close() {
      await client.dispose();
    },
  };
}

export type ConnectionOutcome = { kind: 'acknowledged' } | { kind: 'closed'; code: number; reason: string };

/** Opens a raw graphql-transport-ws socket, sends connection_init, and reports the answer. */
export function tryWsConnection(
  wsUrl: string,
  payload: Record<string, unknown> | undefined,
): Promise<ConnectionOutcome> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(wsUrl, 'graphql-transport-ws');
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', ...(payload ? { payload } : {}) })));
    socket.on('message', (data) => {
      if (JSON.parse(String(data)).type === 'connection_ack') {
        socket.close(1000);
        resolve({ kind: 'acknowledged' });
      }
    });
    socket.on('close', (code, reason) => resolve({ kind: 'closed', code, reason: String(reason) }));
    socket.on('error', reject);
  });
}
