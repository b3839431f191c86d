// The GraphQL error codes this API answers with (`extensions.code`), in one table. Expected
// business outcomes are union members, not errors; these are for bad input, missing or
// insufficient credentials, and internal faults.
import { GraphQLError } from 'graphql';

export const ErrorCode = Object.freeze({
  BAD_USER_INPUT: 'BAD_USER_INPUT',
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  FORBIDDEN: 'FORBIDDEN',
  /** The API key's token bucket is empty; `extensions.retryAfterSeconds` says when to retry. */
  RATE_LIMITED: 'RATE_LIMITED',
  /** TRUSTED_DOCUMENTS=enforce and the document is not in the SDK's manifest. */
  UNTRUSTED_DOCUMENT: 'UNTRUSTED_DOCUMENT',
  /** HTTP 503 while the process stops: retry on another instance. */
  SHUTTING_DOWN: 'SHUTTING_DOWN',
  INTERNAL_SERVER_ERROR: 'INTERNAL_SERVER_ERROR',
  /** The document is not GraphQL (Apollo's code for it, used over graphql-ws too). */
  GRAPHQL_PARSE_FAILED: 'GRAPHQL_PARSE_FAILED',
  /** The document breaks a rule of the schema, a query limit or (in production) asks for introspection (Apollo's code, used over graphql-ws too). */
  GRAPHQL_VALIDATION_FAILED: 'GRAPHQL_VALIDATION_FAILED',
} as const);

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export function appError(code: ErrorCode, message: string, extensions: Record<string, unknown> = {}): GraphQLError {
  return new GraphQLError(message, { extensions: { ...extensions, code } });
}
