import { replCoordinator } from './lib/replCoordinator.ts';
import type { CommandDefinition } from './types.ts';

/** `replSetFreeze: secs`: this member does not stand for election for `secs` (0 unfreezes). */
export const replSetFreeze: CommandDefinition = {
  names: ['replSetFreeze'],
  adminOnly: true,
  run(context) {
    return replCoordinator(context).freeze(Number(context.command.replSetFreeze ?? 0));
  },
};
