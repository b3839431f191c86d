import { dropIndexesEvents } from '../changes/index.ts';
import { CommandError } from '../errors.ts';
import type { Document } from '../engine/types.ts';
import { collectionName } from './lib/namespace.ts';
import type { CommandDefinition } from './types.ts';

export const dropIndexes: CommandDefinition = {
  names: ['dropIndexes', 'deleteIndexes'],
  acceptsWriteConcern: true,
  run(context) {
    const coll = collectionName(context);
    const { db, server, command } = context;
    const collection = server.catalog.getCollection(db, coll);
    if (!collection) throw new CommandError('NamespaceNotFound', `ns not found ${db}.${coll}`);
    const which = command.index;
    if (which === undefined)
      throw new CommandError('Location40414', "BSON field 'dropIndexes.index' is missing but a required field");
    const before = collection.listIndexes();
    const result = collection.dropIndexes(which as string | string[] | Document);
    const remaining = new Set(collection.listIndexes().map((i) => i.name));
    const dropped = before.filter((i) => !remaining.has(i.name as string));
    for (const event of dropIndexesEvents(collection, dropped)) server.changeStreams.recordCommand(event);
    return result;
  },
};
