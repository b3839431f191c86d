// R5: a failover is no internal fault. An operation that met a deployment that cannot answer now
// (no primary yet, a member going away, a majority out of reach: src/db/mongoErrors.ts, isUnavailable)
// after its own reruns is answered with the error UNAVAILABLE, HTTP 503 and Retry-After, over
// graphql-ws with the same code; a client sends the same request again, with the same key.
import type { ApolloServerPlugin, GraphQLRequestListener } from '@apollo/server';
import type { GraphQLFormattedError } from 'graphql';
import { isUnavailable } from '../db/mongoErrors.ts';
import { ErrorCode } from '../graphql/errors.ts';

/** An election takes a few seconds (mongod's electionTimeoutMillis is 10 s at most); a second is the first of the client's backoff steps. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 1;

const MESSAGE =
  'The database cannot answer right now (a failover or no primary); send the same request again, with the same key';

/** Whether a raw error (graphql-js's, wrapping what a resolver threw, or the thrown value itself) is a failover's. */
export function isUnavailableError(raw: unknown): boolean {
  const original = (raw as { originalError?: unknown } | null)?.originalError;
  return isUnavailable(original ?? raw);
}

/** The formatted error of an unavailable deployment: the same on both transports, production or not. */
export function unavailableError(error: GraphQLFormattedError): GraphQLFormattedError {
  const { stacktrace: _stacktrace, ...extensions } = error.extensions ?? {};
  return {
    ...error,
    message: MESSAGE,
    extensions: { ...extensions, code: ErrorCode.UNAVAILABLE, retryAfterSeconds: UNAVAILABLE_RETRY_AFTER_SECONDS },
  };
}

// Stateless, so one listener serves every request. Apollo takes the status from errors that name
// one; a driver's error names none, so it is set here, before Apollo formats the errors.
const listener: GraphQLRequestListener<object> = {
  async didEncounterErrors({ errors, response }) {
    if (!errors.some(isUnavailableError)) return;
    response.http.status = 503;
    response.http.headers.set('retry-after', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
  },
};

/** HTTP's status and Retry-After for UNAVAILABLE (formatAppError codes the error itself). */
export function unavailablePlugin(): ApolloServerPlugin<object> {
  return {
    async requestDidStart() {
      return listener;
    },
  };
}
