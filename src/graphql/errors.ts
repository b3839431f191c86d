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
  /**
   * A subscription refused at a bound: `extensions.limit` says which (`socket`: subscriptions on
   * one WebSocket; `key`: one API key's in this process; `feed`: the feed's in this process) and
   * `extensions.max` its size. End a subscription first; for `feed`, retry later or elsewhere.
   */
  SUBSCRIPTION_LIMIT: 'SUBSCRIPTION_LIMIT',
  /** HTTP 503 while the process stops: retry on another instance. */
  SHUTTING_DOWN: 'SHUTTING_DOWN',
  /**
   * The database cannot answer now (a failover: no primary yet, a member going away, a majority out
   * of reach); HTTP 503 with Retry-After. Send the same request again, with the same key: a write
   * that applied before its reply was lost answers from its key (R5).
   */
  UNAVAILABLE: 'UNAVAILABLE',
  INTERNAL_SERVER_ERROR: 'INTERNAL_SERVER_ERROR',
  /** The document is not GraphQL (Apollo's code for it, used over graphql-ws too). */
  GRAPHQL_PARSE_FAILED: 'GRAPHQL_PARSE_FAILED',
  /** The document breaks a rule of the schema, a query limit or (in production) asks for introspection (Apollo's code, used over graphql-ws too). */
  GRAPHQL_VALIDATION_FAILED: 'GRAPHQL_VALIDATION_FAILED',
} as const);

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/**
 * The HTTP status an error sets over HTTP (GraphQL over HTTP lets an application/json response
 * carry any status): a client that sees 401 or 403 knows without reading the body that its key is
 * the problem. Apollo takes `extensions.http` for the response and strips it from the body;
 * formatAppError strips it over WebSocket.
 */
const HTTP_STATUS: Partial<Record<ErrorCode, number>> = {
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
};

export function appError(code: ErrorCode, message: string, extensions: Record<string, unknown> = {}): GraphQLError {
  const status = HTTP_STATUS[code];
  const http =
    status === undefined
      ? {}
      : { http: { status, ...(status === 401 ? { headers: new Map([['www-authenticate', 'Bearer']]) } : {}) } };
  return new GraphQLError(message, { extensions: { ...extensions, ...http, code } });
}
