// Values printed as mongod prints them in messages (BSONElement::toString), e.g. in
// `E11000 ... dup key: { a: "x", n: 1 }`.
import type { Binary, Decimal128, ObjectId, Timestamp } from 'bson';
import { numericKind } from './numeric.ts';

export function formatValue(v: unknown): string {
  if (v === undefined) return 'undefined';
  if (v === null) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (typeof v === 'number') {
    if (numericKind(v) === 'double' && Number.isInteger(v)) return `${v}.0`;
    return String(v);
  }
  if (Array.isArray(v)) return v.length === 0 ? '[]' : `[ ${v.map(formatValue).join(', ')} ]`;
  if (v instanceof Date) return `new Date(${v.getTime()})`;
  switch ((v as { _bsontype?: string })._bsontype) {
    case 'ObjectId':
      return `ObjectId('${(v as ObjectId).toHexString()}')`;
    case 'Decimal128':
      return `NumberDecimal("${(v as Decimal128).toString()}")`;
    case 'Timestamp':
      return `Timestamp(${(v as Timestamp).t}, ${(v as Timestamp).i})`;
    case 'Binary': {
      const b = v as Binary;
      return `BinData(${b.sub_type}, ${Buffer.from(b.buffer.subarray(0, b.length())).toString('hex').toUpperCase()})`;
    }
    case 'BSONRegExp': {
      const r = v as { pattern: string; options: string };
      return `/${r.pattern}/${r.options}`;
    }
    case 'MinKey':
      return 'MinKey';
    case 'MaxKey':
      return 'MaxKey';
  }
  return formatDocument(v as Record<string, unknown>);
}

export function formatDocument(doc: Record<string, unknown>): string {
  const entries = Object.entries(doc);
  if (entries.length === 0) return '{}';
  return `{ ${entries.map(([k, val]) => `${k}: ${formatValue(val)}`).join(', ')} }`;
}
