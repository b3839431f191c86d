import type { Document } from '../engine/types.ts';
import { CommandError } from '../errors.ts';
import type { CommandDefinition } from './types.ts';

/** `replSetInitiate`: the first configuration (replication_coordinator_impl.cpp, processReplSetInitiate). */
export const replSetInitiate: CommandDefinition = {
  names: ['replSetInitiate'],
  adminOnly: true,
  run({ server, command }) {
    // A one-node emulator is a set initiated at start, as mongod after its own replSetInitiate.
    if (!server.repl) throw new CommandError('AlreadyInitialized', 'already initialized');
    const config = command.replSetInitiate;
    server.repl.initiate(config && typeof config === 'object' ? (config as Document) : undefined);
    return {};
  },
};
