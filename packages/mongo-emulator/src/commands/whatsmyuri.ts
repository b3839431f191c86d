import type { CommandDefinition } from './types.ts';

export const whatsmyuri: CommandDefinition = {
  names: ['whatsmyuri'],
  run: ({ connection }) => ({ you: connection.remoteAddress }),
};
