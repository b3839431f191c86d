import type { CommandDefinition } from './types.ts';

/** `configureFailPoint`, as mongod with enableTestCommands=1; only `failCommand` is known. */
export const configureFailPoint: CommandDefinition = {
  names: ['configureFailPoint'],
  adminOnly: true,
  run({ command, server }) {
    const count = server.failPoints.configure(command.configureFailPoint, command.mode, command.data);
    return { count };
  },
};
