// Proves the $v: 2 delta of the forms oplog.test.ts does not reach through the driver: $rename,
// positional and all-elements paths, fields created under new parents, $unset of an array element,
// nested array shrinks in pipeline diffs, and disambiguatedPaths for dotted and numeric fields
// (change_stream_document_diff_parser.cpp).
import { describe, expect, it } from 'vitest';
import { describeDelta } from '../../src/engine/deltaDiff.ts';
import type { ChangeRecord, Document } from '../../src/engine/types.ts';
import { newCollection } from './helpers.ts';

type Update = Extract<ChangeRecord, { op: 'update' }>;

function deltaOf(doc: Document, u: Document | Document[], extra: Document = {}): Document {
  const c = newCollection();
  c.insertOne(doc);
  const [change] = c.update({ q: { _id: doc._id }, u, ...extra }).changes;
  expect(change?.op).toBe('update');
  return (change as Update).delta;
}

describe('the $v: 2 delta of an operator update', () => {
  it('logs $rename as the target set and the source deleted (rename_node.cpp)', () => {
    expect(deltaOf({ _id: 1, a: 1, b: { c: 2 } }, { $rename: { a: 'z', 'b.c': 'b.d' } })).toEqual({
      d: { a: false },
      i: { z: 1 },
      sb: { d: { c: false }, i: { d: 2 } },
    });
  });

  it('logs positional and all-elements paths per element, and an unset element as null', () => {
    const doc = { _id: 1, arr: [{ k: 1 }, { k: 2 }, { k: 3 }] };
    expect(deltaOf(doc, { $set: { 'arr.$.k': 9 } }, { q: { _id: 1, 'arr.k': 2 } })).toEqual({
      sarr: { a: true, s1: { u: { k: 9 } } },
    });
    expect(deltaOf(doc, { $inc: { 'arr.$[].k': 1 } })).toEqual({
      sarr: { a: true, s0: { u: { k: 2 } }, s1: { u: { k: 3 } }, s2: { u: { k: 4 } } },
    });
    expect(deltaOf(doc, { $unset: { 'arr.0': '' } })).toEqual({ sarr: { a: true, u0: null } });
  });

  it('logs fields created under one new parent once, whole (path_creating_node.cpp)', () => {
    expect(deltaOf({ _id: 1 }, { $set: { 'a.b': 1, 'a.c': 2 } })).toEqual({ i: { a: { b: 1, c: 2 } } });
  });

  it('logs nothing for a field an operator leaves unchanged (their kNoOp)', () => {
    const c = newCollection();
    c.insertOne({ _id: 1, n: 5, k: 7 });
    expect(c.update({ q: { _id: 1 }, u: { $set: { n: 5 }, $max: { k: 3 } } }).changes).toEqual([]);
    expect(deltaOf({ _id: 1, n: 5, k: 7 }, { $set: { n: 5, m: 1 }, $min: { k: 9 } })).toEqual({ i: { m: 1 } });
  });
});

describe('the $v: 2 delta of a pipeline update (document_diff_calculator.cpp)', () => {
  it('diffs nested documents and arrays, with l for a shrunk array', () => {
    const doc = { _id: 1, pad: 'x'.repeat(100), o: { keep: 'y'.repeat(50), list: [1, 2, 3, 4, 5, 6], n: 1 } };
    expect(deltaOf(doc, [{ $set: { 'o.n': 2, 'o.list': { $slice: ['$o.list', 3] } } }])).toEqual({
      so: { u: { n: 2 }, slist: { a: true, l: 3 } },
    });
  });
});

describe('updateDescription from a delta', () => {
  it('spells out paths with dotted or numeric field names, array indices as numbers', () => {
    const description = describeDelta({
      u: { 'a.b': 1, top: 2 },
      sobj: { u: { '3': 'x' }, d: { 'c.d': false } },
      sarr: { a: true, l: 2, s1: { u: { '0': true } } },
    });
    expect(description).toEqual({
      updatedFields: { 'a.b': 1, top: 2, 'obj.3': 'x', 'arr.1.0': true },
      removedFields: ['obj.c.d'],
      truncatedArrays: [{ field: 'arr', newSize: 2 }],
      disambiguatedPaths: {
        'a.b': ['a.b'],
        'obj.3': ['obj', '3'],
        'obj.c.d': ['obj', 'c.d'],
        'arr.1.0': ['arr', 1, '0'],
      },
    });
  });
});
