import { findInOplog, isOplog } from '../changes/index.ts';
import type { Document, FindOptions } from '../engine/types.ts';
import { letVariables } from './lib/letVariables.ts';
import { collectionName } from './lib/namespace.ts';
import { optionalBoolean, optionalCount, optionalDocument } from '../engine/documentFields.ts';
import { findOnView } from './lib/viewReads.ts';
import type { CommandDefinition } from './types.ts';

/** `find`: the whole result is computed at once and handed out through a cursor. */
export const find: CommandDefinition = {
  names: ['find'],
  run(context) {
    const coll = collectionName(context);
    const { command, db, server } = context;
    server.counters.opcounters.query += 1;
    const filter = optionalDocument(command, 'filter') ?? {};
    const options = findOptions(command, letVariables(context));
    if (command.tailable === true && isOplog(db, coll)) {
      // An oplog fetcher's cursor (src/changes/oplogTail.ts): it stays open at the end of the oplog.
      return { cursor: server.changeStreams.tails.open(filter, optionalCount(command, 'batchSize')) };
    }
    const results = isOplog(db, coll)
      ? findInOplog(server.changeStreams.oplog, filter, options)
      : server.catalog.view(db, coll)
        ? findOnView(server.catalog, db, coll, filter, options)
        : (server.catalog.getCollection(db, coll)?.find(filter, options) ?? []);
    const cursor = server.cursors.open(`${db}.${coll}`, results, {
      batchSize: optionalCount(command, 'batchSize'),
      singleBatch: optionalBoolean(command, 'singleBatch') ?? false,
    });
    return { cursor };
  },
};

function findOptions(command: Document, variables: Document | undefined): FindOptions {
  const options: FindOptions = {};
  const sort = optionalDocument(command, 'sort');
  const projection = optionalDocument(command, 'projection');
  const skip = optionalCount(command, 'skip');
  const limit = optionalCount(command, 'limit');
  if (sort) options.sort = sort;
  if (projection) options.projection = projection;
  if (skip) options.skip = skip;
  if (limit) options.limit = limit;
  if (variables) options.let = variables;
  if (command.hint !== undefined) options.hint = command.hint as FindOptions['hint'];
  if (command.collation !== undefined) options.collation = command.collation as FindOptions['collation'];
  return options;
}
