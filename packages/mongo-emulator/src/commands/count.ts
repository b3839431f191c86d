import { collectionName } from './lib/namespace.ts';
import { optionalCount, optionalDocument } from '../engine/documentFields.ts';
import { countOnView } from './lib/viewReads.ts';
import type { Document } from '../engine/types.ts';
import type { CommandDefinition } from './types.ts';

export const count: CommandDefinition = {
  names: ['count'],
  run(context) {
    const coll = collectionName(context);
    const { command, db, server } = context;
    server.counters.opcounters.query += 1;
    const query = optionalDocument(command, 'query') ?? {};
    // mongod plans a count like a find: with `hint`, on that index or refused (BadValue).
    const hint = command.hint as string | Document | undefined;
    const options = {
      skip: optionalCount(command, 'skip'),
      limit: optionalCount(command, 'limit'),
      ...(hint === undefined ? {} : { hint }),
    };
    if (server.catalog.view(db, coll)) return { n: countOnView(server.catalog, db, coll, query, options) };
    return { n: server.catalog.getCollection(db, coll)?.count(query, options) ?? 0 };
  },
};
