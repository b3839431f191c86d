// Proves reads walk index bounds instead of scanning (asserted through lastExamined and
// lastIndexUsed), stop early when the index order serves a limited sort, and still return
// exactly what a scan would.
import { describe, expect, it } from 'vitest';
import type { Collection } from '../../src/engine/collection.ts';
import { errorOf, FIXED_NOW, newCollection } from './helpers.ts';

const DOCS = 1000;

function workItems(): Collection {
  const c = newCollection('work');
  c.createIndexes([{ key: { status: 1, kind: 1, availableAt: 1 }, name: 'claim' }]);
  for (let i = 0; i < DOCS; i++) {
    c.insertOne({
      _id: i,
      status: i % 10 === 0 ? 'PENDING' : 'DONE',
      kind: i % 20 === 0 ? 'x' : 'y',
      availableAt: new Date(1_000_000 + i),
    });
  }
  return c;
}

describe('index bounds', () => {
  it('answers an _id equality by examining one document', () => {
    const c = workItems();
    expect(c.find({ _id: 500 })).toHaveLength(1);
    expect(c.lastIndexUsed).toBe('_id_');
    expect(c.lastExamined).toBe(1);
  });
  it('walks only the equality prefix and range of a compound index', () => {
    const c = workItems();
    const rows = c.find({ status: 'PENDING', kind: 'x', availableAt: { $lte: new Date(1_000_500) } });
    expect(rows).toHaveLength(26);
    expect(c.lastIndexUsed).toBe('claim');
    expect(c.lastExamined).toBe(26);
  });
  it('stops after the first document when the sort follows the index', () => {
    const c = workItems();
    const [first] = c.find(
      { status: 'PENDING', kind: 'x', availableAt: { $lte: new Date(2_000_000) } },
      { sort: { availableAt: 1 }, limit: 1 },
    );
    expect(first!._id).toBe(0);
    expect(c.lastExamined).toBe(1);
  });
  it('walks backwards for the reversed sort', () => {
    const c = workItems();
    const [last] = c.find({ status: 'PENDING', kind: 'x' }, { sort: { availableAt: -1 }, limit: 1 });
    expect(last!._id).toBe(980);
    expect(c.lastExamined).toBe(1);
  });
  it('claims through findAndModify with an index walk', () => {
    const c = workItems();
    const r = c.findAndModify({
      query: { status: 'PENDING', kind: 'x', availableAt: { $lte: new Date(2_000_000) } },
      sort: { availableAt: 1 },
      update: { $set: { status: 'PROCESSING' } },
      new: true,
    });
    expect(r.value).toMatchObject({ _id: 0, status: 'PROCESSING' });
    expect(c.lastExamined).toBe(1);
    const next = c.findAndModify({
      query: { status: 'PENDING', kind: 'x' },
      sort: { availableAt: 1 },
      update: { $set: { status: 'PROCESSING' } },
    });
    expect(next.value).toMatchObject({ _id: 20, status: 'PENDING' });
  });
  it('prefers the index that also serves the sort over an equally bounded one', () => {
    const c = newCollection();
    c.createIndexes([{ key: { kind: 1, status: 1 }, name: 'kind_status' }]);
    c.createIndexes([{ key: { status: 1, kind: 1, availableAt: 1 }, name: 'claim' }]);
    for (let i = 0; i < 50; i++) c.insertOne({ status: 'PENDING', kind: 'x', availableAt: new Date(i) });
    c.find({ status: 'PENDING', kind: 'x' }, { sort: { availableAt: 1 }, limit: 1 });
    expect(c.lastIndexUsed).toBe('claim');
    expect(c.lastExamined).toBe(1);
  });
  it('unions $in points', () => {
    const c = workItems();
    expect(c.find({ _id: { $in: [3, 999, 5000] } }).map((d) => d._id)).toEqual([3, 999]);
    expect(c.lastExamined).toBe(2);
  });
  it('scans when no index applies, with the same results', () => {
    const c = workItems();
    expect(c.find({ kind: 'x' })).toHaveLength(50);
    expect(c.lastIndexUsed).toBeUndefined();
    expect(c.lastExamined).toBe(DOCS);
  });
  it('keeps one-sided ranges on multikey fields correct', () => {
    const c = newCollection();
    c.createIndexes([{ key: { a: 1 }, name: 'a_1' }]);
    c.insertOne({ _id: 1, a: [1, 10] });
    c.insertOne({ _id: 2, a: [4] });
    expect(
      c
        .find({ a: { $gt: 3, $lt: 5 } })
        .map((d) => d._id)
        .sort(),
    ).toEqual([1, 2]);
    expect(c.find({ a: 10 }).map((d) => d._id)).toEqual([1]);
  });
  it('finds numbers of every width through one index', () => {
    const c = newCollection();
    c.createIndexes([{ key: { n: 1 }, name: 'n_1' }]);
    c.insertOne({ n: 5n });
    c.insertOne({ n: 'five' });
    expect(c.find({ n: 5 })).toHaveLength(1);
    expect(c.find({ n: { $gte: 4.5 } })).toHaveLength(1);
    expect(c.lastIndexUsed).toBe('n_1');
  });
});

