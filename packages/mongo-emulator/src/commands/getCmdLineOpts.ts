import type { CommandDefinition } from './types.ts';

export const getCmdLineOpts: CommandDefinition = {
  names: ['getCmdLineOpts'],
  adminOnly: true,
  run: ({ server }) => ({ argv: server.startOptions.argv, parsed: server.startOptions.parsed }),
};
