// Proves the filter compiler matches as mongod does, operator family by operator family, and
// rejects malformed filters with mongod's codes.
import { BSONRegExp, Decimal128, ObjectId, Timestamp } from 'bson';
import { describe, expect, it } from 'vitest';
import { compileFilter } from '../../src/engine/match.ts';
import type { Document } from '../../src/engine/types.ts';

const now = new Date('2024-01-01T00:00:00Z');
const matches = (filter: Document, doc: Document, variables?: Document) =>
  compileFilter(filter, { now, clusterTime: new Timestamp({ t: 1, i: 1 }), variables })(doc);
const codeOf = (fn: () => unknown): number | undefined => {
  try {
    fn();
  } catch (e) {
    return (e as { code?: number }).code;
  }
  return undefined;
};

describe('equality', () => {
  it('matches numbers across int, long, double and decimal', () => {
    expect(matches({ a: 1 }, { a: 1n })).toBe(true);
    expect(matches({ a: 5n }, { a: 5 })).toBe(true);
    expect(matches({ a: Decimal128.fromString('2') }, { a: 2 })).toBe(true);
  });
  it('matches ObjectIds by value', () => {
    const id = new ObjectId();
    expect(matches({ _id: new ObjectId(id.toHexString()) }, { _id: id })).toBe(true);
  });
  it('lets null match missing and null but not other values', () => {
    expect(matches({ a: null }, {})).toBe(true);
    expect(matches({ a: null }, { a: null })).toBe(true);
    expect(matches({ a: null }, { a: 0 })).toBe(false);
  });
  it('matches an array field by element or as a whole', () => {
    expect(matches({ a: 2 }, { a: [1, 2] })).toBe(true);
    expect(matches({ a: [1, 2] }, { a: [1, 2] })).toBe(true);
    expect(matches({ a: [2, 1] }, { a: [1, 2] })).toBe(false);
    expect(matches({ a: 1 }, { a: [[1]] })).toBe(false);
  });
  it('follows dotted paths through arrays of documents and array indexes', () => {
    const doc = { a: [{ b: 1 }, { b: 2 }], c: { d: [5, 6] } };
    expect(matches({ 'a.b': 2 }, doc)).toBe(true);
    expect(matches({ 'a.1.b': 2 }, doc)).toBe(true);
    expect(matches({ 'a.0.b': 2 }, doc)).toBe(false);
    expect(matches({ 'c.d.1': 6 }, doc)).toBe(true);
  });
  it('compares embedded documents by field order', () => {
    expect(matches({ a: { x: 1, y: 2 } }, { a: { x: 1, y: 2 } })).toBe(true);
    expect(matches({ a: { y: 2, x: 1 } }, { a: { x: 1, y: 2 } })).toBe(false);
  });
});

describe('comparison operators', () => {
  it('hold only within one type bracket', () => {
    expect(matches({ a: { $gt: 1 } }, { a: 'zzz' })).toBe(false);
    expect(matches({ a: { $lt: 'a' } }, { a: 1 })).toBe(false);
    expect(matches({ a: { $gte: 10n } }, { a: 10 })).toBe(true);
    expect(matches({ a: { $lte: new Date(5) } }, { a: new Date(4) })).toBe(true);
  });
  it('treat $gte/$lte null as equality with null', () => {
    expect(matches({ a: { $gte: null } }, {})).toBe(true);
    expect(matches({ a: { $lt: null } }, {})).toBe(false);
  });
  it('apply $ne and $nin to every element', () => {
    expect(matches({ a: { $ne: 1 } }, { a: [1, 2] })).toBe(false);
    expect(matches({ a: { $ne: 3 } }, { a: [1, 2] })).toBe(true);
    expect(matches({ a: { $nin: [3, 4] } }, {})).toBe(true);
    expect(matches({ a: { $in: [null] } }, {})).toBe(true);
  });
  it('accept regexes inside $in', () => {
    expect(matches({ a: { $in: [/^x/] } }, { a: 'xyz' })).toBe(true);
  });
  it('refuse a non-array $in with BadValue', () => {
    expect(codeOf(() => matches({ a: { $in: 1 } }, {}))).toBe(2);
  });
});

describe('logical operators', () => {
  it('combine with $and, $or, $nor', () => {
    expect(matches({ $or: [{ a: 1 }, { b: 1 }] }, { b: 1 })).toBe(true);
    expect(matches({ $and: [{ a: 1 }, { b: 1 }] }, { b: 1 })).toBe(false);
    expect(matches({ $nor: [{ a: 1 }] }, { a: 2 })).toBe(true);
  });
  it('negate with $not', () => {
    expect(matches({ a: { $not: { $gt: 5 } } }, { a: 3 })).toBe(true);
    expect(matches({ a: { $not: /^x/ } }, { a: 'xa' })).toBe(false);
  });
  it('reject empty $and and unknown operators with BadValue', () => {
    expect(codeOf(() => matches({ $and: [] }, {}))).toBe(2);
    expect(codeOf(() => matches({ $foo: 1 }, {}))).toBe(2);
    expect(codeOf(() => matches({ a: { $foo: 1 } }, {}))).toBe(2);
    expect(codeOf(() => matches({ $where: 'true' }, {}))).toBe(2);
  });
});

