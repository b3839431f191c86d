import type { CommandDefinition } from './types.ts';

/** `refreshSessions`: sessions here are kept alive by use; nothing to extend. */
export const refreshSessions: CommandDefinition = {
  names: ['refreshSessions'],
  run: () => ({}),
};
