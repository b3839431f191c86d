// Proves the matching rules of the unified test format on hand-made values: no server needed.
import { Binary, Double, EJSON, Int32, Long, ObjectId, Timestamp } from 'bson';
import { describe, expect, it } from 'vitest';
import { Matcher, exactDifference, type MatchEntities } from './matcher.ts';

const lsid = { id: new Binary(Buffer.alloc(16, 7), 4) };
const entities: MatchEntities = {
  sessionLsid: (name) => {
    if (name !== 'session0') throw new Error(`no session ${name}`);
    return lsid;
  },
  bsonEntity: (name) => (name === 'savedId' ? 42 : undefined),
};
const matcher = new Matcher(entities);
const parse = (text: string): unknown => EJSON.parse(text, { relaxed: false });

describe('numbers', () => {
  it('treats int, long and double of the same value as equal', () => {
    expect(matcher.matchRoot(new Int32(1), 1)).toBeNull();
    expect(matcher.matchRoot(new Long(1), new Double(1))).toBeNull();
    expect(matcher.matchRoot(parse('{"n": 1}'), { n: 1.0 })).toBeNull();
    expect(
      matcher.matchRoot(parse('{"n": {"$numberLong": "9007199254740993"}}'), {
        n: Long.fromString('9007199254740993'),
      }),
    ).toBeNull();
  });

  it('refuses different values and non-numbers', () => {
    expect(matcher.matchRoot(new Int32(1), 1.5)).toMatch(/expected 1, got 1.5/);
    expect(matcher.matchRoot(new Int32(1), '1')).not.toBeNull();
    expect(
      matcher.matchRoot(parse('{"n": {"$numberLong": "9007199254740993"}}'), { n: 9007199254740992 }),
    ).not.toBeNull();
  });
});

describe('extra keys', () => {
  it('allows extra keys in the root document', () => {
    expect(matcher.matchRoot({ x: 1 }, { x: 1, y: 1 })).toBeNull();
  });

  it('refuses extra keys in nested documents and names them', () => {
    expect(matcher.matchRoot({ x: { y: 1 } }, { x: { y: 1, z: 1 } })).toMatch(/x: unexpected key\(s\) z/);
  });

  it('refuses a missing key', () => {
    expect(matcher.matchRoot({ x: 1, y: 1 }, { x: 1 })).toMatch(/^y: missing/);
  });

  it('treats each document of a cursor result as root, but not elements of a plain array', () => {
    expect(matcher.matchDocumentList([{ _id: 1 }], [{ _id: 1, x: 2 }])).toBeNull();
    expect(matcher.matchNested([{ _id: 1 }], [{ _id: 1, x: 2 }])).not.toBeNull();
    expect(matcher.matchDocumentList([{ _id: 1 }], [{ _id: 1 }, { _id: 2 }])).toMatch(/expected 1 documents, got 2/);
  });

  it('matches a Map (how the driver sends sort documents) as a document', () => {
    expect(matcher.matchRoot({ sort: { _id: 1 } }, { sort: new Map([['_id', 1]]) })).toBeNull();
    expect(matcher.matchRoot({ sort: { _id: 1 } }, { sort: new Map([['_id', -1]]) })).toMatch(/sort._id/);
  });

  it('ignores key order', () => {
    expect(matcher.matchNested({ a: 1, b: 2 }, { b: 2, a: 1 })).toBeNull();
  });
});