describe('element and evaluation operators', () => {
  it('test $exists on missing, null and nested fields', () => {
    expect(matches({ a: { $exists: true } }, { a: null })).toBe(true);
    expect(matches({ a: { $exists: false } }, {})).toBe(true);
    expect(matches({ 'a.b': { $exists: true } }, { a: [{ c: 1 }, { b: 1 }] })).toBe(true);
  });
  it('test $type by name, number and "number"', () => {
    expect(matches({ a: { $type: 'long' } }, { a: 1n })).toBe(true);
    expect(matches({ a: { $type: 'int' } }, { a: 1n })).toBe(false);
    expect(matches({ a: { $type: 18 } }, { a: 1n })).toBe(true);
    expect(matches({ a: { $type: 'number' } }, { a: 1.5 })).toBe(true);
    expect(matches({ a: { $type: 'array' } }, { a: [] })).toBe(true);
    expect(matches({ a: { $type: 'string' } }, { a: ['x'] })).toBe(true);
  });
  it('match $regex with $options and BSON regexes', () => {
    expect(matches({ a: { $regex: '^ab', $options: 'i' } }, { a: 'ABc' })).toBe(true);
    expect(matches({ a: new BSONRegExp('b$', '') }, { a: 'ab' })).toBe(true);
    expect(matches({ a: { $regex: 'a b # comment', $options: 'x' } }, { a: 'ab' })).toBe(true);
  });
  it('computes $mod with truncation', () => {
    expect(matches({ a: { $mod: [4, 1] } }, { a: 5 })).toBe(true);
    expect(matches({ a: { $mod: [4, 1] } }, { a: 5.9 })).toBe(true);
    expect(codeOf(() => matches({ a: { $mod: [0, 1] } }, { a: 1 }))).toBe(2);
  });
  it('evaluates $expr with $$NOW and let variables', () => {
    expect(matches({ $expr: { $lte: ['$at', '$$NOW'] } }, { at: new Date('2023-01-01') })).toBe(true);
    expect(matches({ $expr: { $gt: ['$at', '$$NOW'] } }, { at: new Date('2023-01-01') })).toBe(false);
    expect(matches({ $expr: { $eq: ['$a', '$$x'] } }, { a: 3n }, { x: 3 })).toBe(true);
  });
  it('compares longs exactly inside $expr', () => {
    expect(matches({ $expr: { $gte: ['$balance', 100n] } }, { balance: 99n })).toBe(false);
    expect(matches({ $expr: { $gte: ['$balance', 100n] } }, { balance: 150n })).toBe(true);
  });
  it('validates with a basic $jsonSchema', () => {
    const schema = { $jsonSchema: { bsonType: 'object', required: ['a'], properties: { a: { bsonType: 'long' } } } };
    expect(matches(schema, { a: 1n })).toBe(true);
    expect(matches(schema, { a: 1 })).toBe(false);
    expect(matches(schema, {})).toBe(false);
  });
  it('ignores $comment', () => {
    expect(matches({ $comment: 'x', a: 1 }, { a: 1 })).toBe(true);
  });
});

describe('array operators', () => {
  it('match $elemMatch on documents and on values', () => {
    const doc = {
      a: [
        { x: 1, y: 2 },
        { x: 2, y: 1 },
      ],
      n: [1, 5, 9],
    };
    expect(matches({ a: { $elemMatch: { x: 1, y: 1 } } }, doc)).toBe(false);
    expect(matches({ a: { $elemMatch: { x: 2, y: 1 } } }, doc)).toBe(true);
    expect(matches({ n: { $elemMatch: { $gt: 4, $lt: 6 } } }, doc)).toBe(true);
  });
  it('match $all and $size', () => {
    expect(matches({ a: { $all: [1, 3] } }, { a: [3, 2, 1] })).toBe(true);
    expect(matches({ a: { $all: [1, 4] } }, { a: [3, 2, 1] })).toBe(false);
    expect(matches({ a: { $size: 2 } }, { a: [[1, 2, 3], 4] })).toBe(true);
    expect(matches({ a: { $size: 3 } }, { a: [[1, 2, 3], 4] })).toBe(false);
  });
  it('test bits with $bitsAllSet and $bitsAnyClear', () => {
    expect(matches({ a: { $bitsAllSet: [0, 2] } }, { a: 5 })).toBe(true);
    expect(matches({ a: { $bitsAllSet: 6 } }, { a: 5 })).toBe(false);
    expect(matches({ a: { $bitsAnyClear: 2 } }, { a: 5 })).toBe(true);
  });
});

describe('collation', () => {
  it('matches case-insensitively at strength 2', () => {
    const test = compileFilter({ a: 'abc' }, { now, collation: { locale: 'en', strength: 2 } });
    expect(test({ a: 'ABC' })).toBe(true);
    expect(test({ a: 'abd' })).toBe(false);
  });
});
