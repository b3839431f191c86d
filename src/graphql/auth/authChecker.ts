import type { AuthCheckerFn } from 'type-graphql';
import type { RequestContext } from '../context.ts';
import { appError, ErrorCode } from '../errors.ts';
import { isRight, RIGHTS, roleHasRight } from '../../access/roles.ts';

/**
 * The one place where access is decided, for HTTP and WebSocket alike (both build an
 * RequestContext). Runs before the resolver, so a refused call changes nothing.
 */
export const authChecker: AuthCheckerFn<RequestContext, string> = ({ context, info }, rights) => {
  const right = rights[0];
  if (rights.length !== 1 || !isRight(right)) {
    // A programmer error (use @Allow with one right); refuse rather than guess.
    throw appError(ErrorCode.FORBIDDEN, `No access rule for ${info.parentType.name}.${info.fieldName}`);
  }
  if (!context.principal) {
    throw appError(ErrorCode.UNAUTHENTICATED, unauthenticatedMessage[context.authFailure ?? 'missing']);
  }
  if (!roleHasRight(context.principal.role, right)) {
    // Names who may, so the caller knows which key to use instead of guessing.
    const allowed = RIGHTS[right];
    throw appError(
      ErrorCode.FORBIDDEN,
      `Role ${context.principal.role} may not use ${info.fieldName} (allowed: ${allowed.join(', ')})`,
      { allowedRoles: allowed },
    );
  }
  return true;
};

export const unauthenticatedMessage = {
  missing: 'An API key is required: send Authorization: Bearer <token>',
  malformed: 'Malformed Authorization header: expected Bearer <token>',
  placeholder:
    'The Authorization header holds a placeholder (<...>): paste the key itself; npm start prints it and keeps it in DATA_DIR/admin-key (by default .data/admin-key)',
  unknown:
    "Unknown API key: use a key of the server's API_KEYS; without API_KEYS, npm start keeps its generated admin key in DATA_DIR/admin-key (by default .data/admin-key) and prints it at every start",
} as const;

/** A WebSocket close reason holds at most 123 bytes (RFC 6455 5.5): the message up to the last `;` clause that fits. */
export function closeReason(text: string): string {
  let cut = text;
  while (Buffer.byteLength(cut) > 123) {
    const clause = cut.lastIndexOf(';');
    cut = clause > 0 ? cut.slice(0, clause) : cut.slice(0, 120);
  }
  return cut;
}
