import { CommandError } from '../errors.ts';
import { createIndexesEvents } from '../changes/index.ts';
import type { IndexSpec } from '../engine/types.ts';
import { writableCollectionName } from './lib/namespace.ts';
import { requiredArray } from '../engine/documentFields.ts';
import type { CommandDefinition } from './types.ts';

/** `createIndexes`: creates the collection when needed, as mongod does. */
export const createIndexes: CommandDefinition = {
  names: ['createIndexes'],
  acceptsWriteConcern: true,
  run(context) {
    const coll = writableCollectionName(context);
    const specs = requiredArray(context.command, 'indexes', 'createIndexes');
    if (specs.length === 0) throw new CommandError('BadValue', 'Must specify at least one index to create');
    for (const spec of specs) {
      if (spec === null || typeof spec !== 'object' || typeof spec.key !== 'object' || spec.key === null) {
        throw new CommandError('FailedToParse', "Error in specification: the 'key' field is required");
      }
      if (typeof spec.name !== 'string' || spec.name.length === 0) {
        throw new CommandError(
          'FailedToParse',
          `Error in specification ${JSON.stringify(spec)} :: caused by :: The 'name' field is a required property of an index specification`,
        );
      }
    }
    const { catalog } = context.server;
    const existed = catalog.getCollection(context.db, coll) !== undefined;
    const collection = catalog.getOrCreateCollection(context.db, coll);
    const before = new Set(collection.listIndexes().map((i) => i.name));
    const result = collection.createIndexes(specs as IndexSpec[]);
    const created = collection.listIndexes().filter((i) => !before.has(i.name));
    for (const event of createIndexesEvents(collection, created, collection.size === 0))
      context.server.changeStreams.recordCommand(event);
    return { ...result, createdCollectionAutomatically: !existed };
  },
};
