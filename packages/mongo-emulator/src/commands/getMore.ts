import { CommandError } from '../errors.ts';
import { bsonTypeName } from '../engine/bsonTypeName.ts';
import { optionalCount } from '../engine/documentFields.ts';
import { DEFAULT_AWAIT_DATA_TIMEOUT_MS } from '../changes/index.ts';
import { checkCanRunHere } from './lib/replicaSetRules.ts';
import type { CommandDefinition } from './types.ts';

/** `getMore`: the next batch of an open cursor (batchSize 0 or absent: up to 16 MiB). */
export const getMore: CommandDefinition = {
  names: ['getMore'],
  run({ command, db, server, connection }) {
    const id = command.getMore;
    if (typeof id !== 'bigint') {
      throw new CommandError(
        'TypeMismatch',
        `BSON field 'getMore.getMore' is the wrong type '${bsonTypeName(id)}', expected type 'long'`,
      );
    }
    if (typeof command.collection !== 'string') {
      throw new CommandError('TypeMismatch', "BSON field 'getMore.collection' is missing or not a string");
    }
    server.counters.opcounters.getmore += 1;
    const batchSize = optionalCount(command, 'batchSize') || undefined;
    const ns = `${db}.${command.collection}`;
    const afterCheckout = () =>
      server.failPoints.checkGetMoreAfterCheckout({ appName: connection.appName, namespace: ns });
    if (server.changeStreams.tails.owns(id)) {
      const maxTimeMS = optionalCount(command, 'maxTimeMS') ?? DEFAULT_AWAIT_DATA_TIMEOUT_MS;
      // The fetcher learns the commit point from its sync source's reply (oplog_fetcher.cpp's $replData).
      return server.changeStreams.tails
        .getMore(id, batchSize, maxTimeMS, [connection.closeSignal, server.stopSignal])
        .then((cursor) => (server.repl ? { cursor, $replData: server.repl.replData() } : { cursor }));
    }
    const repl = server.repl;
    if (repl !== undefined && server.changeStreams.owns(id)) {
      // A change stream read without secondaryOk on a member that is no longer primary fails, so
      // the driver resumes on the new primary (the error is labelled ResumableChangeStreamError).
      const checkout = afterCheckout;
      return server.changeStreams.getMore({
        id,
        ns,
        batchSize,
        maxTimeMS: optionalCount(command, 'maxTimeMS'),
        command,
        connection,
        signals: [connection.closeSignal],
        afterCheckout: () => {
          checkout();
          checkCanRunHere(repl, 'aggregate', command);
        },
      });
    }
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
