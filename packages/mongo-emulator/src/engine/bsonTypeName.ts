// Below the commands and the change streams, which both name a value's type in their errors.

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
