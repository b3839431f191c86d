import type { AuthCheckerFn } from 'type-graphql';
import type { RequestContext } from '../context.ts';
import { appError, ErrorCode } from '../errors.ts';
import { isRight, roleHasRight } from '../../access/roles.ts';

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
    throw appError(ErrorCode.FORBIDDEN, `Role ${context.principal.role} may not use ${info.fieldName}`);
  }
  return true;
};

const unauthenticatedMessage = {
  missing: 'An API key is required: send Authorization: Bearer <token>',
  malformed: 'Malformed Authorization header: expected Bearer <token>',
  unknown: 'Unknown API key',
} as const;