describe('null and missing', () => {
  it('finds null and missing values through the null key', () => {
    const c = newCollection();
    c.createIndexes([{ key: { payoutId: 1 }, name: 'payoutId_1' }]);
    c.insertOne({ _id: 1, payoutId: null });
    c.insertOne({ _id: 2 });
    c.insertOne({ _id: 3, payoutId: 'p' });
    c.insertOne({ _id: 4, payoutId: [] });
    expect(c.find({ payoutId: null }).map((d) => d._id)).toEqual([1, 2]);
    expect(c.lastIndexUsed).toBe('payoutId_1');
    expect(c.lastExamined).toBe(2);
    expect(
      c
        .find({ payoutId: { $in: [null, 'p'] } })
        .map((d) => d._id)
        .sort(),
    ).toEqual([1, 2, 3]);
  });
  it('does not use a sparse index for null, which it does not hold', () => {
    const c = newCollection();
    c.createIndexes([{ key: { k: 1 }, name: 'k_1', sparse: true }]);
    c.insertOne({ _id: 1 });
    expect(c.find({ k: null })).toHaveLength(1);
    expect(c.lastIndexUsed).toBeUndefined();
  });
});

describe('descending keys', () => {
  it('walks an equality prefix of a compound index with descending fields', () => {
    const c = newCollection();
    c.createIndexes([{ key: { acct: 1, at: -1, seq: -1 }, name: 'acct_1_at_-1_seq_-1' }]);
    for (let i = 0; i < 30; i++) c.insertOne({ _id: i, acct: `a${i % 3}`, at: new Date(i), seq: i });
    const rows = c.find({ acct: 'a1' }, { sort: { at: -1, seq: -1 }, limit: 3 });
    expect(rows.map((d) => d._id)).toEqual([28, 25, 22]);
    expect(c.lastIndexUsed).toBe('acct_1_at_-1_seq_-1');
    expect(c.lastExamined).toBe(3);
    expect(c.find({ acct: 'a1', at: { $lt: new Date(10) } }, { sort: { at: 1 } }).map((d) => d._id)).toEqual([1, 4, 7]);
  });
});

describe('hint', () => {
  it('uses the hinted index by name or key', () => {
    const c = workItems();
    c.find({ kind: 'x' }, { hint: 'claim' });
    expect(c.lastIndexUsed).toBe('claim');
    c.find({ _id: 1 }, { hint: { status: 1, kind: 1, availableAt: 1 } });
    expect(c.lastIndexUsed).toBe('claim');
  });
  it('refuses a hint that names no index with BadValue', () => {
    const err = errorOf(() => workItems().find({}, { hint: 'nope' }));
    expect([err.code, err.message]).toEqual([2, 'hint provided does not correspond to an existing index']);
  });
});

