import { checkValidationOptions } from '../engine/documentValidation.ts';
import { ownOptions } from './lib/genericArguments.ts';
import { collectionName } from './lib/namespace.ts';
import type { CommandDefinition } from './types.ts';

/** `create`: the collection with its options (a validator must compile first). */
export const create: CommandDefinition = {
  names: ['create'],
  acceptsWriteConcern: true,
  run(context) {
    const coll = collectionName(context);
    const options = ownOptions(context.command, 'create');
    checkValidationOptions(options, { now: new Date() });
    context.server.catalog.createCollection(context.db, coll, options);
    return {};
  },
};
