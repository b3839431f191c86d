// graphql-ws on the HTTP server's port and path. Credentials are checked once, at connection_init
// (before any subscription can start), and the socket keeps that authentication for its life.
// Every operation then passes the same admission screen as HTTP (admission.ts: trusted documents,
// tokens, parsing, validation with the production rules, rate limit, in that order) and runs
// through the same schema and auth checker, with a context built the same way, so the socket is
// no side door. A query or mutation sent over the socket is also treated as over HTTP: the same
// `@consistentAfter` handling and consistency token (src/graphql/consistency.ts), the same
// operation metrics and mutation log line (operationObservation.ts); subscriptions keep their own
// delivery path (subscriptionMultiplexer.ts, wsServer.ts).
import {
  execute,
  getOperationAST,
  GraphQLError,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLSchema,
} from 'graphql';
import { CloseCode } from 'graphql-ws';
import type { WebSocketServer } from 'ws';
import type { Authentication } from '../access/apiKeys.ts';
import { roleMaySubscribe, subscribingRoles } from '../access/roles.ts';
import { closeReason, unauthenticatedMessage } from '../graphql/auth/authChecker.ts';
import { createContext, type AppContext, type ContextSource } from '../app/requestContext.ts';
import { endConsistency, followConsistentAfter } from '../graphql/consistency.ts';
import { isUnavailable } from '../db/mongoErrors.ts';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from './unavailable.ts';
import { appError, ErrorCode } from '../graphql/errors.ts';
import { documentTokens } from '../graphql/rateLimitTokens.ts';
import { AUDIT_LOG_THROTTLE, LogThrottle } from '../observability/logThrottle.ts';
import type { Logger } from '../observability/logger.ts';
import type { Admission } from './admission.ts';
import { formatAppError } from './formatError.ts';
import { operationRecorder, type OperationRecorder } from './operationObservation.ts';
import { createSubscriptionMultiplexer } from './subscriptionMultiplexer.ts';
import type { GraphqlTelemetry } from './telemetry.ts';
import { serveGraphqlWs, type WsExtra } from './wsServer.ts';

export interface GraphqlWsOptions {
  wss: WebSocketServer;
  schema: GraphQLSchema;
  admission: Admission;
  /** What each operation's context is built from (src/app/createApp.ts). */
  app: ContextSource;
  logger: Logger;
  telemetry: GraphqlTelemetry;
  /** Operation names that may be metric labels (see operationRecorder). */
  knownOperationNames?: ReadonlySet<string>;
}

/** Milliseconds a client has to send connection_init before it is closed (graphql-ws 4408). */
const CONNECTION_INIT_WAIT_MS = 3_000;

/** The authentication of connection_init, kept on the socket's `extra` for every later operation. */
type AuthenticatedExtra = WsExtra & { authentication?: Authentication };

