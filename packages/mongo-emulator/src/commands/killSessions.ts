import { Binary } from 'bson';
import type { Document } from '../engine/types.ts';
import { CommandError } from '../errors.ts';
import { sessionKey } from '../session/SessionRegistry.ts';
import type { CommandDefinition } from './types.ts';

/**
 * `killSessions: [{ id: UUID }, ...]`: ends what the named sessions are doing (their open
 * transactions are aborted and release their writes at once); `killSessions: []` kills every
 * session of the logged-in user. As on mongod (src/mongo/db/commands/kill_sessions_command.cpp,
 * src/mongo/db/session/kill_sessions.idl): any database, no write concern, any user may kill
 * their own sessions (an lsid without `uid` is given the caller's), and naming another user's
 * `uid` needs the killAnySession privilege. The emulator has no users, so every session is the
 * caller's. The sessions stay known: the killed transaction's next statement is NoSuchTransaction.
 */
export const killSessions: CommandDefinition = {
  names: ['killSessions'],
  run({ command, server }) {
    const lsids = command.killSessions;
    if (!Array.isArray(lsids))
      throw new CommandError(
        'TypeMismatch',
        "BSON field 'KillSessionsCmdFromClient.killSessions' is the wrong type, expected type 'array'",
      );
    if (lsids.length === 0) {
      server.transactions.killSessions('all');
      return {};
    }
    server.transactions.killSessions(lsids.map(checkedSessionKey));
    return {};
  },
};

function checkedSessionKey(lsid: unknown): string {
  if (lsid === null || typeof lsid !== 'object' || Array.isArray(lsid)) {
    throw new CommandError(
      'TypeMismatch',
      "BSON field 'KillSessionsCmdFromClient.killSessions' must be an array of objects",
    );
  }
  const { id, uid, ...rest } = lsid as Document;
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined)
    throw new CommandError('Location40415', `BSON field 'LogicalSessionFromClient.${unknown}' is an unknown field.`);
  if (!(id instanceof Binary))
    throw new CommandError('Location40414', "BSON field 'LogicalSessionFromClient.id' is missing but a required field");
  if (uid !== undefined && !(uid instanceof Binary))
    throw new CommandError(
      'TypeMismatch',
      "BSON field 'LogicalSessionFromClient.uid' is the wrong type, expected type 'binData'",
    );
  return sessionKey(lsid);
}
