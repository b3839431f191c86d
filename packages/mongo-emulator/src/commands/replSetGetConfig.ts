import { CommandError } from '../errors.ts';
import type { CommandDefinition } from './types.ts';

/** `replSetGetConfig`: the member's current configuration (a one-node emulator's is itself alone). */
export const replSetGetConfig: CommandDefinition = {
  names: ['replSetGetConfig'],
  adminOnly: true,
  run({ server }) {
    const repl = server.repl;
    if (!repl) {
      const { node } = server;
      return {
        config: {
          _id: node.setName,
          version: node.setVersion,
          term: Number(node.term),
          members: [
            {
              _id: 0,
              host: node.address,
              arbiterOnly: false,
              buildIndexes: true,
              hidden: false,
              priority: 1,
              tags: {},
              secondaryDelaySecs: 0n,
              votes: 1,
            },
          ],
          protocolVersion: 1n,
          writeConcernMajorityJournalDefault: true,
          settings: { electionTimeoutMillis: 10000n, heartbeatIntervalMillis: 2000n },
        },
      };
    }
    if (!repl.config) throw new CommandError('NotYetInitialized', 'no replset config has been received');
    return { config: { ...repl.config, term: Number(repl.term) } };
  },
};
