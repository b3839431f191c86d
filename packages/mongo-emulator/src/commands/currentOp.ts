import type { CommandDefinition } from './types.ts';

/**
 * `currentOp`, minimal: commands run one at a time per connection and finish synchronously,
 * so only waiting ones could show; none are reported.
 */
export const currentOp: CommandDefinition = {
  names: ['currentOp'],
  adminOnly: true,
  run: () => ({ inprog: [] }),
};
