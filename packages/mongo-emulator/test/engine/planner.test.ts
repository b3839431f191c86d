// Proves reads walk index bounds instead of scanning (asserted through lastExamined and
// lastIndexUsed), stop early when the index order serves a limited sort, and still return
// exactly what a scan would.
import { describe, expect, it } from 'vitest';
import type { Collection } from '../../src/engine/collection.ts';
import { errorOf, newCollection } from './helpers.ts';

const DOCS = 1000;

function workItems(): Collection {
  const c = newCollection('work');
  c.createIndexes([{ key: { status: 1, kind: 1, availableAt: 1 }, name: 'claim' }]);
  for (let i = 0; i < DOCS; i++) {
    c.insertOne({ _id: i, status: i % 10 === 0 ? 'PENDING' : 'DONE', kind: i % 20 === 0 ? 'x' : 'y', availableAt: new Date(1_000_000 + i) });
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
    const [first] = c.find({ status: 'PENDING', kind: 'x', availableAt: { $lte: new Date(2_000_000) } }, { sort: { availableAt: 1 }, limit: 1 });
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
    const r = c.findAndModify({ query: { status: 'PENDING', kind: 'x', availableAt: { $lte: new Date(2_000_000) } }, sort: { availableAt: 1 }, update: { $set: { status: 'PROCESSING' } }, new: true });
    expect(r.value).toMatchObject({ _id: 0, status: 'PROCESSING' });
    expect(c.lastExamined).toBe(1);
    const next = c.findAndModify({ query: { status: 'PENDING', kind: 'x' }, sort: { availableAt: 1 }, update: { $set: { status: 'PROCESSING' } } });
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
    expect(c.find({ a: { $gt: 3, $lt: 5 } }).map((d) => d._id).sort()).toEqual([1, 2]);
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
    expect(c.find({ payoutId: { $in: [null, 'p'] } }).map((d) => d._id).sort()).toEqual([1, 2, 3]);
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
