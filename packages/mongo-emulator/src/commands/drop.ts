import { viewDropEvent } from '../changes/index.ts';
import { collectionName } from './lib/namespace.ts';
import type { CommandDefinition } from './types.ts';

/** `drop`: as mongod 7.0, dropping a collection that does not exist succeeds. */
export const drop: CommandDefinition = {
  names: ['drop'],
  acceptsWriteConcern: true,
  run(context) {
    const coll = collectionName(context);
    const { catalog } = context.server;
    const collection = catalog.getCollection(context.db, coll);
    const nIndexesWas = collection?.listIndexes().length;
    const isView = catalog.view(context.db, coll) !== undefined;
    if (catalog.dropCollection(context.db, coll)) {
      context.server.changeStreams.recordCommand(
        isView
          ? viewDropEvent(context.db, coll)
          : { op: 'drop', db: context.db, coll, collectionUUID: collection?.uuid },
      );
    }
    const ns = `${context.db}.${coll}`;
    return nIndexesWas === undefined ? { ns } : { nIndexesWas, ns };
  },
};
