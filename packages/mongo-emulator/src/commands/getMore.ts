import { CommandError } from '../errors.ts';
import { bsonTypeName } from '../engine/bsonTypeName.ts';
import { optionalCount } from '../engine/documentFields.ts';
import type { CommandDefinition } from './types.ts';

/** `getMore`: the next batch of an open cursor (batchSize 0 or absent: up to 16 MiB). */
export const getMore: CommandDefinition = {
  names: ['getMore'],
  run({ command, db, server, connection }) {
    const id = command.getMore;
    if (typeof id !== 'bigint') {
      throw new CommandError('TypeMismatch', `BSON field 'getMore.getMore' is the wrong type '${bsonTypeName(id)}', expected type 'long'`);
    }
    if (typeof command.collection !== 'string') {
      throw new CommandError('TypeMismatch', "BSON field 'getMore.collection' is missing or not a string");
    }
    server.counters.opcounters.getmore += 1;
    const batchSize = optionalCount(command, 'batchSize') || undefined;
    const ns = `${db}.${command.collection}`;
    const afterCheckout = () => server.failPoints.checkGetMoreAfterCheckout({ appName: connection.appName, namespace: ns });
    if (server.changeStreams.owns(id)) {
      return server.changeStreams.getMore({
        id,
        ns,
        batchSize,
        maxTimeMS: optionalCount(command, 'maxTimeMS'),
        command,
        connection,
        signals: [connection.closeSignal],
        afterCheckout,
      });
    }
    return { cursor: server.cursors.getMore(id, ns, batchSize, afterCheckout) };
  },
};
