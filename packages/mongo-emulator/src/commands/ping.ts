import type { CommandDefinition } from './types.ts';

export const ping: CommandDefinition = {
  names: ['ping'],
  run: () => ({}),
};
