import { bsonTypeName } from '../../engine/bsonTypeName.ts';
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