// A claim queue where another kind dominates: 10,000 items of 'other' ahead of 5 asked-for ones.
function backloggedQueue(): Collection {
  const c = newCollection('queue');
  c.createIndexes([{ key: { status: 1, kind: 1, availableAt: 1 }, name: 'status_kind_availableAt' }]);
  for (let i = 0; i < 10_000; i++)
    c.insertOne({ _id: i, status: 'PENDING', kind: 'other', availableAt: new Date(1_000 + i) });
  const asked = [
    ['a', 20_000],
    ['b', 20_001],
    ['a', 20_002],
    ['c', 20_003],
    ['b', 20_004],
  ] as const;
  for (const [n, [kind, at]] of asked.entries())
    c.insertOne({ _id: `k${n}`, status: 'PENDING', kind, availableAt: new Date(at) });
  return c;
}

describe('explode for sort', () => {
  // Proves an $in before the sort field walks one range per point, merged in sort order, and
  // stops after the limit: the claim examines about one key per range, not the backlog.
  it('claims the oldest of several kinds past a backlog of another kind in a handful of keys', () => {
    const c = backloggedQueue();
    const r = c.findAndModify({
      query: { status: 'PENDING', kind: { $in: ['b', 'a', 'c'] } },
      sort: { availableAt: 1 },
      update: { $set: { status: 'PROCESSING' } },
      new: true,
    });
    expect(r.value).toMatchObject({ _id: 'k0', kind: 'a' });
    expect(c.lastIndexUsed).toBe('status_kind_availableAt');
    expect(c.lastExamined).toBe(1);
  });
  it('merges the ranges into one sort order, forwards and backwards, with skip', () => {
    const c = backloggedQueue();
    const ids = (sort: 1 | -1, skip = 0) =>
      c
        .find({ status: 'PENDING', kind: { $in: ['a', 'b', 'c'] } }, { sort: { availableAt: sort }, skip, limit: 10 })
        .map((d) => d._id);
    expect(ids(1)).toEqual(['k0', 'k1', 'k2', 'k3', 'k4']);
    expect(ids(-1)).toEqual(['k4', 'k3', 'k2', 'k1', 'k0']);
    expect(ids(1, 2)).toEqual(['k2', 'k3', 'k4']);
    expect(c.lastExamined).toBe(5);
    const [newest] = c.find({ status: 'PENDING', kind: { $in: ['a', 'b'] } }, { sort: { availableAt: -1 }, limit: 1 });
    expect(newest!._id).toBe('k4');
    expect(c.lastExamined).toBe(1);
  });
  it("sorts in memory past mongod's 200 exploded scans, with the same results", () => {
    const c = backloggedQueue();
    const kinds = ['a', 'b', ...Array.from({ length: 200 }, (_, i) => `none${i}`)];
    const [first] = c.find({ status: 'PENDING', kind: { $in: kinds } }, { sort: { availableAt: 1 }, limit: 1 });
    expect(first!._id).toBe('k0');
    expect(c.lastExamined).toBe(4);
  });
});

