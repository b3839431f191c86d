// createClient: one method per root field, wired from the generated operation table, so a new
// operation file becomes a method with no code here. Queries and mutations go over HTTP with
// retries that never change the request's key; subscriptions go over graphql-ws (subscribe.ts).
import { context, propagation } from '@opentelemetry/api';
import { mutations, queries, subscriptions } from './generated/operations.js';
import { PreconditionError, SdkErrorCode, type GraphQLErrorPayload } from './PreconditionError.js';
import { backoffMs, DEFAULT_SUBSCRIPTION_RETRY, retryAfterMs, retryPolicy, sleep, type RetryOptions } from './retry.js';
import { createSubscriptions, type WebSocketOptions } from './subscribe.js';
import type { MutationMethods, OperationEntry, QueryMethods, RequestMeta, SubscriptionMethods } from './types.js';

/** What the SDK needs of fetch; the global fetch and undici's satisfy it. */
export type FetchLike = {
  // Declared as a method so that fetch's wider parameter types are accepted.
  bivariance(
    url: string,
    init: { method: string; headers: Record<string, string>; body: string; signal: AmbientAbortSignal },
  ): Promise<FetchResponseLike>;
}['bivariance'];

// The platform's AbortSignal type when the program has one (DOM or Node typings), so the SDK's
// declarations need neither.
type AmbientAbortSignal = typeof globalThis extends { AbortSignal: { prototype: infer S } } ? S : unknown;

export interface FetchResponseLike {
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}

export interface ClientOptions extends WebSocketOptions {
  /** e.g. http://localhost:4000/graphql */
  url: string;
  apiKey: string;
  /** Default: the global fetch. */
  fetch?: FetchLike;
  /** Queries and mutations: default 5 attempts within 30 s (`DEFAULT_RETRY`). */
  retry?: RetryOptions;
  /**
   * Reconnecting a subscription after its socket dropped: by default forever, with backoff capped
   * at 5 s (`DEFAULT_SUBSCRIPTION_RETRY`), so a listener outlives server restarts. Give
   * `maxAttempts` or `maxElapsedMs` to have the iterator throw NETWORK_ERROR instead.
   */
  subscriptionRetry?: RetryOptions;
  /** Per attempt; an attempt that takes longer counts as a network error. Default 30 000. */
  attemptTimeoutMs?: number;
  /**
   * The W3C `traceparent` to send with each query and mutation, for a caller that keeps its own
   * trace ids. Without it the SDK sends the active OpenTelemetry context's (when the caller runs
   * an OpenTelemetry SDK and a span is active), else none.
   */
  traceparent?: () => string | undefined;
}

export type PreconditionClient = QueryMethods &
  MutationMethods & {
    subscribe: SubscriptionMethods;
    /** Closes the subscription socket, if one is open. */
    close(): Promise<void>;
  };

/** Server codes a retry cannot fix: the request is wrong, or its caller may not make it. */
const NEVER_RETRIED = new Set(['BAD_USER_INPUT', 'FORBIDDEN', 'UNAUTHENTICATED']);
/** The server's "the database cannot answer now; the same request later can" (HTTP 503, Retry-After). */
const UNAVAILABLE = 'UNAVAILABLE';
const INTERNAL_SERVER_ERROR = 'INTERNAL_SERVER_ERROR';
/** Union members that mean "ask again with the same key". */
const ASK_AGAIN = new Set(['OutcomeUnknown', 'RequestInProgress']);

function isAskAgain(value: unknown): boolean {
  const typename = (value as { __typename?: unknown } | null)?.__typename;
  return typeof typename === 'string' && ASK_AGAIN.has(typename);
}

/**
 * A batch (an operation whose items carry their own keys) with an item not decided yet: the same
 * batch is sent again, same keys, and the items decided meanwhile answer from their records.
 */
function someItemAsksAgain(value: unknown): boolean {
  const results = (value as { results?: unknown } | null)?.results;
  return Array.isArray(results) && results.some(isAskAgain);
}
const DEFAULT_ATTEMPT_TIMEOUT_MS = 30_000;

/**
 * `traceparent` (and `tracestate`) of this call: the caller's own, else the active OpenTelemetry
 * context's through the global propagator, a no-op when the caller runs no OpenTelemetry SDK.
 */
function traceHeaders(options: ClientOptions): Record<string, string> {
  const given = options.traceparent?.();
  if (given) return { traceparent: given };
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier;
}

type Attempt =
  | { kind: 'answer'; value: unknown }
  | { kind: 'failed'; error: PreconditionError; retry: 'never' | 'if-replayable' | 'always'; retryAfterMs: number };

