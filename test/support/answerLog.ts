// R5's witness: every answer a client of a run gets, each attempt the SDK retried included, is
// read for GraphQL error codes, by operation. The SDK takes a `fetch` and a WebSocket class, so
// both transports are seen as the client sees them, without touching the SDK or the server.
import WebSocket from 'ws';
import type { FetchLike } from '../../packages/sdk/src/index.ts';

export interface AnswerLog {
  /** For createClient({ fetch }): the global fetch, every answer read on the way. */
  fetch: FetchLike;
  /** For createClient({ webSocketImpl }): `ws`, every graphql-ws message read on the way. */
  WebSocket: never;
  /** Error codes by operation name: operation → code → count. */
  codes: Map<string, Map<string, number>>;
  /** Every error answer when it was read (Date.now()), with its operation and code: what a fault's window saw. */
  timeline: Array<{ at: number; operation: string; code: string }>;
  /** INTERNAL_SERVER_ERROR answers by operation, with the first one's message. */
  internalErrors: Map<string, { count: number; first: string }>;
  /** UNAVAILABLE answers over HTTP that lacked the 503 status or the Retry-After header. */
  badUnavailable: string[];
  /** One line: the codes seen, by operation. */
  line(): string;
}

/**
 * R5's verdict over everything a run's clients were answered: a line per operation that got
 * INTERNAL_SERVER_ERROR (with how many and the first message), and one per UNAVAILABLE over HTTP
 * without its 503 and Retry-After. The fault run's checker and the soak report these as violations.
 */
export function r5Violations(log: Pick<AnswerLog, 'internalErrors' | 'badUnavailable'>): string[] {
  return [
    ...[...log.internalErrors].map(
      ([operation, seen]) => `R5: ${seen.count} INTERNAL_SERVER_ERROR answers to ${operation} (first: ${seen.first})`,
    ),
    ...log.badUnavailable.map((line) => `R5: ${line}`),
  ];
}

interface ErrorPayload {
  message?: string;
  extensions?: { code?: string };
}

const OPERATION = /\b(?:query|mutation|subscription)\s+(\w+)/;

export function answerLog(): AnswerLog {
  const codes = new Map<string, Map<string, number>>();
  const internalErrors = new Map<string, { count: number; first: string }>();
  const badUnavailable: string[] = [];
  const timeline: AnswerLog['timeline'] = [];
  const count = (operation: string, errors: readonly ErrorPayload[] | undefined) => {
    for (const error of errors ?? []) {
      const code = error.extensions?.code ?? 'NO_CODE';
      timeline.push({ at: Date.now(), operation, code });
      const byCode = codes.get(operation) ?? new Map<string, number>();
      byCode.set(code, (byCode.get(code) ?? 0) + 1);
      codes.set(operation, byCode);
      if (code === 'INTERNAL_SERVER_ERROR') {
        const seen = internalErrors.get(operation) ?? { count: 0, first: String(error.message) };
        seen.count += 1;
        internalErrors.set(operation, seen);
      }
    }
  };
  const operationOf = (query: unknown) =>
    typeof query === 'string' ? (OPERATION.exec(query)?.[1] ?? 'anonymous') : 'unknown';

  const fetchAndRead: FetchLike = async (url, init) => {
    const response = await fetch(url, init as RequestInit);
    const text = await response.text();
    const operation = operationOf((JSON.parse(init.body) as { query?: unknown }).query);
    let errors: ErrorPayload[] | undefined;
    try {
      errors = (JSON.parse(text) as { errors?: ErrorPayload[] }).errors;
    } catch {
      errors = undefined; // not GraphQL (a proxy's page): the SDK says so itself
    }
    count(operation, errors);
    if (
      errors?.some((e) => e.extensions?.code === 'UNAVAILABLE') &&
      (response.status !== 503 || !response.headers.get('retry-after'))
    ) {
      badUnavailable.push(
        `${operation}: UNAVAILABLE with status ${response.status}, retry-after ${response.headers.get('retry-after')}`,
      );
    }
    return { status: response.status, headers: response.headers, text: async () => text };
  };

  class ReadingWebSocket extends WebSocket {
    readonly #operations = new Map<string, string>();
    constructor(...args: ConstructorParameters<typeof WebSocket>) {
      super(...args);
      this.on('message', (data) => {
        let message: { id?: string; type?: string; payload?: unknown };
        try {
          message = JSON.parse(String(data)) as typeof message;
        } catch {
          return;
        }
        const operation = this.#operations.get(message.id ?? '') ?? 'unknown';
        if (message.type === 'next')
          count(operation, (message.payload as { errors?: ErrorPayload[] } | undefined)?.errors);
        else if (message.type === 'error') count(operation, message.payload as ErrorPayload[]);
      });
    }
    override send(data: unknown, ...rest: unknown[]): void {
      try {
        const message = JSON.parse(String(data)) as { id?: string; type?: string; payload?: { query?: unknown } };
        if (message.type === 'subscribe' && message.id)
          this.#operations.set(message.id, operationOf(message.payload?.query));
      } catch {
        // not JSON: not graphql-ws's, nothing to read
      }
      (super.send as (...a: unknown[]) => void)(data, ...rest);
    }
  }

  return {
    fetch: fetchAndRead,
    WebSocket: ReadingWebSocket as never,
    codes,
    timeline,
    internalErrors,
    badUnavailable,
    line() {
      const parts = [...codes].map(
        ([operation, byCode]) => `${operation} ${[...byCode].map(([code, n]) => `${code} ${n}`).join(', ')}`,
      );
      return `error answers by operation (every attempt): ${parts.length === 0 ? 'none' : parts.join('; ')}`;
    },
  };
}
