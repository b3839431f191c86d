import type { GraphQLError } from 'graphql';
import { jsonDepthExceeds } from '../lib/jsonDepth.ts';
import { appError, ErrorCode } from '../graphql/errors.ts';

/**
 * Levels an operation's variables may nest, checked where they enter (before graphql-ws or
 * Apollo walks them: several walks recurse once per level, and a client can send thousands). As
 * deep as MongoDB stores a document (100 levels), which no input of this API needs: the deepest is
 * a work item's payload (98 levels, src/work/model.ts) inside `$input` (2 more).
 */
export const VARIABLES_DEPTH_MAX = 100;

/**
 * BAD_USER_INPUT when `variables` nest deeper than VARIABLES_DEPTH_MAX, else null. A string is a
 * GET's variables, still JSON text: it is read here (text that does not parse is Apollo's to refuse).
 */
export function checkVariablesDepth(variables: unknown): GraphQLError | null {
  if (!jsonDepthExceeds(typeof variables === 'string' ? parsedOrNull(variables) : variables, VARIABLES_DEPTH_MAX))
    return null;
  return appError(ErrorCode.BAD_USER_INPUT, `variables may nest at most ${VARIABLES_DEPTH_MAX} levels`, {
    http: { status: 400 },
  });
}

function parsedOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
