import type { CommandDefinition } from './types.ts';

/** `killAllSessions`: there are no users, so every pattern matches every session (and its transaction). */
export const killAllSessions: CommandDefinition = {
  names: ['killAllSessions'],
  run({ server }) {
    server.transactions.abandonSessions('all');
    server.sessions.clear();
    return {};
  },
};
