import type { GraphQLFormattedError } from 'graphql';
import { ErrorCode } from '../graphql/errors.ts';
import { isUnavailableError, unavailableError } from './unavailable.ts';

const CLIENT_CODES = new Set<unknown>([
  ErrorCode.BAD_USER_INPUT,
  ErrorCode.UNAUTHENTICATED,
  ErrorCode.FORBIDDEN,
  ErrorCode.SUBSCRIPTION_LIMIT,
]);

/**
 * One error shape for HTTP and WebSocket. A field error without one of our client codes is an
 * internal fault: coded INTERNAL_SERVER_ERROR and, in production, stripped of its message (which
 * may carry database details). A failover's error, with a path or not (a plugin's read), is
 * UNAVAILABLE (unavailable.ts). Errors without a path (parse, validation, variables) pass as they are.
 */
export function formatAppError(
  error: GraphQLFormattedError,
  production: boolean,
  raw?: unknown,
): GraphQLFormattedError {
  if (error.extensions && 'http' in error.extensions) {
    // Over WebSocket nothing takes the HTTP status out (Apollo does over HTTP): it is no part of the body.
    const { http: _http, ...extensions } = error.extensions;
    error = { ...error, extensions };
  }
  if (raw !== undefined && isUnavailableError(raw)) return unavailableError(error);
  if (!error.path || CLIENT_CODES.has(error.extensions?.['code'])) return error;
  const { stacktrace, ...extensions } = error.extensions ?? {};
  if (isArgumentError(raw)) {
    // graphql-js refused an argument while executing (`null` for a non-null argument that has a
    // default): the client's mistake, not a fault.
    return {
      ...error,
      extensions: {
        ...extensions,
        ...(production || stacktrace === undefined ? {} : { stacktrace }),
        code: ErrorCode.BAD_USER_INPUT,
      },
    };
  }
  return {
    ...error,
    message: production ? 'Internal server error' : error.message,
    extensions: {
      ...extensions,
      ...(production || stacktrace === undefined ? {} : { stacktrace }),
      code: ErrorCode.INTERNAL_SERVER_ERROR,
    },
  };
}

/**
 * An error graphql-js raised itself while coercing a field's arguments (located on the field, its
 * original a GraphQLError without a code), not anything a resolver threw.
 */
function isArgumentError(raw: unknown): boolean {
  const original = (
    raw as { originalError?: { name?: unknown; message?: unknown; extensions?: Record<string, unknown> } } | null
  )?.originalError;
  return (
    original?.name === 'GraphQLError' &&
    original.extensions?.['code'] === undefined &&
    typeof original.message === 'string' &&
    /^Argument "[^"]+" (of|has invalid)/.test(original.message)
  );
}
