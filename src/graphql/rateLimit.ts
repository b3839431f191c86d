// A rate limit per API key: one token bucket per key, sized by the key's role. Each operation
// (each one of a batch, each one over graphql-ws) takes a token before it executes (a field that
// carries many items, submitMoves' moves, takes one per item: `operationTokens`); an empty
// bucket answers the GraphQL error RATE_LIMITED with `retryAfterSeconds` in its extensions (and
// HTTP 429 with Retry-After). Buckets are per configured key, so their number is bounded by
// API_KEYS. Per process: N API processes admit up to N times the rate.
import type { ApolloServerPlugin, GraphQLRequestListener } from '@apollo/server';
import { type DocumentNode, getArgumentValues, GraphQLError, type GraphQLSchema, Kind, type OperationDefinitionNode, parse } from 'graphql';
import type { Role } from './auth/roles.ts';
import type { AppContext } from './context.ts';
import { ErrorCode } from './errors.ts';
import type { GraphqlTelemetry } from './telemetry.ts';
import type { BucketSize, RateLimits } from './rateLimitSizes.ts';

export type { BucketSize, RateLimits } from './rateLimitSizes.ts';

interface Bucket {
  tokens: number;
  refilledAtMs: number;
}

export class RateLimiter {
  readonly #buckets = new Map<string, Bucket>();

  constructor(
    private readonly limits: RateLimits,
    private readonly telemetry: Pick<GraphqlTelemetry, 'rateLimitedTotal'>,
    private readonly nowMs: () => number = () => performance.now(),
  ) {}

  /**
   * Takes `tokens` from the key's bucket: null when allowed, else the seconds until they are due.
   * An operation worth more than the whole bucket (a batch of moves past the burst) waits for a
   * full bucket and leaves it in debt, so the sustained rate still counts every token.
   */
  take(keyId: string, role: Role, tokens = 1): number | null {
    const { perSecond, burst } = this.limits[role];
    const now = this.nowMs();
    const bucket = this.#buckets.get(keyId) ?? { tokens: burst, refilledAtMs: now };
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.refilledAtMs) / 1000) * perSecond);
    bucket.refilledAtMs = now;
    this.#buckets.set(keyId, bucket);
    const needed = Math.min(tokens, burst);
    if (bucket.tokens >= needed) {
      bucket.tokens -= tokens;
      return null;
    }
    this.telemetry.rateLimitedTotal.inc({ role });
    return Math.max(1, Math.ceil((needed - bucket.tokens) / perSecond));
  }

  /** The refusal for an operation of this principal worth `tokens`, or null when it may run. */
  check(principal: { keyId: string; role: Role } | null, tokens = 1): GraphQLError | null {
    if (principal === null) return null; // unauthenticated: refused by the auth checker instead
    const retryAfterSeconds = this.take(principal.keyId, principal.role, tokens);
    if (retryAfterSeconds === null) return null;
    return new GraphQLError(`Rate limit of the ${principal.role} role exceeded; retry after ${retryAfterSeconds} s.`, {
      extensions: {
        code: ErrorCode.RATE_LIMITED,
        retryAfterSeconds,
        http: { status: 429, headers: new Map([['retry-after', String(retryAfterSeconds)]]) },
      },
    });
  }
}

/**
 * The extension a root field sets to be counted by the length of one of its list arguments
 * instead of once per operation: `@Extensions({ [rateLimitTokensFrom]: 'input.moves' })` (a path
 * into the field's arguments). submitMoves counts its moves, so a batch costs what its moves
 * would cost one by one.
 */
export const rateLimitTokensFrom = 'rateLimitTokensFrom';

/**
 * What an operation costs in tokens: one, or, when root fields count a list argument
 * (`rateLimitTokensFrom`), the sum of those lists' lengths (at least one). Invalid arguments count
 * one: validation refuses them before anything runs.
 */
export function operationTokens(schema: GraphQLSchema, operation: OperationDefinitionNode, variables: Record<string, unknown> | undefined): number {
  const root = schema.getRootType(operation.operation);
  if (!root) return 1;
  let tokens = 0;
  for (const selection of operation.selectionSet.selections) {
    if (selection.kind !== Kind.FIELD) continue;
    const field = root.getFields()[selection.name.value];
    const path = field?.extensions[rateLimitTokensFrom];
    if (!field || typeof path !== 'string') continue;
    try {
      let value: unknown = getArgumentValues(field, selection, variables ?? {});
      for (const step of path.split('.')) value = (value as Record<string, unknown> | null | undefined)?.[step];
      if (Array.isArray(value)) tokens += value.length;
    } catch {
      // Arguments that do not coerce: the operation fails validation or execution on its own.
    }
  }
  return Math.max(1, tokens);
}

/**
 * `operationTokens` of a document's text, for the WebSocket transport, which limits before it
 * parses. A document that does not parse counts one (graphql-ws then refuses it).
 */
export function documentTokens(schema: GraphQLSchema, query: string, operationName: string | null | undefined, variables: Record<string, unknown> | null | undefined): number {
  let document: DocumentNode;
  try {
    document = parse(query);
  } catch {
    return 1;
  }
  const operations = document.definitions.filter((definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION);
  const operation = operationName ? operations.find((candidate) => candidate.name?.value === operationName) : operations[0];
  return operation ? operationTokens(schema, operation, variables ?? undefined) : 1;
}

/** Takes the operation's tokens once it is known (so invalid documents cost nothing) and before it executes. */
export function rateLimitPlugin(limiter: RateLimiter): ApolloServerPlugin<AppContext> {
  // Stateless, so one listener serves every request.
  const listener: GraphQLRequestListener<AppContext> = {
    async didResolveOperation({ contextValue, schema, operation, request }) {
      const refusal = limiter.check(contextValue.principal, operation ? operationTokens(schema, operation, request.variables) : 1);
      if (refusal) throw refusal;
    },
  };
  return {
    async requestDidStart() {
      return listener;
    },
  };
}
