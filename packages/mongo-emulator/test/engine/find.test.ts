// Proves find's sort, skip, limit, count, distinct and projections behave as mongod's.
import { describe, expect, it } from 'vitest';
import { errorOf, newCollection } from './helpers.ts';

function people() {
  const c = newCollection();
  c.insertOne({ _id: 1, name: 'b', age: 30, tags: [3, 1], addr: { city: 'X', zip: 1 } });
  c.insertOne({ _id: 2, name: 'a', age: 25, tags: [2], addr: { city: 'Y', zip: 2 } });
  c.insertOne({
    _id: 3,
    name: 'c',
    tags: [],
    items: [
      { k: 1, v: 'p' },
      { k: 2, v: 'q' },
    ],
  });
  return c;
}

describe('sort, skip, limit', () => {
  it('sorts missing fields as null, first ascending', () => {
    expect(
      people()
        .find({}, { sort: { age: 1 } })
        .map((d) => d._id),
    ).toEqual([3, 2, 1]);
  });
  it('sorts arrays by their smallest element ascending and largest descending', () => {
    const c = people();
    expect(c.find({ _id: { $lt: 3 } }, { sort: { tags: 1 } }).map((d) => d._id)).toEqual([1, 2]);
    expect(c.find({ _id: { $lt: 3 } }, { sort: { tags: -1 } }).map((d) => d._id)).toEqual([1, 2]);
  });
  it('applies skip then limit after sorting', () => {
    expect(
      people()
        .find({}, { sort: { name: 1 }, skip: 1, limit: 1 })
        .map((d) => d._id),
    ).toEqual([1]);
  });
  it('counts with skip and limit', () => {
    const c = people();
    expect(c.count({})).toBe(3);
    expect(c.count({}, { skip: 1, limit: 1 })).toBe(1);
  });
  it('lists distinct values, unwinding arrays', () => {
    expect(people().distinct('tags', {})).toEqual([1, 2, 3]);
  });
});

describe('projection', () => {
  it('includes fields, with _id unless excluded', () => {
    const c = people();
    expect(c.find({ _id: 1 }, { projection: { name: 1 } })).toEqual([{ _id: 1, name: 'b' }]);
    expect(c.find({ _id: 1 }, { projection: { name: 1, _id: 0 } })).toEqual([{ name: 'b' }]);
  });
  it('excludes fields, dotted included', () => {
    expect(people().find({ _id: 2 }, { projection: { tags: 0, 'addr.zip': 0 } })).toEqual([
      { _id: 2, name: 'a', age: 25, addr: { city: 'Y' } },
    ]);
  });
  it('includes dotted paths through arrays of documents', () => {
    expect(people().find({ _id: 3 }, { projection: { 'items.v': 1, _id: 0 } })).toEqual([
      { items: [{ v: 'p' }, { v: 'q' }] },
    ]);
  });
  it('computes expression fields', () => {
    expect(people().find({ _id: 1 }, { projection: { older: { $add: ['$age', 1] }, _id: 0 } })).toEqual([
      { older: 31 },
    ]);
  });
  it('slices arrays and picks $elemMatch and positional elements', () => {
    const c = people();
    expect(c.find({ _id: 1 }, { projection: { tags: { $slice: 1 } } })[0]!.tags).toEqual([3]);
    expect(c.find({ _id: 3 }, { projection: { items: { $elemMatch: { k: 2 } } } })).toEqual([
      { _id: 3, items: [{ k: 2, v: 'q' }] },
    ]);
    expect(c.find({ 'items.k': 2 }, { projection: { 'items.$': 1 } })).toEqual([{ _id: 3, items: [{ k: 2, v: 'q' }] }]);
  });
  it('refuses mixing inclusion and exclusion with 31254 / 31253', () => {
    const c = people();
    expect(errorOf(() => c.find({}, { projection: { a: 1, b: 0 } })).code).toBe(31254);
    expect(errorOf(() => c.find({}, { projection: { a: 0, b: 1 } })).code).toBe(31253);
  });
});
