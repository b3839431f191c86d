import { CommandError } from '../errors.ts';
import type { CommandDefinition } from './types.ts';

/** `endSessions`: forgets the sessions, as the driver asks on close. */
export const endSessions: CommandDefinition = {
  names: ['endSessions'],
  run({ command, server }) {
    const lsids = command.endSessions;
    if (!Array.isArray(lsids)) throw new CommandError('TypeMismatch', "BSON field 'endSessions' must be an array of session ids");
    server.sessions.end(lsids);
    return {};
  },
};
