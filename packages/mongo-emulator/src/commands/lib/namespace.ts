import { CommandError } from '../../errors.ts';
import type { CommandContext } from '../types.ts';

/** The collection a command names in its first field (`{find: 'coll'}`), checked as mongod does. */
export function collectionName({ command, name, db }: CommandContext): string {
  const value = command[name];
  if (typeof value !== 'string') {
    throw new CommandError('InvalidNamespace', `collection name has invalid type ${bsonTypeName(value)}`);
  }
  if (value.length === 0 || value.includes('\0') || value.startsWith('.') || value.startsWith('$')) {
    throw new CommandError('InvalidNamespace', `Invalid namespace specified '${db}.${value}'`);
  }
  return value;
}

/** The collection a write command names; a view cannot be written (CommandNotSupportedOnView). */
export function writableCollectionName(context: CommandContext): string {
  const name = collectionName(context);
  if (context.server.catalog.view(context.db, name)) {
    throw new CommandError('CommandNotSupportedOnView', `Namespace ${context.db}.${name} is a view, not a collection`);
  }
  return name;
}

/** The BSON type name mongod uses in its "has invalid type" messages. */
export function bsonTypeName(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'missing';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'bigint') return 'long';
  if (typeof value === 'number') return Number.isInteger(value) && Math.abs(value) < 2 ** 31 ? 'int' : 'double';
  if (Array.isArray(value)) return 'array';
  if (value instanceof Date) return 'date';
  const bsontype = (value as { _bsontype?: string })._bsontype;
  return bsontype ? bsontype.toLowerCase() : 'object';
}
