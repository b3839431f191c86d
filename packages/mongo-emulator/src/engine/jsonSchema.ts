// A basic $jsonSchema: bsonType/type, required, properties, enum, minimum/maximum,
// minLength/maxLength, minItems/maxItems, items, additionalProperties. Enough for validators
// that check shapes; the keywords mongod supports beyond these are not evaluated.
import { compareValues } from './compare.ts';
import { isNumeric, toDouble, typeName } from './numeric.ts';
import type { Document } from './types.ts';

const JSON_TYPES: Record<string, (v: unknown) => boolean> = {
  object: (v) => typeName(v) === 'object',
  array: Array.isArray,
  string: (v) => typeof v === 'string',
  number: isNumeric,
  boolean: (v) => typeof v === 'boolean',
  null: (v) => v === null,
};

function typeMatches(v: unknown, bsonType: unknown, jsonType: unknown): boolean {
  if (bsonType !== undefined) {
    const list = Array.isArray(bsonType) ? bsonType : [bsonType];
    if (!list.some((t) => (t === 'number' ? isNumeric(v) : typeName(v) === t))) return false;
  }
  if (jsonType !== undefined) {
    const list = Array.isArray(jsonType) ? jsonType : [jsonType];
    if (!list.some((t) => JSON_TYPES[t as string]?.(v) ?? false)) return false;
  }
  return true;
}

export function matchesSchema(value: unknown, schema: Document): boolean {
  if (!typeMatches(value, schema.bsonType, schema.type)) return false;
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => compareValues(e, value) === 0)) return false;
  if (isNumeric(value)) {
    const n = toDouble(value);
    if (schema.minimum !== undefined && n < toDouble(schema.minimum)) return false;
    if (schema.maximum !== undefined && n > toDouble(schema.maximum)) return false;
  }
  if (typeof value === 'string') {
    if (schema.minLength !== undefined && value.length < toDouble(schema.minLength)) return false;
    if (schema.maxLength !== undefined && value.length > toDouble(schema.maxLength)) return false;
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < toDouble(schema.minItems)) return false;
    if (schema.maxItems !== undefined && value.length > toDouble(schema.maxItems)) return false;
    const items = schema.items as Document | undefined;
    if (items && !value.every((el) => matchesSchema(el, items))) return false;
  }
  if (typeName(value) === 'object') return matchesObject(value as Document, schema);
  return true;
}

function matchesObject(doc: Document, schema: Document): boolean {
  const required = (schema.required as string[] | undefined) ?? [];
  if (!required.every((f) => doc[f] !== undefined)) return false;
  const properties = (schema.properties as Record<string, Document> | undefined) ?? {};
  for (const [name, sub] of Object.entries(properties)) {
    if (doc[name] !== undefined && !matchesSchema(doc[name], sub)) return false;
  }
  if (schema.additionalProperties === false) {
    if (Object.keys(doc).some((k) => !(k in properties))) return false;
  }
  return true;
}
