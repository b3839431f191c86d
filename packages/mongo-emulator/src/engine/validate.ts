// Checks a document must pass before it is stored, as mongod's storage validation does.
import { CommandError } from '../errors.ts';
import { documentSize } from './documentSize.ts';
import { isRegexValue } from './regex.ts';
import { isPlainObject } from './updatePath.ts';
import type { Document } from './types.ts';

/** mongod's maximum user document size (BSONObjMaxUserSize). */
export const DOCUMENT_SIZE_MAX_BYTES = 16 * 1024 * 1024;

export function validateForStorage(doc: Document): void {
  const id = doc._id;
  if (Array.isArray(id)) throw new CommandError('BadValue', "The '_id' value cannot be of type array");
  if (isRegexValue(id)) throw new CommandError('BadValue', "The '_id' value cannot be of type regex");
  if ('_id' in doc && id === undefined)
    throw new CommandError('BadValue', "The '_id' value cannot be of type undefined");
  // Since 5.0 mongod stores top-level '$'-prefixed names; only _id may hold none, at any depth.
  const dollar = dollarPrefixedName(id);
  if (dollar !== undefined) {
    throw new CommandError(
      'DollarPrefixedFieldName',
      `_id fields may not contain '$'-prefixed fields: ${dollar} is not valid for storage.`,
    );
  }
  const size = documentSize(doc);
  if (size > DOCUMENT_SIZE_MAX_BYTES) {
    throw new CommandError(
      'BSONObjectTooLarge',
      `object to insert too large. size in bytes: ${size}, max size: ${DOCUMENT_SIZE_MAX_BYTES}`,
    );
  }
}

/** DBRef fields keep their '$' names, as in mongod's storageValidEmbedded. */
const DBREF_FIELDS = new Set(['$ref', '$id', '$db']);

/** The first '$'-prefixed field name inside an embedded value, if any. */
function dollarPrefixedName(value: unknown): string | undefined {
  const entries: [string | undefined, unknown][] = Array.isArray(value)
    ? value.map((v) => [undefined, v])
    : isPlainObject(value)
      ? Object.entries(value)
      : [];
  for (const [key, nested] of entries) {
    if (key?.startsWith('$') && !DBREF_FIELDS.has(key)) return key;
    const found = dollarPrefixedName(nested);
    if (found !== undefined) return found;
  }
  return undefined;
}
