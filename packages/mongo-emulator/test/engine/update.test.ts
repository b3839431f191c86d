// Proves update operators apply with mongod's semantics (numeric widening, array modifiers,
// positional paths), report updateDescription, and reject bad updates with mongod's codes.
import { Decimal128, type Timestamp } from 'bson';
import { describe, expect, it } from 'vitest';
import { errorOf, FIXED_CLUSTER_TIME, FIXED_NOW, newCollection } from './helpers.ts';
import type { Document } from '../../src/engine/types.ts';

function updated(doc: Document, u: Document | Document[], extra: Document = {}): Document {
  const c = newCollection();
  c.insertOne({ _id: 1, ...doc });
  c.update({ q: { _id: 1 }, u, ...extra });
  return c.find({ _id: 1 })[0]!;
}

describe('$set, $unset, $rename', () => {
  it('sets dotted paths, creating embedded documents', () => {
    expect(updated({}, { $set: { 'a.b.c': 1 } })).toEqual({ _id: 1, a: { b: { c: 1 } } });
  });
  it('sets array elements by index, padding with null', () => {
    expect(updated({ a: [1] }, { $set: { 'a.3': 9 } })).toEqual({ _id: 1, a: [1, null, null, 9] });
  });
  it('refuses to create a field inside a scalar with PathNotViable', () => {
    const c = newCollection();
    c.insertOne({ _id: 1, a: 5 });
    expect(errorOf(() => c.update({ q: {}, u: { $set: { 'a.b': 1 } } })).code).toBe(28);
  });
  it('unsets fields and nulls array elements', () => {
    expect(updated({ a: 1, b: [1, 2] }, { $unset: { a: '', 'b.0': '' } })).toEqual({ _id: 1, b: [null, 2] });
  });
  it('renames fields', () => {
    expect(updated({ a: 1 }, { $rename: { a: 'b.c' } })).toEqual({ _id: 1, b: { c: 1 } });
  });
});

describe('numeric operators', () => {
  it('widens an int32 $inc overflow to a long', () => {
    expect(updated({ n: 2147483647 }, { $inc: { n: 1 } }).n).toBe(2147483648n);
  });
  it('keeps a long a long', () => {
    expect(updated({ n: 5n }, { $inc: { n: 1 } }).n).toBe(6n);
    expect(updated({ n: 5n }, { $inc: { n: -10n } }).n).toBe(-5n);
  });
  it('fails a long overflow with BadValue and mongod message', () => {
    const c = newCollection();
    c.insertOne({ _id: 'x', n: 2n ** 63n - 1n });
    const err = errorOf(() => c.update({ q: {}, u: { $inc: { n: 1 } } }));
    expect(err.code).toBe(2);
    expect(err.message).toBe(
      'Failed to apply $inc operations to current value ((NumberLong)9223372036854775807) for document {_id: "x"}',
    );
    expect(c.find({})[0]!.n).toBe(2n ** 63n - 1n);
  });
  it('turns int plus double into a double', () => {
    expect(updated({ n: 1 }, { $inc: { n: 0.5 } }).n).toBe(1.5);
  });
  it('refuses $inc on a string with TypeMismatch', () => {
    const c = newCollection();
    c.insertOne({ _id: 1, s: 'x' });
    const err = errorOf(() => c.update({ q: {}, u: { $inc: { s: 1 } } }));
    expect(err.code).toBe(14);
    expect(err.message).toBe(
      "Cannot apply $inc to a value of non-numeric type. {_id: 1} has the field 's' of non-numeric type string",
    );
  });
  it('refuses a non-numeric $inc argument with TypeMismatch', () => {
    const c = newCollection();
    c.insertOne({ _id: 1 });
    expect(errorOf(() => c.update({ q: {}, u: { $inc: { a: 'x' } } })).message).toBe(
      'Cannot increment with non-numeric argument: {a: "x"}',
    );
  });
  it('multiplies, and $mul on a missing field sets zero', () => {
    expect(updated({ n: 3 }, { $mul: { n: 2, m: 5 } })).toEqual({ _id: 1, n: 6, m: 0 });
  });
  it('applies $min and $max by BSON order', () => {
    expect(updated({ a: 5, b: 5 }, { $min: { a: 3 }, $max: { b: 3 } })).toEqual({ _id: 1, a: 3, b: 5 });
    expect(updated({ a: new Date(5) }, { $max: { a: new Date(9) } }).a).toEqual(new Date(9));
  });
  it('applies $bit and keeps decimals decimal', () => {
    expect(updated({ a: 5 }, { $bit: { a: { and: 4 } } }).a).toBe(4);
    expect(updated({ d: Decimal128.fromString('1.5') }, { $inc: { d: 1 } }).d).toBeInstanceOf(Decimal128);
  });
  it('sets $currentDate from the catalog clock', () => {
    const doc = updated({}, { $currentDate: { d: true, t: { $type: 'timestamp' } } });
    expect(doc.d).toEqual(FIXED_NOW);
    expect((doc.t as Timestamp).equals(FIXED_CLUSTER_TIME)).toBe(true);
  });
});