describe('special operators', () => {
  it('$$exists asserts presence or absence of a key', () => {
    expect(matcher.matchRoot({ a: { $$exists: true } }, { a: null })).toBeNull();
    expect(matcher.matchRoot({ a: { $$exists: true } }, {})).toMatch(/a: expected the key to exist/);
    expect(matcher.matchRoot({ a: { $$exists: false } }, {})).toBeNull();
    expect(matcher.matchRoot({ a: { $$exists: false } }, { a: 1 })).toMatch(/a: expected no key/);
  });

  it('$$unsetOrMatches accepts an absent value or a matching one', () => {
    expect(matcher.matchRoot({ insertedId: { $$unsetOrMatches: 2 } }, {})).toBeNull();
    expect(matcher.matchRoot({ insertedId: { $$unsetOrMatches: 2 } }, { insertedId: 2 })).toBeNull();
    expect(matcher.matchRoot({ insertedId: { $$unsetOrMatches: 2 } }, { insertedId: 3 })).not.toBeNull();
    expect(matcher.matchRoot({ $$unsetOrMatches: { n: 1 } }, undefined)).toBeNull();
    // It keeps the root-ness of the value it wraps.
    expect(matcher.matchRoot({ $$unsetOrMatches: { n: 1 } }, { n: 1, extra: true })).toBeNull();
  });

  it('$$type checks BSON types, with a list of alternatives', () => {
    expect(matcher.matchRoot({ t: { $$type: ['int', 'long'] } }, { t: new Long(5) })).toBeNull();
    expect(matcher.matchRoot({ t: { $$type: 'string' } }, { t: 5 })).toMatch(/expected type string/);
    expect(matcher.matchRoot({ t: { $$type: 'objectId' } }, { t: new ObjectId() })).toBeNull();
    expect(matcher.matchRoot({ t: { $$type: 'timestamp' } }, { t: new Timestamp({ t: 1, i: 1 }) })).toBeNull();
    expect(matcher.matchRoot({ t: { $$type: 'double' } }, { t: 1.5 })).toBeNull();
    expect(matcher.matchRoot({ t: { $$type: 'int' } }, { t: 1.5 })).not.toBeNull();
    expect(matcher.matchRoot({ t: { $$type: 'object' } }, {})).toMatch(/t: missing/);
    expect(matcher.matchNested({ $$type: 'object' }, undefined)).toMatch(/expected a value of type/);
  });

  it('$$type tells a long from an int or a double: the runner decodes int64 as bigint, never as a number', () => {
    expect(matcher.matchRoot({ t: { $$type: 'long' } }, { t: 5n })).toBeNull();
    expect(matcher.matchRoot({ t: { $$type: 'long' } }, { t: 5 })).toMatch(/expected type long, got int 5/);
    expect(matcher.matchRoot({ t: { $$type: 'long' } }, { t: 2 ** 40 })).toMatch(/expected type long, got double/);
    expect(matcher.matchRoot({ t: { $$type: 'int' } }, { t: 5n })).toMatch(/expected type int, got long/);
    expect(matcher.matchRoot({ t: { $$type: 'int' } }, { t: 2 ** 40 })).not.toBeNull();
    expect(matcher.matchRoot({ t: { $$type: ['int', 'long'] } }, { t: 7 })).toBeNull();
  });

  it('$$sessionLsid compares with the session entity id', () => {
    expect(
      matcher.matchRoot({ lsid: { $$sessionLsid: 'session0' } }, { lsid: { id: new Binary(Buffer.alloc(16, 7), 4) } }),
    ).toBeNull();
    expect(
      matcher.matchRoot({ lsid: { $$sessionLsid: 'session0' } }, { lsid: { id: new Binary(Buffer.alloc(16, 8), 4) } }),
    ).not.toBeNull();
    expect(() => matcher.matchRoot({ lsid: { $$sessionLsid: 'nope' } }, { lsid })).toThrow(/no session nope/);
  });

  it('$$matchesEntity and $$matchesHexBytes', () => {
    expect(matcher.matchRoot({ _id: { $$matchesEntity: 'savedId' } }, { _id: 42 })).toBeNull();
    expect(matcher.matchRoot({ _id: { $$matchesEntity: 'savedId' } }, { _id: 43 })).not.toBeNull();
    expect(matcher.matchNested({ $$matchesHexBytes: '12ab' }, new Binary(Buffer.from([0x12, 0xab])))).toBeNull();
    expect(matcher.matchNested({ $$matchesHexBytes: '12AB' }, Buffer.from([0x12, 0xac]))).not.toBeNull();
    expect(() => matcher.matchNested({ $$matchesHexBytes: '1' }, Buffer.alloc(0))).toThrow(/malformed/);
  });

  it('$$lte compares numbers flexibly', () => {
    expect(matcher.matchRoot({ n: { $$lte: new Int32(5) } }, { n: 5.0 })).toBeNull();
    expect(matcher.matchRoot({ n: { $$lte: 5 } }, { n: new Long(6) })).not.toBeNull();
  });
});

describe('every difference', () => {
  it('reports each differing key, element and document, one per line', () => {
    expect(
      matcher
        .matchRoot({ a: 1, b: { c: 2, d: 3 }, e: [1, 2] }, { a: 9, b: { c: 8, d: 3, z: 0 }, e: [7, 2] })
        ?.split('\n'),
    ).toEqual([
      'a: expected 1, got 9',
      'b.c: expected 2, got 8',
      'b: unexpected key(s) z in nested document {"c":8,"d":3,"z":0}',
      'e[0]: expected 1, got 7',
    ]);
    expect(
      exactDifference(
        [
          { _id: 1, x: 1 },
          { _id: 2, x: 2 },
        ],
        [{ _id: 1, x: 0 }, { _id: 2 }],
      )?.split('\n'),
    ).toEqual(['[0].x: expected 1, got 0', '[1].x: missing, expected 2']);
  });
});

describe('outcome comparison', () => {
  it('needs every key on both sides but ignores order and numeric type', () => {
    expect(exactDifference({ _id: new Int32(1), x: 1 }, { x: 1.0, _id: 1 })).toBeNull();
    expect(exactDifference({ _id: 1 }, { _id: 1, x: 1 })).toMatch(/x: unexpected key/);
    expect(exactDifference({ _id: 1, x: 1 }, { _id: 1 })).toMatch(/x: missing/);
  });
});
