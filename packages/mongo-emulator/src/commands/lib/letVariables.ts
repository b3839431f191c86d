import { evaluate } from '../../engine/expression.ts';
import type { Document } from '../../engine/types.ts';
import { optionalDocument } from '../../engine/documentFields.ts';
import type { CommandContext } from '../types.ts';

/**
 * The command's `let` as values: mongod evaluates each one as a constant expression once per
 * command (so `{$literal: '$x'}` is the string '$x' and `$$NOW` is this command's time).
 */
export function letVariables(context: CommandContext): Document | undefined {
  const declared = optionalDocument(context.command, 'let');
  if (!declared) return undefined;
  const vars = { now: new Date(), clusterTime: context.server.clock.now() };
  return Object.fromEntries(Object.entries(declared).map(([name, expr]) => [name, evaluate({}, expr, vars)]));
}
