import { isOplog, oplogCollStats } from '../changes/index.ts';
import { CommandError } from '../errors.ts';
import { collectionName } from './lib/namespace.ts';
import type { CommandDefinition } from './types.ts';

/**
 * `collStats` (deprecated since 6.2, still answered by 7.0): answered for local.oplog.rs, whose
 * `size`, `count` and `maxSize` are what the oplog window is computed from; other collections
 * keep no storage figures here.
 */
export const collStats: CommandDefinition = {
  names: ['collStats'],
  run(context) {
    const coll = collectionName(context);
    const scale = context.command.scale === undefined ? 1 : Number(context.command.scale);
    if (!(scale >= 1)) throw new CommandError('BadValue', 'scale has to be >= 1');
    if (!isOplog(context.db, coll)) {
      throw new CommandError(
        'CommandNotSupported',
        `mongo-emulator answers collStats only for local.oplog.rs, not ${context.db}.${coll}`,
      );
    }
    return oplogCollStats(context.server.changeStreams.oplog, Math.floor(scale));
  },
};
