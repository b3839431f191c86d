import type { Collection } from '../../engine/collection.ts';
import { optionalBoolean } from '../../engine/documentFields.ts';
import type { CommandContext } from '../types.ts';

/** Runs a write on `collection`, skipping its validator when the command says `bypassDocumentValidation`. */
export function validatedWrite<T>(
  context: CommandContext,
  collection: Collection,
  write: (collection: Collection) => T,
): T {
  const bypass = optionalBoolean(context.command, 'bypassDocumentValidation') ?? false;
  return bypass ? collection.withoutValidation(() => write(collection)) : write(collection);
}
