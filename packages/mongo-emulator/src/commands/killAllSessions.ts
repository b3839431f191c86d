import type { CommandDefinition } from './types.ts';

/** `killAllSessions`: there are no users, so every pattern matches every session. */
export const killAllSessions: CommandDefinition = {
  names: ['killAllSessions'],
  run({ server }) {
    server.sessions.clear();
    return {};
  },
};
