// Every failure the SDK throws. `code` is the server's error code (UNAUTHENTICATED, FORBIDDEN,
// BAD_USER_INPUT, RATE_LIMITED, ...) or one of the SDK's own for what never reached an answer.
// Expected business outcomes are not errors: they arrive as union members.

export interface GraphQLErrorPayload {
  message: string;
  path?: ReadonlyArray<string | number>;
  extensions?: { code?: string; [key: string]: unknown };
}

/** The SDK's own codes, for failures without a GraphQL answer. */
export const SdkErrorCode = {
  /** fetch failed or timed out, or the socket dropped: the outcome is unknown. */
  NETWORK_ERROR: 'NETWORK_ERROR',
  /** An HTTP status without a GraphQL answer. */
  HTTP_ERROR: 'HTTP_ERROR',
  /** The server closed the subscription socket for a reason a retry cannot fix (4400-4499). */
  SUBSCRIPTION_REFUSED: 'SUBSCRIPTION_REFUSED',
} as const;

/** How deep a cause chain is followed into a message (a cycle or a very long chain stops here). */
const CAUSE_DEPTH_MAX = 5;

/**
 * The causes below an error, each as its message (or close code and reason), joined with ": ", so
 * that `error.message` alone says what went wrong: "NETWORK_ERROR after 5 attempts: fetch failed:
 * connect ECONNREFUSED 127.0.0.1:4000".
 */
export function describeCauses(cause: unknown): string {
  const parts: string[] = [];
  for (let current = cause, depth = 0; current != null && depth < CAUSE_DEPTH_MAX; depth++) {
    parts.push(describeOne(current));
    current = (current as { cause?: unknown }).cause;
  }
  return parts.filter((part) => part !== '').join(': ');
}

function describeOne(value: unknown): string {
  if (typeof value !== 'object') return String(value);
  const { message, code, reason } = value as { message?: unknown; code?: unknown; reason?: unknown };
  // A socket's close event carries a code and a reason, not a message.
  if ((message === undefined || message === '') && typeof code === 'number')
    return `socket closed with ${code}${reason ? ` ${String(reason)}` : ''}`;
  if (typeof message === 'string' && message !== '')
    return typeof code === 'string' && !message.includes(code) ? `${code} ${message}` : message;
  return Object.prototype.toString.call(value);
}

export interface PreconditionErrorDetails {
  code?: string;
  status?: number;
  /** The key the request carried, to retry with later (never a new one). */
  idempotencyKey?: string | null;
  attempts?: number;
  cause?: unknown;
}

export class PreconditionError extends Error {
  override readonly name = 'PreconditionError';
  /** The first error's code, or the SDK's code when the server gave none. */
  readonly code: string;
  /** The server's errors, as it sent them (empty when no GraphQL answer arrived). */
  readonly errors: readonly GraphQLErrorPayload[];
  readonly status: number | undefined;
  readonly idempotencyKey: string | null;
  readonly attempts: number;

  constructor(errors: readonly GraphQLErrorPayload[], details: PreconditionErrorDetails = {}) {
    const code = errors[0]?.extensions?.code ?? details.code ?? SdkErrorCode.HTTP_ERROR;
    const summary =
      errors.length > 0
        ? errors.map((error) => `${error.extensions?.code ?? code}: ${error.message}`).join('; ')
        : `${code}${details.status === undefined ? '' : ` (status ${details.status})`}`;
    const tries = (details.attempts ?? 1) > 1 ? ` after ${details.attempts} attempts` : '';
    const causes = errors.length > 0 ? '' : describeCauses(details.cause);
    super(
      `${summary}${tries}${causes ? `: ${causes}` : ''}`,
      details.cause === undefined ? undefined : { cause: details.cause },
    );
    this.code = code;
    this.errors = errors;
    this.status = details.status;
    this.idempotencyKey = details.idempotencyKey ?? null;
    this.attempts = details.attempts ?? 1;
  }
}
