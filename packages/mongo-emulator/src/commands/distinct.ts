import type { Collation } from '../engine/types.ts';
import { CommandError } from '../errors.ts';
import { collectionName } from './lib/namespace.ts';
import { optionalDocument } from '../engine/documentFields.ts';
import { distinctOnView } from './lib/viewReads.ts';
import type { CommandDefinition } from './types.ts';

export const distinct: CommandDefinition = {
  names: ['distinct'],
  run(context) {
    const coll = collectionName(context);
    const { command, db, server } = context;
    if (typeof command.key !== 'string')
      throw new CommandError('TypeMismatch', "BSON field 'distinct.key' must be a string");
    server.counters.opcounters.query += 1;
    const query = optionalDocument(command, 'query') ?? {};
    const collation = optionalDocument(command, 'collation') as Collation | undefined;
    if (server.catalog.view(db, coll))
      return { values: distinctOnView(server.catalog, db, coll, command.key, query, collation) };
    return { values: server.catalog.getCollection(db, coll)?.distinct(command.key, query, { collation }) ?? [] };
  },
};
