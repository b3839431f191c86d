import { CommandError } from '../errors.ts';
import { collectionName } from './lib/namespace.ts';
import type { CommandDefinition } from './types.ts';

const COLLECTIONLESS_AGGREGATE = '$cmd.aggregate';

export const killCursors: CommandDefinition = {
  names: ['killCursors'],
  run(context) {
    // A cursor of `aggregate: 1` lives on `<db>.$cmd.aggregate`, the namespace the driver names.
    if (context.command.killCursors !== COLLECTIONLESS_AGGREGATE) collectionName(context);
    const ids = context.command.cursors;
    if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'bigint')) {
      throw new CommandError('TypeMismatch', "BSON field 'killCursors.cursors' must be an array of longs");
    }
    const streams = [
      ...context.server.changeStreams.kill(ids as bigint[]),
      ...context.server.changeStreams.tails.kill(ids as bigint[]),
    ];
    const { killed, notFound } = context.server.cursors.kill((ids as bigint[]).filter((id) => !streams.includes(id)));
    return { cursorsKilled: [...streams, ...killed], cursorsNotFound: notFound, cursorsAlive: [], cursorsUnknown: [] };
  },
};
