import { viewCreateEvent } from '../changes/index.ts';
import { checkValidationOptions } from '../engine/documentValidation.ts';
import type { Document } from '../engine/types.ts';
import { CommandError } from '../errors.ts';
import { ownOptions } from './lib/genericArguments.ts';
import { collectionName } from './lib/namespace.ts';
import type { CommandDefinition } from './types.ts';

/** `create`: a collection with its options (a validator must compile first), or a view (`viewOn`). */
export const create: CommandDefinition = {
  names: ['create'],
  acceptsWriteConcern: true,
  run(context) {
    const coll = collectionName(context);
    const options = ownOptions(context.command, 'create');
    const { catalog } = context.server;
    if (options.viewOn !== undefined) {
      const view = viewDefinition(options);
      catalog.createView(context.db, coll, view);
      context.server.changeStreams.recordCommand(viewCreateEvent(context.db, coll, view));
      return {};
    }
    if (options.pipeline !== undefined)
      throw new CommandError('BadValue', "'pipeline' requires 'viewOn' to also be specified");
    checkValidationOptions(options, { now: new Date() });
    catalog.createCollection(context.db, coll, options);
    return {};
  },
};

function viewDefinition({ viewOn, pipeline = [] }: Document): { viewOn: string; pipeline: Document[] } {
  if (typeof viewOn !== 'string') throw new CommandError('TypeMismatch', "'viewOn' must be a string");
  if (viewOn.length === 0) throw new CommandError('BadValue', "'viewOn' cannot be empty");
  if (!Array.isArray(pipeline)) throw new CommandError('TypeMismatch', "'pipeline' must be an array");
  return { viewOn, pipeline: pipeline as Document[] };
}