function fetchOf(options: ClientOptions): FetchLike {
  const fetchImpl = options.fetch ?? (globalThis as { fetch?: FetchLike }).fetch;
  if (typeof fetchImpl !== 'function')
    throw new TypeError("createClient: this runtime has no global fetch: pass options.fetch (e.g. undici's fetch)");
  return fetchImpl;
}

/**
 * Configuration mistakes are thrown here, at once and naming the option, rather than surfacing
 * later as a network error after every retry.
 */
function checkOptions(options: ClientOptions): void {
  if (options === null || typeof options !== 'object')
    throw new TypeError('createClient: pass an options object { url, apiKey }');
  const { url, apiKey } = options as { url?: unknown; apiKey?: unknown };
  let parsed: URL | undefined;
  try {
    parsed = typeof url === 'string' ? new URL(url) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw new TypeError(
      `createClient: options.url must be an absolute http:// or https:// URL such as http://localhost:4000/graphql (got ${JSON.stringify(url)})`,
    );
  }
  if (typeof apiKey !== 'string' || apiKey.trim() === '') {
    throw new TypeError(
      `createClient: options.apiKey is ${apiKey === '' ? 'empty' : `not a key (got ${typeof apiKey})`}: pass the API key the server was given in API_KEYS (sent as Authorization: Bearer <key>)`,
    );
  }
  if (/\s/.test(apiKey) || apiKey.startsWith('Bearer')) {
    throw new TypeError(
      'createClient: options.apiKey must be the bare token (no spaces, no "Bearer " prefix: the SDK adds it)',
    );
  }
}

/** One POST of an operation, its answer classified: a value, or a failure and whether it may be sent again. */
async function sendAttempt(
  options: ClientOptions,
  fetchImpl: FetchLike,
  timeoutMs: number,
  { document, field, variables }: { document: string; field: string; variables: Record<string, unknown> },
): Promise<Attempt> {
  let status: number;
  let text: string;
  let retryAfter: string | null;
  try {
    const response = await fetchImpl(options.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        authorization: `Bearer ${options.apiKey}`,
        ...traceHeaders(options),
      },
      body: JSON.stringify({ query: document, variables }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    status = response.status;
    retryAfter = response.headers.get('retry-after');
    text = await response.text();
  } catch (cause) {
    return {
      kind: 'failed',
      error: new PreconditionError([], { code: SdkErrorCode.NETWORK_ERROR, cause }),
      retry: 'if-replayable',
      retryAfterMs: 0,
    };
  }
  let body: { data?: Record<string, unknown> | null; errors?: GraphQLErrorPayload[] } | undefined;
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    body = undefined;
  }
  const errors = body?.errors ?? [];
  const error = new PreconditionError(errors, { code: SdkErrorCode.HTTP_ERROR, status });
  const codes = errors.map((e) => e.extensions?.code ?? '');
  if (codes.some((code) => NEVER_RETRIED.has(code))) return { kind: 'failed', error, retry: 'never', retryAfterMs: 0 };
  // Refused before running (rate limit): safe to send again whatever the operation.
  if (status === 429) return { kind: 'failed', error, retry: 'always', retryAfterMs: retryAfterMs(retryAfter) };
  // The database was between primaries (R5): the same request again, same key, once Retry-After
  // has passed. It may have applied: only an operation that replays is sent again.
  if (codes.includes(UNAVAILABLE))
    return { kind: 'failed', error, retry: 'if-replayable', retryAfterMs: retryAfterMs(retryAfter) };
  // A fault of the server's own is a bug: sending it again would only retry the bug.
  if (codes.includes(INTERNAL_SERVER_ERROR)) return { kind: 'failed', error, retry: 'never', retryAfterMs: 0 };
  // Without a GraphQL answer (starting, shutting down, a proxy): it may have applied, so only an
  // operation that replays may be sent again.
  if (status >= 500) return { kind: 'failed', error, retry: 'if-replayable', retryAfterMs: retryAfterMs(retryAfter) };
  if (errors.length > 0 || !body?.data || !(field in body.data))
    return { kind: 'failed', error, retry: 'never', retryAfterMs: 0 };
  return { kind: 'answer', value: body.data[field] };
}

/** An operation's variables from the caller's arguments, with its idempotency keys made once. */
type Variables = { variables: Record<string, unknown>; idempotencyKey: string | null; itemKeys: string[] | null };

