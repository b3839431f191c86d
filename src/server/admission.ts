// The one admission screen of GraphQL operations. HTTP (http.ts, through Apollo) and graphql-ws
// (websocket.ts) both call it, so an operation meets the same checks, in the same order, and the
// same production rules whichever way it arrives:
//
//   1. authenticate     once per HTTP request; once per socket, at connection_init
//   2. trusted documents the query text, before it is parsed (trustedDocuments.ts)
//   3. tokens            the query text, counted while lexing, before it is parsed (queryLimits.ts);
//      variables depth   the variables, before anything walks them (variablesDepth.ts)
//      -- the transport parses --
//   4. validation        graphql-js's rules, then depth, aliases, cost and directives
//                        (queryLimits.ts), and in production no introspection
//   5. rate limit        one token of the key's bucket per operation that passed 1-4 (one per
//                        item of a counted list, e.g. submitMoves' moves), before it executes
//                        (rateLimit.ts): an invalid document costs no token
//
// Production rules, identical on both transports: introspection refused (step 4); no "Did you
// mean …?" in any error (a field, argument, type or enum value suggestion maps the schema for
// whoever probes it); internal errors masked (formatError.ts). HTTP alone also bounds a batch
// (a JSON array of operations), which graphql-ws has no form of.
import type { ApolloServerPlugin, GraphQLRequestListener } from '@apollo/server';
import {
  GraphQLError,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type GraphQLSchema,
  type ValidationRule,
} from 'graphql';
import type { Authentication, Keyring, Principal } from '../access/apiKeys.ts';
import { ErrorCode } from '../graphql/errors.ts';
import { fragmentsOf, operationTokens } from '../graphql/rateLimitTokens.ts';
import type { HttpOperations, HttpRefusal } from './http.ts';
import type { QueryLimitProtection } from './queryLimits.ts';
import type { GraphqlTelemetry } from './telemetry.ts';
import type { TrustedDocuments } from './trustedDocuments.ts';
import { checkVariablesDepth } from './variablesDepth.ts';

export interface AdmissionOptions {
  keyring: Pick<Keyring, 'authenticate'>;
  production: boolean;
  /** Operations one batched HTTP request may carry. */
  batchMax: number;
  queryLimits: Pick<QueryLimitProtection, 'validationRules' | 'checkTokens'>;
  trustedDocuments: Pick<TrustedDocuments, 'check'> | null;
  /** One process's limiter (rateLimit.ts) or the one shared by all processes (sharedRateLimit.ts). */
  rateLimiter: {
    check(principal: Principal | null, tokens?: number): GraphQLError | null | Promise<GraphQLError | null>;
  } | null;
  telemetry: Pick<GraphqlTelemetry, 'queryLimitRefusalsTotal'>;
}

export class Admission {
  /** Step 4 beyond graphql-js's own rules (Apollo adds those itself; graphql-ws gets them from `validate`). */
  readonly validationRules: readonly ValidationRule[];
  readonly production: boolean;
  readonly #options: AdmissionOptions;
  readonly #allRules: readonly ValidationRule[];

  constructor(options: AdmissionOptions) {
    this.#options = options;
    this.production = options.production;
    this.validationRules = [...options.queryLimits.validationRules, ...(options.production ? [NoIntrospection] : [])];
    this.#allRules = [...specifiedRules, ...this.validationRules];
  }

  /** Step 1: the caller's credentials, from an Authorization header or a socket's connection_init `authorization`. */
  authenticate(authorization: unknown): Authentication {
    return this.#options.keyring.authenticate(authorization);
  }

  /** Steps 2 and 3, on one operation's text: the refusal, or null. `query` is not a string when none was sent. */
  screenText(query: unknown, auth: Authentication): GraphQLError | null {
    const untrusted = this.#options.trustedDocuments?.check(query, auth.ok ? auth.principal.role : null) ?? null;
    if (untrusted) return untrusted;
    return typeof query === 'string' ? this.#options.queryLimits.checkTokens(query) : null;
  }

