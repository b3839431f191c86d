// Checks a document must pass before it is stored, as mongod's storage validation does.
import { calculateObjectSize } from 'bson';
import { CommandError } from '../errors.ts';
import { isRegexValue } from './regex.ts';
import type { Document } from './types.ts';

/** mongod's maximum user document size (BSONObjMaxUserSize). */
export const DOCUMENT_SIZE_MAX_BYTES = 16 * 1024 * 1024;

export function validateForStorage(doc: Document): void {
  const id = doc._id;
  if (Array.isArray(id)) throw new CommandError('BadValue', "The '_id' value cannot be of type array");
  if (isRegexValue(id)) throw new CommandError('BadValue', "The '_id' value cannot be of type regex");
  if ('_id' in doc && id === undefined) throw new CommandError('BadValue', "The '_id' value cannot be of type undefined");
  for (const key of Object.keys(doc)) {
    if (key.startsWith('$')) throw new CommandError('BadValue', `Document can't have $ prefixed field names: ${key}`);
  }
  const size = calculateObjectSize(doc);
  if (size > DOCUMENT_SIZE_MAX_BYTES) {
    throw new CommandError('BSONObjectTooLarge', `object to insert too large. size in bytes: ${size}, max size: ${DOCUMENT_SIZE_MAX_BYTES}`);
  }
}
