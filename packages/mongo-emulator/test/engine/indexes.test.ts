// Proves unique, compound, partial, sparse and multikey indexes reject duplicates exactly as
// mongod does (code, message, keyPattern, keyValue), atomically, and that index management
// answers with mongod's codes.
import { ObjectId } from 'bson';
import { describe, expect, it } from 'vitest';
import { errorOf, newCollection } from './helpers.ts';

describe('duplicate keys', () => {
  it('refuses a duplicate _id with the E11000 message', () => {
    const c = newCollection();
    c.insertOne({ _id: 'abc' });
    const err = errorOf(() => c.insertOne({ _id: 'abc' }));
    expect(err.code).toBe(11000);
    expect(err.codeName).toBe('DuplicateKey');
    expect(err.message).toBe('E11000 duplicate key error collection: db.c index: _id_ dup key: { _id: "abc" }');
    expect(err.extra).toEqual({ keyPattern: { _id: 1 }, keyValue: { _id: 'abc' } });
  });
  it('treats 1, 1n and 1.0 as the same key', () => {
    const c = newCollection();
    c.insertOne({ _id: 1 });
    expect(errorOf(() => c.insertOne({ _id: 1n })).code).toBe(11000);
  });
  it('prints ObjectIds and compound keys as mongod does', () => {
    const c = newCollection();
    c.createIndexes([{ key: { a: 1, b: -1 }, name: 'a_1_b_-1', unique: true }]);
    const id = new ObjectId('65f000000000000000000001');
    c.insertOne({ a: id, b: 2 });
    const err = errorOf(() => c.insertOne({ a: id, b: 2 }));
    expect(err.message).toBe(
      "E11000 duplicate key error collection: db.c index: a_1_b_-1 dup key: { a: ObjectId('65f000000000000000000001'), b: 2 }",
    );
    expect(err.extra.keyPattern).toEqual({ a: 1, b: -1 });
  });
  it('counts a missing field as null in a non-sparse unique index', () => {
    const c = newCollection();
    c.createIndexes([{ key: { k: 1 }, name: 'k_1', unique: true }]);
    c.insertOne({});
    expect(errorOf(() => c.insertOne({})).message).toContain('dup key: { k: null }');
  });
  it('lets a sparse unique index hold many documents without the field', () => {
    const c = newCollection();
    c.createIndexes([{ key: { k: 1 }, name: 'k_1', unique: true, sparse: true }]);
    c.insertOne({});
    c.insertOne({});
    expect(c.count({})).toBe(2);
  });
  it('enforces a partial unique index only on documents matching its filter', () => {
    const c = newCollection();
    c.createIndexes([{ key: { k: 1 }, name: 'k_1', unique: true, partialFilterExpression: { live: true } }]);
    c.insertOne({ k: 1, live: false });
    c.insertOne({ k: 1, live: false });
    c.insertOne({ k: 1, live: true });
    expect(errorOf(() => c.insertOne({ k: 1, live: true })).code).toBe(11000);
  });
  it('enforces uniqueness on array elements (multikey)', () => {
    const c = newCollection();
    c.createIndexes([{ key: { tags: 1 }, name: 'tags_1', unique: true }]);
    c.insertOne({ tags: ['a', 'b'] });
    c.insertOne({ tags: ['c', 'c'] });
    expect(errorOf(() => c.insertOne({ tags: ['x', 'b'] })).message).toContain('dup key: { tags: "b" }');
  });
  it('refuses an update that would duplicate and leaves the document unchanged', () => {
    const c = newCollection();
    c.createIndexes([{ key: { k: 1 }, name: 'k_1', unique: true }]);
    c.insertOne({ _id: 1, k: 1 });
    c.insertOne({ _id: 2, k: 2 });
    expect(errorOf(() => c.update({ q: { _id: 2 }, u: { $set: { k: 1, other: true } } })).code).toBe(11000);
    expect(c.find({ _id: 2 })).toEqual([{ _id: 2, k: 2 }]);
    expect(c.find({ k: 2 })).toEqual([{ _id: 2, k: 2 }]);
  });
  it('refuses an upsert that would duplicate', () => {
    const c = newCollection();
    c.createIndexes([{ key: { k: 1 }, name: 'k_1', unique: true }]);
    c.insertOne({ k: 'payout:1', state: 'x' });
    expect(errorOf(() => c.update({ q: { state: 'y' }, u: { $set: { k: 'payout:1' } }, upsert: true })).code).toBe(
      11000,
    );
    expect(c.count({})).toBe(1);
  });
  it('refuses to build a unique index over existing duplicates', () => {
    const c = newCollection();
    c.insertOne({ k: 1 });
    c.insertOne({ k: 1 });
    expect(errorOf(() => c.createIndexes([{ key: { k: 1 }, name: 'k_1', unique: true }])).code).toBe(11000);
    expect(c.listIndexes().map((i) => i.name)).toEqual(['_id_']);
  });
});