describe('array operators', () => {
  it('pushes with $each, $position, $sort and $slice', () => {
    expect(updated({ a: [5, 1] }, { $push: { a: { $each: [3, 4], $sort: 1, $slice: 3 } } }).a).toEqual([1, 3, 4]);
    expect(updated({ a: [1, 2] }, { $push: { a: { $each: [0], $position: 0 } } }).a).toEqual([0, 1, 2]);
    expect(updated({ a: [1, 2, 3] }, { $push: { a: { $each: [], $slice: -2 } } }).a).toEqual([2, 3]);
  });
  it('refuses $push onto a non-array with BadValue', () => {
    const c = newCollection();
    c.insertOne({ _id: 1, a: 1 });
    expect(errorOf(() => c.update({ q: {}, u: { $push: { a: 2 } } })).code).toBe(2);
  });
  it('adds to a set only missing values, by BSON equality', () => {
    expect(updated({ a: [1, 2n] }, { $addToSet: { a: { $each: [2, 3, 3] } } }).a).toEqual([1, 2n, 3]);
  });
  it('pulls by value, by condition and by document match', () => {
    expect(updated({ a: [1, 5, 9] }, { $pull: { a: { $gte: 5 } } }).a).toEqual([1]);
    expect(updated({ a: [{ x: 1, y: 1 }, { x: 2 }] }, { $pull: { a: { x: 1 } } }).a).toEqual([{ x: 2 }]);
    expect(updated({ a: [1, 2, 1] }, { $pullAll: { a: [1] } }).a).toEqual([2]);
  });
  it('pops first and last elements', () => {
    expect(updated({ a: [1, 2, 3] }, { $pop: { a: 1 } }).a).toEqual([1, 2]);
    expect(updated({ a: [1, 2, 3] }, { $pop: { a: -1 } }).a).toEqual([2, 3]);
  });
  it('updates the element the query matched with positional $', () => {
    const c = newCollection();
    c.insertOne({
      _id: 1,
      items: [
        { k: 'a', n: 1 },
        { k: 'b', n: 1 },
      ],
    });
    c.update({ q: { 'items.k': 'b' }, u: { $inc: { 'items.$.n': 5 } } });
    expect(c.find({})[0]!.items).toEqual([
      { k: 'a', n: 1 },
      { k: 'b', n: 6 },
    ]);
  });
  it('updates every element with $[] and filtered ones with $[id]', () => {
    expect(updated({ a: [1, 2, 3] }, { $inc: { 'a.$[]': 10 } }).a).toEqual([11, 12, 13]);
    expect(updated({ a: [1, 5, 9] }, { $set: { 'a.$[big]': 0 } }, { arrayFilters: [{ big: { $gte: 5 } }] }).a).toEqual([
      1, 0, 0,
    ]);
    expect(
      updated({ a: [{ n: 1 }, { n: 7 }] }, { $set: { 'a.$[e].hit': true } }, { arrayFilters: [{ 'e.n': 7 }] }).a,
    ).toEqual([{ n: 1 }, { n: 7, hit: true }]);
  });
});

describe('update validation', () => {
  const codeFor = (u: Document | Document[]) => {
    const c = newCollection();
    c.insertOne({ _id: 1, a: 1 });
    return errorOf(() => c.update({ q: {}, u })).code;
  };
  it('refuses conflicting paths with ConflictingUpdateOperators', () => {
    expect(codeFor({ $set: { a: 1 }, $inc: { a: 1 } })).toBe(40);
    expect(codeFor({ $set: { 'a.b': 1, a: 2 } })).toBe(40);
  });
  it('refuses an empty operator and unknown modifiers with FailedToParse', () => {
    expect(codeFor({ $set: {} })).toBe(9);
    expect(codeFor({ $foo: { a: 1 } })).toBe(9);
  });
  it('refuses changing _id with ImmutableField', () => {
    const c = newCollection();
    c.insertOne({ _id: 1 });
    const err = errorOf(() => c.update({ q: {}, u: { $set: { _id: 2 } } }));
    expect(err.code).toBe(66);
    expect(err.message).toBe("Performing an update on the path '_id' would modify the immutable field '_id'");
    expect(codeFor({ _id: 2, a: 1 })).toBe(66);
  });
  it('refuses pipeline stages other than the update ones', () => {
    expect(codeFor([{ $group: { _id: null } }])).toBe(72);
  });
});

