import { checkValidationOptions } from '../engine/documentValidation.ts';
import { modifyEvent } from '../changes/index.ts';
import { CommandError } from '../errors.ts';
import { ownOptions } from './lib/genericArguments.ts';
import { collectionName } from './lib/namespace.ts';
import { refuseUnknownFields } from '../engine/documentFields.ts';
import type { CommandDefinition } from './types.ts';

/** The collection options collMod can change here; mongod's other ones are refused by name. */
const MODIFIABLE: ReadonlySet<string> = new Set([
  'validator',
  'validationLevel',
  'validationAction',
  'changeStreamPreAndPostImages',
]);

/** `collMod`: changes a collection's validation options (and its pre-/post-image setting). */
export const collMod: CommandDefinition = {
  names: ['collMod'],
  acceptsWriteConcern: true,
  run(context) {
    const coll = collectionName(context);
    const changes = ownOptions(context.command, 'collMod');
    refuseUnknownFields(changes, MODIFIABLE, 'collMod');
    checkValidationOptions(changes, { now: new Date() });
    const collection = context.server.catalog.getCollection(context.db, coll);
    if (!collection) throw new CommandError('NamespaceNotFound', `ns does not exist: ${context.db}.${coll}`);
    const optionsBefore = { ...collection.options };
    collection.setOptions(changes);
    context.server.changeStreams.recordCommand(modifyEvent(collection, changes, optionsBefore));
    return {};
  },
};
