// Proves the aggregation stages the emulator promises, with BSON-exact comparisons and sums
// (longs stay longs), and mongod's error for an unknown stage.
import { ObjectId } from 'bson';
import { describe, expect, it } from 'vitest';
import type { Catalog } from '../../src/engine/catalog.ts';
import { errorOf, FIXED_NOW, newCatalog } from './helpers.ts';

function ledger(): Catalog {
  const cat = newCatalog();
  const entries = cat.getOrCreateCollection('db', 'entries');
  entries.insertOne({ _id: 1, acct: 'a', amount: 100n, kind: 'dep' });
  entries.insertOne({ _id: 2, acct: 'a', amount: 50n, kind: 'wd' });
  entries.insertOne({ _id: 3, acct: 'b', amount: 7n, kind: 'dep', tags: ['x', 'y'] });
  const accounts = cat.getOrCreateCollection('db', 'accounts');
  accounts.insertOne({ _id: 'a', owner: 'ann' });
  accounts.insertOne({ _id: 'b', owner: 'bob' });
  return cat;
}

const run = (pipeline: object[]) => ledger().aggregate('db', 'entries', pipeline as never);

describe('aggregation stages', () => {
  it('matches, sorts, skips and limits', () => {
    expect(
      run([{ $match: { amount: { $gte: 50 } } }, { $sort: { amount: -1 } }, { $skip: 1 }, { $limit: 1 }]).map(
        (d) => d._id,
      ),
    ).toEqual([2]);
  });
  it('answers a leading $match through the collection, walking an index', () => {
    const cat = ledger();
    const entries = cat.getCollection('db', 'entries')!;
    entries.createIndexes([{ key: { acct: 1 }, name: 'acct_1' }]);
    const out = cat.aggregate('db', 'entries', [
      { $match: { acct: 'a' } },
      { $group: { _id: '$acct', total: { $sum: '$amount' } } },
    ]);
    expect(out).toEqual([{ _id: 'a', total: 150n }]);
    expect(entries.lastIndexUsed).toBe('acct_1');
    expect(entries.lastExamined).toBe(2);
  });
  it('sorts longs by value, not as strings', () => {
    expect(run([{ $sort: { amount: 1 } }]).map((d) => d._id)).toEqual([3, 2, 1]);
  });
  it('groups with accumulators and keeps long sums long', () => {
    const out = run([
      {
        $group: {
          _id: '$acct',
          total: { $sum: '$amount' },
          n: { $sum: 1 },
          max: { $max: '$amount' },
          avg: { $avg: '$amount' },
          kinds: { $addToSet: '$kind' },
          first: { $first: '$_id' },
          all: { $push: '$_id' },
        },
      },
      { $sort: { _id: 1 } },
    ]);
    expect(out[0]).toMatchObject({ _id: 'a', total: 150n, n: 2, max: 100n, avg: 75, first: 1, all: [1, 2] });
    expect(out[1]).toMatchObject({ _id: 'b', total: 7n });
  });
  it('projects, adds fields, unsets and replaces the root', () => {
    expect(
      run([
        { $match: { _id: 1 } },
        { $project: { acct: 1 } },
        { $addFields: { x: { $literal: 1 } } },
        { $unset: 'acct' },
      ]),
    ).toEqual([{ _id: 1, x: 1 }]);
    expect(run([{ $match: { _id: 1 } }, { $replaceWith: { a: '$acct' } }])).toEqual([{ a: 'a' }]);
    expect(run([{ $match: { _id: 1 } }, { $replaceRoot: { newRoot: { k: '$kind' } } }])).toEqual([{ k: 'dep' }]);
  });
  it('counts and sorts by count', () => {
    expect(run([{ $count: 'n' }])).toEqual([{ n: 3 }]);
    expect(run([{ $sortByCount: '$acct' }])[0]).toEqual({ _id: 'a', count: 2 });
  });
  it('unwinds arrays with options', () => {
    expect(run([{ $unwind: '$tags' }]).map((d) => d.tags)).toEqual(['x', 'y']);
    expect(
      run([{ $unwind: { path: '$tags', preserveNullAndEmptyArrays: true, includeArrayIndex: 'i' } }]),
    ).toHaveLength(4);
  });
  it('looks up by field equality and by pipeline', () => {
    const byField = run([
      { $match: { _id: 3 } },
      { $lookup: { from: 'accounts', localField: 'acct', foreignField: '_id', as: 'acc' } },
    ]);
    expect(byField[0]!.acc).toEqual([{ _id: 'b', owner: 'bob' }]);
    const byPipeline = run([
      { $match: { _id: 1 } },
      {
        $lookup: {
          from: 'accounts',
          let: { a: '$acct' },
          pipeline: [{ $match: { $expr: { $eq: ['$_id', '$$a'] } } }],
          as: 'acc',
        },
      },
    ]);
    expect(byPipeline[0]!.acc).toEqual([{ _id: 'a', owner: 'ann' }]);
  });
  it('runs facets and buckets', () => {
    const [facets] = run([{ $facet: { n: [{ $count: 'n' }], ids: [{ $project: { _id: 1 } }] } }]);
    expect(facets).toEqual({ n: [{ n: 3 }], ids: [{ _id: 1 }, { _id: 2 }, { _id: 3 }] });
    expect(run([{ $bucket: { groupBy: '$_id', boundaries: [0, 2, 10] } }])).toEqual([
      { _id: 0, count: 1 },
      { _id: 2, count: 2 },
    ]);
  });
  it('samples and reads $documents without a collection', () => {
    expect(run([{ $sample: { size: 2 } }])).toHaveLength(2);
    expect(ledger().aggregate('db', null, [{ $documents: [{ a: 1 }] }])).toEqual([{ a: 1 }]);
  });
  it('binds $$NOW to the catalog clock and compares ObjectIds by value', () => {
    expect(run([{ $limit: 1 }, { $project: { _id: 0, now: '$$NOW' } }])).toEqual([{ now: FIXED_NOW }]);
    const cat = newCatalog();
    const id = new ObjectId();
    cat.getOrCreateCollection('db', 'o').insertOne({ _id: id });
    expect(
      cat.aggregate('db', 'o', [{ $match: { $expr: { $eq: ['$_id', new ObjectId(id.toHexString())] } } }]),
    ).toHaveLength(1);
  });
  it('refuses an unknown stage with 40324', () => {
    const err = errorOf(() => run([{ $foo: {} }]));
    expect([err.code, err.message]).toEqual([40324, "Unrecognized pipeline stage name: '$foo'"]);
  });
  it('refuses an unknown expression operator with InvalidPipelineOperator', () => {
    expect(errorOf(() => run([{ $project: { x: { $nope: 1 } } }])).code).toBe(168);
  });
});
