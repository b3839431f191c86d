// graphql-ws on the HTTP server's port and path. Credentials are checked once at connection_init
// (before any subscription can start); every operation then runs through the same schema and
// auth checker as HTTP, with a context built the same way, so the socket is no side door.
import { GraphQLError, specifiedRules, validate, type GraphQLSchema } from 'graphql';
import { CloseCode } from 'graphql-ws';
import type { WebSocketServer } from 'ws';
import type { Logger } from '../observability/logger.ts';
import type { Keyring } from './auth/apiKeys.ts';
import { roleMaySubscribe } from './auth/roles.ts';
import { createContext, type AppContext, type ContextSource } from './context.ts';
import { ErrorCode } from './errors.ts';
import { formatAppError } from './formatError.ts';
import type { GraphqlTelemetry } from './telemetry.ts';
import { createSubscriptionMultiplexer } from './subscriptionMultiplexer.ts';
import { serveGraphqlWs } from './wsServer.ts';
import type { QueryLimitProtection } from './queryLimits.ts';
import { documentTokens, type RateLimiter } from './rateLimit.ts';
import type { TrustedDocuments } from './trustedDocuments.ts';

export interface GraphqlWsOptions {
  wss: WebSocketServer;
  schema: GraphQLSchema;
  keyring: Keyring;
  /** What each operation's context is built from (src/app.ts). */
  app: ContextSource;
  logger: Logger;
  production: boolean;
  telemetry: GraphqlTelemetry;
  /** The same query limits as HTTP. */
  queryLimits?: Pick<QueryLimitProtection, 'validationRules' | 'checkTokens'>;
  /** The same per-key rate limit as HTTP: every operation on the socket takes a token. */
  rateLimiter?: RateLimiter | null;
  /** The same trusted-documents check as HTTP. */
  trustedDocuments?: TrustedDocuments;
}

/** Seconds a client has to send connection_init before it is closed (graphql-ws 4408). */
const CONNECTION_INIT_WAIT_MS = 3_000;

export function attachGraphqlWs({
  wss,
  schema,
  keyring,
  app,
  logger,
  production,
  telemetry,
  queryLimits,
  rateLimiter,
  trustedDocuments,
}: GraphqlWsOptions): { dispose(): Promise<void> } {
  // A subscription's per-event execution depends on its document, variables and the caller's
  // role (the auth checker's only input): equal ones run once per event and share the frame.
  const multiplexer = createSubscriptionMultiplexer((context) => (context as AppContext).role ?? 'anonymous', telemetry);
  const disposable = serveGraphqlWs(
    {
      schema,
      subscribe: (args) => multiplexer.subscribe(args),
      connectionInitWaitTimeout: CONNECTION_INIT_WAIT_MS,
      ...(queryLimits
        ? {
            validate: (validationSchema: GraphQLSchema, document: Parameters<typeof validate>[1]) =>
              validate(validationSchema, document, [...specifiedRules, ...queryLimits.validationRules]),
          }
        : {}),
      // Before graphql-ws parses: trusted documents, the token ceiling (counted while lexing) and
      // the key's rate limit.
      onSubscribe: (ctx, _id, payload) => {
        const auth = keyring.authenticate(ctx.connectionParams?.['authorization']);
        const untrusted = trustedDocuments?.check(payload.query, auth.ok ? auth.principal.role : null) ?? null;
        if (untrusted) return [untrusted];
        const tokens = queryLimits?.checkTokens(payload.query) ?? null;
        if (tokens) return [tokens];
        const limited =
          rateLimiter && auth.ok ? rateLimiter.check(auth.principal, documentTokens(schema, payload.query, payload.operationName, payload.variables)) : null;
        if (!limited) return undefined;
        const { http: _http, ...extensions } = limited.extensions;
        return [new GraphQLError(limited.message, { extensions })];
      },
      onConnect: (ctx) => {
        const auth = keyring.authenticate(ctx.connectionParams?.['authorization']);
        if (!auth.ok) {
          telemetry.authFailuresTotal.inc({ transport: 'ws', reason: auth.failure });
          logger.info({ reason: auth.failure }, 'websocket refused: unauthenticated');
          // graphql-ws closes a refused connection with 4403; unauthenticated is 4401, so close
          // first (the library's own close is then a no-op on a closing socket).
          ctx.extra.socket.close(CloseCode.Unauthorized, 'Unauthorized');
          return false;
        }
        if (!roleMaySubscribe(auth.principal.role)) {
          telemetry.authFailuresTotal.inc({ transport: 'ws', reason: 'forbidden' });
          logger.info({ role: auth.principal.role, keyId: auth.principal.keyId }, 'websocket refused: forbidden');
          return false;
        }
        return true;
      },
      // Same error shape as HTTP (see formatAppError); internal faults are logged here.
      onNext: (_ctx, _id, _payload, _args, result) => {
        // A result without errors is written by serveGraphqlWs from the selection's shared payload
        // (or, on a socket it cannot write itself, serialized by graphql-ws as it is).
        if (!result.errors) return undefined;
        const errors = result.errors.map((error) => {
          const formatted = formatAppError(error.toJSON(), production, error);
          if (formatted.extensions?.['code'] === ErrorCode.INTERNAL_SERVER_ERROR) {
            logger.error({ err: error.originalError ?? error, path: error.path }, 'graphql-ws operation failed');
          }
          return formatted;
        });
        return { ...result, errors };
      },
      context: (ctx) => createContext(app, keyring.authenticate(ctx.connectionParams?.['authorization']), 'ws'),
    },
    wss,
  );
  // Idempotent: shutdown closes subscriptions first, then again among the final steps.
  let disposing: Promise<void> | undefined;
  return {
    dispose: () => (disposing ??= Promise.resolve(disposable.dispose())),
  };
}
