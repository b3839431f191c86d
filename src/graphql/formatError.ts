import type { GraphQLFormattedError } from 'graphql';
import { ErrorCode } from './errors.ts';

const CLIENT_CODES = new Set<unknown>([ErrorCode.BAD_USER_INPUT, ErrorCode.UNAUTHENTICATED, ErrorCode.FORBIDDEN]);

/**
 * One error shape for HTTP and WebSocket. A field error without one of our client codes is an
 * internal fault: coded INTERNAL_SERVER_ERROR and, in production, stripped of its message (which
 * may carry database details). Errors without a path (parse, validation, variables) pass as they are.
 */
export function formatAppError(error: GraphQLFormattedError, production: boolean): GraphQLFormattedError {
  if (!error.path || CLIENT_CODES.has(error.extensions?.['code'])) return error;
  const { stacktrace, ...extensions } = error.extensions ?? {};
  return {
    ...error,
    message: production ? 'Internal server error' : error.message,
    extensions: { ...extensions, ...(production || stacktrace === undefined ? {} : { stacktrace }), code: ErrorCode.INTERNAL_SERVER_ERROR },
  };
}