describe('replacement and pipeline updates', () => {
  it('replaces the document keeping _id first', () => {
    const c = newCollection();
    c.insertOne({ _id: 1, a: 1 });
    const r = c.update({ q: {}, u: { b: 2 } });
    expect(Object.keys(c.find({})[0]!)).toEqual(['_id', 'b']);
    expect(r.changes[0]!.op).toBe('replace');
  });
  it('runs pipeline updates with $$NOW', () => {
    expect(updated({ a: 1 }, [{ $set: { at: '$$NOW', b: { $add: ['$a', 1] } } }, { $unset: 'a' }])).toEqual({
      _id: 1,
      at: FIXED_NOW,
      b: 2,
    });
  });
});

describe('change records', () => {
  it('report updatedFields with dotted paths and removedFields', () => {
    const c = newCollection();
    c.insertOne({ _id: 1, status: 'PENDING', meta: { n: 1, m: 2 }, gone: 1 });
    const r = c.update({
      q: {},
      u: { $set: { status: 'DONE', 'meta.n': 2 }, $unset: { gone: '' }, $inc: { version: 1 } },
    });
    const change = r.changes[0]!;
    expect(change.op).toBe('update');
    if (change.op !== 'update') return;
    expect(change.updateDescription).toEqual({
      updatedFields: { status: 'DONE', 'meta.n': 2, version: 1 },
      removedFields: ['gone'],
      truncatedArrays: [],
      disambiguatedPaths: {},
    });
  });
  it('report truncated arrays from a diffed pipeline update, and a $pop as the whole array', () => {
    const c = newCollection();
    c.insertOne({ _id: 1, a: [1, 2, 3, 4, 5, 6, 7, 8], note: 'x'.repeat(100) });
    const sliced = c.update({ q: {}, u: [{ $set: { a: { $slice: ['$a', 2] } } }] }).changes[0]!;
    expect(sliced.op === 'update' && sliced.updateDescription.truncatedArrays).toEqual([{ field: 'a', newSize: 2 }]);
    const popped = c.update({ q: {}, u: { $pop: { a: 1 } } }).changes[0]!;
    expect(popped.op === 'update' && popped.updateDescription).toMatchObject({
      updatedFields: { a: [1] },
      truncatedArrays: [],
    });
  });
  it('count a no-op update as matched but not modified, without a change', () => {
    const c = newCollection();
    c.insertOne({ _id: 1, a: 1 });
    expect(c.update({ q: {}, u: { $set: { a: 1 } } })).toEqual({ matched: 1, modified: 0, changes: [] });
  });
  it('count an int to long change as a modification', () => {
    const c = newCollection();
    c.insertOne({ _id: 1, a: 1 });
    expect(c.update({ q: {}, u: { $set: { a: 1n } } }).modified).toBe(1);
  });
});

describe('upserts', () => {
  it('build the document from the query equalities and the update', () => {
    const c = newCollection();
    const r = c.update({
      q: { k: 'x', 'm.n': 1, $and: [{ z: { $eq: 2 } }], r: { $gt: 1 } },
      u: { $set: { v: 1 }, $setOnInsert: { created: true } },
      upsert: true,
    });
    expect(r.matched).toBe(0);
    const doc = c.find({})[0]!;
    expect(doc).toEqual({ _id: r.upsertedId, k: 'x', m: { n: 1 }, z: 2, v: 1, created: true });
    expect(Object.keys(doc)[0]).toBe('_id');
  });
  it('take _id from the query', () => {
    const c = newCollection();
    expect(c.update({ q: { _id: 'k' }, u: { $inc: { n: 1 } }, upsert: true }).upsertedId).toBe('k');
  });
  it('ignore $setOnInsert when a document matched', () => {
    const c = newCollection();
    c.insertOne({ _id: 1, k: 'x' });
    c.update({ q: { k: 'x' }, u: { $setOnInsert: { created: true } }, upsert: true });
    expect(c.find({})[0]).toEqual({ _id: 1, k: 'x' });
  });
  it('insert a replacement with the query _id', () => {
    const c = newCollection();
    c.update({ q: { _id: 7 }, u: { a: 1 }, upsert: true });
    expect(c.find({})).toEqual([{ _id: 7, a: 1 }]);
  });
});
