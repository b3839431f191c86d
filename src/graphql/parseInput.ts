import type { GraphQLError } from 'graphql';
import type { z } from 'zod';
import { appError, ErrorCode } from './errors.ts';

/**
 * Validates a GraphQL input with its zod schema; a bad input is a BAD_USER_INPUT error listing
 * each issue by path. GraphQL's explicit nulls on optional fields count as "not given".
 */
export function parseInput<S extends z.ZodType>(schema: S, input: object): z.output<S> {
  const given = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== null && value !== undefined));
  const parsed = schema.safeParse(given);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
  throw appError(
    ErrorCode.BAD_USER_INPUT,
    `invalid input: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
    {
      issues,
    },
  );
}

/** A mistake a service found after a read (nothing ran), as parseInput would have answered it. */
export function inputMistakeError(mistake: { field: string; message: string }): GraphQLError {
  return appError(ErrorCode.BAD_USER_INPUT, `invalid input: ${mistake.field}: ${mistake.message}`, {
    issues: [{ path: mistake.field, message: mistake.message }],
  });
}