function variablesFor(entry: OperationEntry, params: unknown[]): Variables {
  if (entry.args === 'none') return { variables: {}, idempotencyKey: null, itemKeys: null };
  if (entry.args === 'object')
    return {
      variables: { ...(params[0] as Record<string, unknown> | undefined) },
      idempotencyKey: null,
      itemKeys: null,
    };
  let value = params[0];
  let idempotencyKey: string | null = null;
  if (entry.keyField) {
    // Made once, before the first attempt, and sent unchanged on every retry.
    const input = value as Record<string, unknown>;
    const given = input[entry.keyField];
    idempotencyKey = typeof given === 'string' ? given : globalThis.crypto.randomUUID();
    value = { ...input, [entry.keyField]: idempotencyKey };
  }
  let itemKeys: string[] | null = null;
  if (entry.keyList) {
    // Each item's key likewise: made once per item, sent unchanged on every retry of the batch.
    const { field, key } = entry.keyList;
    const input = value as Record<string, unknown>;
    const items = Array.isArray(input[field]) ? (input[field] as Record<string, unknown>[]) : [];
    const keyed = items.map((item) => ({
      ...item,
      [key]: typeof item[key] === 'string' ? item[key] : globalThis.crypto.randomUUID(),
    }));
    itemKeys = keyed.map((item) => item[key] as string);
    value = { ...input, [field]: keyed };
  }
  return { variables: { [entry.argName!]: value }, idempotencyKey, itemKeys };
}

export function createClient(options: ClientOptions): PreconditionClient {
  checkOptions(options);
  const policy = retryPolicy(options.retry);
  const subscriptionPolicy = retryPolicy(options.subscriptionRetry, DEFAULT_SUBSCRIPTION_RETRY, 'subscriptionRetry');
  const fetchImpl = fetchOf(options);
  const timeoutMs = options.attemptTimeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS;

  const attempt = (document: string, field: string, variables: Record<string, unknown>) =>
    sendAttempt(options, fetchImpl, timeoutMs, { document, field, variables });

  async function run(
    field: string,
    entry: OperationEntry,
    variables: Record<string, unknown>,
    idempotencyKey: string | null,
  ) {
    const document = entry.document.toString();
    const startedMs = Date.now();
    for (let attempts = 1; ; attempts++) {
      const outcome = await attempt(document, field, variables);
      const canRetry = (waitMs: number) =>
        attempts < policy.maxAttempts && Date.now() + waitMs - startedMs <= policy.maxElapsedMs;
      if (outcome.kind === 'answer') {
        const askAgain = isAskAgain(outcome.value) || (entry.keyList !== null && someItemAsksAgain(outcome.value));
        const waitMs = backoffMs(policy, attempts);
        if (askAgain && canRetry(waitMs)) {
          await sleep(waitMs);
          continue;
        }
        return { value: outcome.value, meta: { idempotencyKey, attempts } satisfies RequestMeta };
      }
      const retryable = outcome.retry === 'always' || (outcome.retry === 'if-replayable' && entry.replays);
      const waitMs = backoffMs(policy, attempts, outcome.retryAfterMs);
      if (!retryable || !canRetry(waitMs)) {
        const { errors, code, status } = outcome.error;
        throw new PreconditionError(errors, {
          code,
          ...(status === undefined ? {} : { status }),
          idempotencyKey,
          attempts,
          ...(outcome.error.cause === undefined ? {} : { cause: outcome.error.cause }),
        });
      }
      await sleep(waitMs);
    }
  }

  const client: Record<string, unknown> = {};
  for (const [field, entry] of Object.entries(queries) as Array<[string, OperationEntry]>) {
    client[field] = async (...params: unknown[]) =>
      (await run(field, entry, variablesFor(entry, params).variables, null)).value;
  }
  for (const [field, entry] of Object.entries(mutations) as Array<[string, OperationEntry]>) {
    client[field] = async (...params: unknown[]) => {
      const { variables, idempotencyKey, itemKeys } = variablesFor(entry, params);
      const { value, meta } = await run(field, entry, variables, idempotencyKey);
      const withKeys = itemKeys === null ? meta : { ...meta, itemKeys };
      if (value !== null && typeof value === 'object')
        Object.defineProperty(value, '$meta', { value: withKeys, enumerable: false });
      return value;
    };
  }
  const live = createSubscriptions(options, subscriptionPolicy);
  const subscribe: Record<string, unknown> = {};
  for (const [field, entry] of Object.entries(subscriptions) as Array<[string, OperationEntry]>) {
    subscribe[field] = (...params: unknown[]) => live.subscribe(field, entry, variablesFor(entry, params).variables);
  }
  client['subscribe'] = subscribe;
  client['close'] = () => live.close();
  return client as PreconditionClient;
}