  /**
   * Steps 2 and 3 for an HTTP request, before Apollo: the batch bound (a batch is a request's worth
   * of work per operation, so an unbounded array is an unbounded request), then each operation's
   * text. A refusal is answered 400 and nothing of the request runs.
   */
  screenHttp({ payload }: HttpOperations, auth: Authentication): HttpRefusal | null {
    const { batchMax, telemetry } = this.#options;
    if (Array.isArray(payload) && payload.length > batchMax) {
      telemetry.queryLimitRefusalsTotal.inc({ limit: 'batch' });
      return {
        message: `A batched request may carry at most ${batchMax} operations; this one carries ${payload.length}.`,
        code: ErrorCode.BAD_USER_INPUT,
      };
    }
    for (const operation of Array.isArray(payload) ? payload : [payload]) {
      const { query, variables } = (operation ?? {}) as { query?: unknown; variables?: unknown };
      const refusal = this.screenText(query, auth) ?? this.screenVariables(variables);
      if (refusal)
        return { message: refusal.message, code: String(refusal.extensions['code'] ?? ErrorCode.BAD_USER_INPUT) };
    }
    return null;
  }

  /** Step 3 on one operation's variables (JSON text for a GET): the refusal, or null. */
  screenVariables(variables: unknown): GraphQLError | null {
    return checkVariablesDepth(variables);
  }

  /**
   * Parsing and step 4 for a transport that does both itself (graphql-ws): the document, or its
   * errors coded and masked as Apollo answers them over HTTP.
   */
  parseAndValidate(
    schema: GraphQLSchema,
    query: string,
  ): { document: DocumentNode; errors?: undefined } | { errors: readonly GraphQLError[] } {
    let document: DocumentNode;
    try {
      document = parse(query);
    } catch (error) {
      if (!(error instanceof GraphQLError)) throw error;
      return { errors: [this.mask(coded(error, ErrorCode.GRAPHQL_PARSE_FAILED))] };
    }
    const errors = validate(schema, document, this.#allRules);
    if (errors.length > 0)
      return { errors: errors.map((error) => this.mask(coded(error, ErrorCode.GRAPHQL_VALIDATION_FAILED))) };
    return { document };
  }

  /**
   * Step 5: the refusal when the principal's bucket lacks the operation's tokens (one, or one per
   * item of a counted list: src/graphql/rateLimitTokens.ts), or null. Unauthenticated callers are
   * refused by the auth checker instead.
   */
  async rateLimit(principal: Principal | null, tokens = 1): Promise<GraphQLError | null> {
    return (await this.#options.rateLimiter?.check(principal, tokens)) ?? null;
  }

  /** In production, an error without its suggestion ("Did you mean …?"); as it is otherwise. The same instance, changed in place. */
  mask<E extends { message: string }>(error: E): E {
    if (this.production) error.message = withoutSuggestions(error.message);
    return error;
  }

  /**
   * For Apollo (HTTP): step 5 once the operation is resolved (parsed and validated), and every
   * error of the request masked in production (validation, variable coercion and field errors).
   */
  apolloPlugin<TContext extends { principal: Principal | null }>(): ApolloServerPlugin<TContext> {
    // Stateless, so one listener serves every request.
    const listener: GraphQLRequestListener<TContext> = {
      didResolveOperation: async ({ contextValue, schema, operation, request, document }) => {
        const refusal = await this.rateLimit(
          contextValue.principal,
          operation ? operationTokens(schema, operation, request.variables, fragmentsOf(document)) : 1,
        );
        if (refusal) throw refusal;
      },
      ...(this.production
        ? {
            didEncounterErrors: async ({ errors }) => {
              for (const error of errors) this.mask(error);
            },
          }
        : {}),
    };
    return {
      async requestDidStart() {
        return listener;
      },
    };
  }
}

/**
 * graphql-js ends a message with its suggestions: `Did you mean "account" or "accounts"?`, `Did
 * you mean the enum value "PENDING"?`, `Did you mean to use an inline fragment on "X"?`. The
 * sentence goes; the rest of the message (what is wrong) stays.
 */
export function withoutSuggestions(message: string): string {
  return message.replace(/\s*Did you mean [^?]*\?/g, '');
}

function coded(error: GraphQLError, code: ErrorCode): GraphQLError {
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: { ...error.extensions, code },
  });
}

/** Introspection refused: the schema's fields and arguments are for the SDK's build, not for whoever holds a key. */
const NoIntrospection: ValidationRule = (context) => ({
  Field(node) {
    if (node.name.value === '__schema' || node.name.value === '__type') {
      context.reportError(
        new GraphQLError(
          'GraphQL introspection is not allowed in production: the query contained __schema or __type.',
          {
            nodes: [node],
          },
        ),
      );
    }
  },
});
