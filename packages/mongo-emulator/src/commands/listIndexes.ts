import { CommandError } from '../errors.ts';
import { collectionName } from './lib/namespace.ts';
import { optionalCount, optionalDocument } from '../engine/documentFields.ts';
import type { CommandDefinition } from './types.ts';

export const listIndexes: CommandDefinition = {
  names: ['listIndexes'],
  run(context) {
    const coll = collectionName(context);
    const { db, server, command } = context;
    const collection = server.catalog.getCollection(db, coll);
    if (!collection) throw new CommandError('NamespaceNotFound', `ns does not exist: ${db}.${coll}`);
    const cursorOptions = optionalDocument(command, 'cursor') ?? {};
    return {
      cursor: server.cursors.open(`${db}.${coll}`, collection.listIndexes(), {
        batchSize: optionalCount(cursorOptions, 'batchSize'),
      }),
    };
  },
};