export function attachGraphqlWs({
  wss,
  schema,
  admission,
  app,
  logger,
  telemetry,
  knownOperationNames,
}: GraphqlWsOptions): { dispose(): Promise<void> } {
  const record = operationRecorder(telemetry, knownOperationNames);
  // Each socket's id, for the per-connection subscription bound (src/fanout/SubscriptionShares.ts).
  const connectionIds = new WeakMap<object, string>();
  let connections = 0;
  const connectionIdOf = (socket: object): string => {
    let id = connectionIds.get(socket);
    if (id === undefined) connectionIds.set(socket, (id = `ws-${++connections}`));
    return id;
  };
  // A subscription's per-event execution depends on its document, variables and the caller's
  // role (the auth checker's only input): equal ones run once per event and share the frame.
  // Refused connections are logged, at most a few per key and reason in a window (a reconnect loop with a bad key cannot flood the log).
  const refusals = new LogThrottle(AUDIT_LOG_THROTTLE);
  const multiplexer = createSubscriptionMultiplexer(
    (context) => (context as AppContext).role ?? 'anonymous',
    telemetry,
  );
  const disposable = serveGraphqlWs(
    {
      schema,
      subscribe: (args) => multiplexer.subscribe(args),
      // Queries and mutations only (graphql-ws hands subscriptions to `subscribe`).
      execute: (args) => executeOperation(args, record),
      connectionInitWaitTimeout: CONNECTION_INIT_WAIT_MS,
      // Step 1 of the admission screen, once per socket.
      onConnect: (ctx) => {
        const auth = admission.authenticate(ctx.connectionParams?.['authorization']);
        if (!auth.ok) {
          telemetry.authFailuresTotal.inc({ transport: 'ws', reason: auth.failure });
          const { write, suppressed } = refusals.take(`unauthenticated:${auth.failure}`);
          if (write) logger.info({ reason: auth.failure, suppressed }, 'websocket refused: unauthenticated');
          // graphql-ws closes a refused connection with 4403; unauthenticated is 4401, so close
          // first (the library's own close is then a no-op on a closing socket).
          // The reason says what to send instead, cut to the 123 bytes a close reason may hold.
          ctx.extra.socket.close(
            CloseCode.Unauthorized,
            closeReason(`Unauthorized: ${unauthenticatedMessage[auth.failure]}`),
          );
          return false;
        }
        if (!roleMaySubscribe(auth.principal.role)) {
          telemetry.authFailuresTotal.inc({ transport: 'ws', reason: 'forbidden' });
          const { write, suppressed } = refusals.take(`forbidden:${auth.principal.keyId}`);
          if (write)
            logger.info(
              { role: auth.principal.role, keyId: auth.principal.keyId, suppressed },
              'websocket refused: forbidden',
            );
          ctx.extra.socket.close(
            CloseCode.Forbidden,
            `Forbidden: role ${auth.principal.role} may open no subscription (allowed: ${subscribingRoles().join(', ')})`,
          );
          return false;
        }
        (ctx.extra as AuthenticatedExtra).authentication = auth;
        return true;
      },
      // Steps 2-5 before graphql-ws parses anything: what this returns is executed as it is (its
      // own parsing and validation are skipped), or its errors are the operation's answer.
      onSubscribe: async (ctx, _id, payload) => {
        // graphql-ws runs this only on an acknowledged socket, whose onConnect kept its authentication.
        const auth = (ctx.extra as AuthenticatedExtra).authentication ?? admission.authenticate(undefined);
        const screened = admission.screenText(payload.query, auth) ?? admission.screenVariables(payload.variables);
        if (screened) return [withoutHttp(screened)];
        const parsed = admission.parseAndValidate(schema, payload.query);
        if (parsed.errors) return [...parsed.errors];
        const limited = await admission.rateLimit(
          auth.ok ? auth.principal : null,
          documentTokens(schema, parsed.document, payload.operationName, payload.variables),
        );
        if (limited) return [withoutHttp(limited)];
        const contextValue = createContext(app, auth, 'ws', connectionIdOf(ctx.extra.socket));
        // As HTTP's consistencyPlugin at didResolveOperation: the operation is valid, not yet run.
        const operation = getOperationAST(parsed.document, payload.operationName);
        let refusal: GraphQLError | null;
        try {
          refusal = await followConsistentAfter(operation, payload.variables, contextValue.consistency);
        } catch (error) {
          // The deployment did not answer the ping that checks the token: this operation fails,
          // not the socket and its subscriptions.
          if (isUnavailable(error)) {
            logger.warn({ err: error }, 'graphql-ws operation met an unavailable database');
            return [
              appError(
                ErrorCode.UNAVAILABLE,
                'The database cannot answer right now (a failover or no primary); send the same request again',
                { retryAfterSeconds: UNAVAILABLE_RETRY_AFTER_SECONDS },
              ),
            ];
          }
          logger.error({ err: error }, 'graphql-ws operation failed');
          return [appError(ErrorCode.INTERNAL_SERVER_ERROR, 'Internal server error')];
        }
        if (refusal) return [refusal];
        return {
          schema,
          document: parsed.document,
          operationName: payload.operationName ?? null,
          variableValues: payload.variables ?? null,
          contextValue,
        };
      },
      // Same error shape as HTTP (see formatAppError) and the same production masking; internal
      // faults are logged here.
      onNext: (_ctx, _id, _payload, _args, result) => {
        // A result without errors is written by serveGraphqlWs from the selection's shared payload
        // (or, on a socket it cannot write itself, serialized by graphql-ws as it is).
        if (!result.errors) return undefined;
        const errors = result.errors.map((error) => {
          const formatted = formatAppError(admission.mask({ ...error.toJSON() }), admission.production, error);
          if (formatted.extensions?.['code'] === ErrorCode.INTERNAL_SERVER_ERROR) {
            logger.error({ err: error.originalError ?? error, path: error.path }, 'graphql-ws operation failed');
          }
          return formatted;
        });
        return { ...result, errors };
      },
    },
    wss,
  );
  // Idempotent: shutdown closes subscriptions first, then again among the final steps.
  let disposing: Promise<void> | undefined;
  return {
    dispose: () => (disposing ??= Promise.resolve(disposable.dispose())),
  };
}

/**
 * A query or mutation over the socket, as HTTP runs one: its causal session (if `@consistentAfter`
 * opened one) ends with it, a mutation's result carries its consistency token, and it is counted
 * and timed by type, outcome and name.
 */
async function executeOperation(args: ExecutionArgs, record: OperationRecorder): Promise<ExecutionResult> {
  const startedNs = process.hrtime.bigint();
  const operation = getOperationAST(args.document, args.operationName);
  const type = operation?.operation ?? 'unknown';
  let result: ExecutionResult;
  let token: string | undefined;
  try {
    result = await execute(args);
  } finally {
    token = await endConsistency(type, (args.contextValue as AppContext).consistency);
  }
  record(type, result.errors?.length ? 'error' : 'ok', args.operationName ?? operation?.name?.value, startedNs);
  return token === undefined ? result : { ...result, extensions: { ...result.extensions, consistencyToken: token } };
}

/** A refusal as sent over the socket: its HTTP status means nothing there. */
function withoutHttp(error: GraphQLError): GraphQLError {
  const { http: _http, ...extensions } = error.extensions;
  return new GraphQLError(error.message, { extensions });
}
