import { CommandError } from '../errors.ts';
import { isPlainObject } from '../engine/updatePath.ts';
import type { CommandDefinition } from './types.ts';

/**
 * `appendOplogNote: 1, data: {...}`: a no-op entry in the oplog (mongod's
 * oplog_note.cpp, AppendOplogNoteCmd), a write of its own on the clock, so the cluster time
 * reaches the entry's. Primary only (replicaSetRules: NotWritablePrimary elsewhere). Secondaries
 * ask the primary for one when a read's afterClusterTime is ahead of what they hold (see
 * ReplCoordinator.awaitReadConcern).
 */
export const appendOplogNote: CommandDefinition = {
  names: ['appendOplogNote'],
  adminOnly: true,
  run({ server, command }) {
    if (!isPlainObject(command.data)) throw new CommandError('NoSuchKey', "Missing required field 'data'");
    server.changeStreams.recordNoop(JSON.stringify(command.data));
    return {};
  },
};
