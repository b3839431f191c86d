// Typed fields of a command or stage document, read as mongod's parsers read them (with its
// TypeMismatch/BadValue errors). Below the layers that parse arguments: commands and changes.
import { CommandError } from '../errors.ts';
import { bsonTypeName } from './bsonTypeName.ts';
import type { Document } from './types.ts';

/** Reads an optional non-negative integer field (int, long or whole double), as mongod accepts. */
export function optionalCount(command: Document, field: string): number | undefined {
  const value = command[field];
  if (value === undefined || value === null) return undefined;
  const n = typeof value === 'bigint' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n)) {
    throw new CommandError('TypeMismatch', `Field '${field}' should be an integer, got ${bsonTypeName(value)}`);
  }
  if (n < 0) throw new CommandError('BadValue', `${field} value must be non-negative, but received: ${n}`);
  return n;
}

export function optionalDocument(command: Document, field: string): Document | undefined {
  const value = command[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value) || (value as { _bsontype?: string })._bsontype) {
    throw new CommandError(
      'TypeMismatch',
      `BSON field '${field}' is the wrong type '${bsonTypeName(value)}', expected type 'object'`,
    );
  }
  return value as Document;
}

export function optionalBoolean(command: Document, field: string): boolean | undefined {
  const value = command[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return Number(value) !== 0;
  throw new CommandError(
    'TypeMismatch',
    `BSON field '${field}' is the wrong type '${bsonTypeName(value)}', expected type 'bool'`,
  );
}

/** mongod's IDL parsers refuse a field they do not declare (e.g. 8.0's update `sort` on 7.0). */
export function refuseUnknownFields(value: Document, known: ReadonlySet<string>, path: string): void {
  const unknown = Object.keys(value).find((field) => !known.has(field));
  if (unknown !== undefined)
    throw new CommandError('Location40415', `BSON field '${path}.${unknown}' is an unknown field.`);
}

export function requiredArray(command: Document, field: string, commandName: string): Document[] {
  const value = command[field];
  if (value === undefined) {
    throw new CommandError('Location40414', `BSON field '${commandName}.${field}' is missing but a required field`);
  }
  if (!Array.isArray(value)) {
    throw new CommandError(
      'TypeMismatch',
      `BSON field '${commandName}.${field}' is the wrong type '${bsonTypeName(value)}', expected type 'array'`,
    );
  }
  return value as Document[];
}
