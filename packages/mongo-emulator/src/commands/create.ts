import { collectionName } from './lib/namespace.ts';
import type { CommandDefinition } from './types.ts';

/** Options that are the command's envelope, not the collection's. */
const ENVELOPE_FIELDS = new Set(['create', '$db', 'lsid', 'txnNumber', 'autocommit', 'startTransaction', 'readConcern', '$clusterTime', 'writeConcern', 'comment', '$readPreference', 'apiVersion', 'apiStrict', 'apiDeprecationErrors', 'maxTimeMS']);

export const create: CommandDefinition = {
  names: ['create'],
  acceptsWriteConcern: true,
  run(context) {
    const coll = collectionName(context);
    const options = Object.fromEntries(Object.entries(context.command).filter(([key]) => !ENVELOPE_FIELDS.has(key)));
    context.server.catalog.createCollection(context.db, coll, options);
    return {};
  },
};
