import { CommandError } from '../errors.ts';
import { sessionKey } from '../session/SessionRegistry.ts';
import type { CommandDefinition } from './types.ts';

/** `endSessions`: forgets the sessions (aborting their open transactions), as the driver asks on close. */
export const endSessions: CommandDefinition = {
  names: ['endSessions'],
  run({ command, server }) {
    const lsids = command.endSessions;
    if (!Array.isArray(lsids))
      throw new CommandError('TypeMismatch', "BSON field 'endSessions' must be an array of session ids");
    server.transactions.abandonSessions(lsids.map(sessionKey));
    server.sessions.end(lsids);
    return {};
  },
};