describe('index management', () => {
  it('lists indexes as mongod does, _id_ first', () => {
    const c = newCollection();
    c.createIndexes([{ key: { a: 1 }, name: 'a_1', unique: true, partialFilterExpression: { a: { $exists: true } } }]);
    expect(c.listIndexes()).toEqual([
      { v: 2, key: { _id: 1 }, name: '_id_' },
      { v: 2, key: { a: 1 }, name: 'a_1', unique: true, partialFilterExpression: { a: { $exists: true } } },
    ]);
  });
  it('treats the same spec twice as a no-op', () => {
    const c = newCollection();
    c.createIndexes([{ key: { a: 1 }, name: 'a_1' }]);
    expect(c.createIndexes([{ key: { a: 1 }, name: 'a_1' }])).toEqual({
      numIndexesBefore: 2,
      numIndexesAfter: 2,
      note: 'all indexes already exist',
    });
  });
  it('answers IndexOptionsConflict and IndexKeySpecsConflict', () => {
    const c = newCollection();
    c.createIndexes([{ key: { a: 1 }, name: 'a_1' }]);
    expect(errorOf(() => c.createIndexes([{ key: { a: 1 }, name: 'a_1', unique: true }])).code).toBe(85);
    expect(errorOf(() => c.createIndexes([{ key: { a: 1 }, name: 'other' }])).code).toBe(85);
    expect(errorOf(() => c.createIndexes([{ key: { b: 1 }, name: 'a_1' }])).code).toBe(86);
  });
  it('drops indexes by name, key or *, but never _id_', () => {
    const c = newCollection();
    c.createIndexes([
      { key: { a: 1 }, name: 'a_1' },
      { key: { b: 1 }, name: 'b_1' },
      { key: { d: 1 }, name: 'd_1' },
    ]);
    expect(c.dropIndexes('a_1')).toEqual({ nIndexesWas: 4 });
    c.dropIndexes({ b: 1 });
    expect(c.listIndexes().map((i) => i.name)).toEqual(['_id_', 'd_1']);
    c.dropIndexes('*');
    expect(c.listIndexes().map((i) => i.name)).toEqual(['_id_']);
    const err = errorOf(() => c.dropIndexes('_id_'));
    expect([err.code, err.message]).toEqual([72, 'cannot drop _id index']);
    expect(errorOf(() => c.dropIndexes('nope')).code).toBe(27);
  });
});

describe('document validation', () => {
  it('refuses array and regex _id values', () => {
    const c = newCollection();
    expect(errorOf(() => c.insertOne({ _id: [1] })).message).toBe("The '_id' value cannot be of type array");
    expect(errorOf(() => c.insertOne({ _id: /x/ })).code).toBe(2);
  });
  it('stores top-level $-prefixed field names (mongod 5.0+) but refuses them anywhere in _id', () => {
    const c = newCollection();
    c.insertOne({ _id: 1, $a: 1 });
    expect(c.find({ _id: 1 })).toEqual([{ _id: 1, $a: 1 }]);
    const err = errorOf(() => c.insertOne({ _id: { a: [{ $b: 1 }] } }));
    expect([err.code, err.message]).toEqual([
      52,
      "_id fields may not contain '$'-prefixed fields: $b is not valid for storage.",
    ]);
    c.insertOne({ _id: { $ref: 'c', $id: 1 } });
  });
  it('refuses documents over 16 MiB', () => {
    expect(errorOf(() => newCollection().insertOne({ s: 'x'.repeat(16 * 1024 * 1024) })).code).toBe(10334);
  });
  it('copies documents in and out so callers cannot alias storage', () => {
    const c = newCollection();
    const doc = { _id: 1, a: { b: 1 } };
    c.insertOne(doc);
    doc.a.b = 2;
    const [out] = c.find({});
    (out!.a as { b: number }).b = 3;
    expect(c.find({})[0]).toEqual({ _id: 1, a: { b: 1 } });
  });
  it('puts a generated ObjectId _id first', () => {
    const c = newCollection();
    const change = c.insertOne({ a: 1 });
    expect(change.op === 'insert' && Object.keys(change.fullDocument)).toEqual(['_id', 'a']);
    expect(change.documentKey._id).toBeInstanceOf(ObjectId);
  });
});