describe('$expr bounds', () => {
  // Proves `$expr` comparisons with a constant, $$NOW or a let variable bound the index as
  // mongod's $_internalExpr* rewrite does, while the full filter still decides the result.
  const FUTURE = new Date(FIXED_NOW.getTime() + 60_000);
  function dueQueue(): Collection {
    const c = newCollection('due');
    c.createIndexes([{ key: { status: 1, availableAt: 1 }, name: 'status_availableAt' }]);
    for (let i = 0; i < 1_000; i++)
      c.insertOne({ _id: i, status: 'PENDING', availableAt: new Date(FUTURE.getTime() + i) });
    c.insertOne({ _id: 'due', status: 'PENDING', availableAt: new Date(FIXED_NOW.getTime() - 1) });
    return c;
  }
  it('walks only the due items of a queue of future ones for $lte $$NOW', () => {
    const c = dueQueue();
    expect(c.find({ status: 'PENDING', $expr: { $lte: ['$availableAt', '$$NOW'] } }).map((d) => d._id)).toEqual([
      'due',
    ]);
    expect(c.lastIndexUsed).toBe('status_availableAt');
    expect(c.lastExamined).toBe(1);
  });
  it('bounds swapped operands, let variables, $literal and $and', () => {
    const c = dueQueue();
    expect(c.find({ status: 'PENDING', $expr: { $gte: ['$$NOW', '$availableAt'] } })).toHaveLength(1);
    expect(c.lastExamined).toBe(1);
    expect(
      c.find({ status: 'PENDING', $expr: { $lt: ['$availableAt', '$$cutoff'] } }, { let: { cutoff: FIXED_NOW } }),
    ).toHaveLength(1);
    expect(c.lastExamined).toBe(1);
    const window = {
      $and: [
        { $gt: ['$availableAt', { $literal: FUTURE }] },
        { $lte: ['$availableAt', new Date(FUTURE.getTime() + 3)] },
      ],
    };
    expect(c.find({ status: 'PENDING', $expr: window })).toHaveLength(3);
    // The `$gt` end is open, as mongod's interval is: the key equal to it is not walked.
    expect(c.lastExamined).toBe(3);
  });
  it('compares across types without bracketing: $lte a date also finds numbers, null and missing', () => {
    const c = newCollection();
    c.createIndexes([{ key: { at: 1 }, name: 'at_1' }]);
    c.insertOne({ _id: 1, at: 5 });
    c.insertOne({ _id: 2, at: null });
    c.insertOne({ _id: 3 });
    c.insertOne({ _id: 4, at: 'str' });
    c.insertOne({ _id: 5, at: new Date(0) });
    c.insertOne({ _id: 6, at: FUTURE });
    expect(
      c
        .find({ $expr: { $lte: ['$at', '$$NOW'] } })
        .map((d) => d._id)
        .sort(),
    ).toEqual([1, 2, 3, 4, 5]);
    expect(c.lastIndexUsed).toBe('at_1');
    expect(
      c
        .find({ $expr: { $gt: ['$at', 4] } })
        .map((d) => d._id)
        .sort(),
    ).toEqual([1, 4, 5, 6]);
    expect(c.find({ $expr: { $eq: ['$at', null] } }).map((d) => d._id)).toEqual([2]);
  });
  it('does not bound a multikey index, where $expr compares whole arrays', () => {
    const c = newCollection();
    c.createIndexes([{ key: { at: 1 }, name: 'at_1' }]);
    c.insertOne({ _id: 1, at: [1, 10] });
    c.insertOne({ _id: 2, at: 3 });
    expect(c.find({ $expr: { $gt: ['$at', 5] } }).map((d) => d._id)).toEqual([1]);
    expect(c.lastIndexUsed).toBeUndefined();
  });
});

describe('open bounds', () => {
  it('starts a $gt walk after the keys equal to its operand, and ends a $lt walk before them, on compound and descending indexes', () => {
    const c = newCollection();
    c.createIndexes([
      { key: { kind: 1, status: 1 }, name: 'kind_status' },
      { key: { n: -1, m: 1 }, name: 'n_desc_m' },
    ]);
    for (let i = 0; i < 400; i++)
      c.insertOne({ _id: i, kind: ['A', 'B', 'C', 'D'][i % 4], status: i % 2 ? 'DONE' : 'PENDING', n: i % 8, m: i });
    expect(c.find({ kind: { $gt: 'A' } }, { sort: { kind: 1 }, limit: 1, hint: 'kind_status' })[0]?.kind).toBe('B');
    expect(c.lastExamined).toBe(1);
    expect(c.find({ kind: { $gt: 'B', $lt: 'D' } }, { hint: 'kind_status' })).toHaveLength(100);
    expect(c.lastExamined).toBe(100);
    expect(
      c
        .find({ n: { $gt: 3, $lt: 6 } }, { hint: 'n_desc_m' })
        .map((d) => d.n as number)
        .sort(),
    ).toEqual([...Array(50).fill(4), ...Array(50).fill(5)]);
    expect(c.lastExamined).toBe(100);
    expect(c.find({ n: { $lt: 1 } }, { sort: { n: -1 }, hint: 'n_desc_m' })).toHaveLength(50);
    expect(c.lastExamined).toBe(50);
  });
});
