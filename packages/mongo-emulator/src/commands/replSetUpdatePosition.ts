import { replCoordinator } from './lib/replCoordinator.ts';
import type { CommandDefinition } from './types.ts';

/** `replSetUpdatePosition`: a syncing member reports its applied and durable optimes (internal). */
export const replSetUpdatePosition: CommandDefinition = {
  names: ['replSetUpdatePosition'],
  adminOnly: true,
  run(context) {
    replCoordinator(context).processUpdatePosition(context.command);
    return {};
  },
};
