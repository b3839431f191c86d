// Proves $out replaces a collection only on success (keeping its indexes) and $merge writes
// through the target's indexes with each whenMatched / whenNotMatched mode.
import { describe, expect, it } from 'vitest';
import type { Document } from '../../src/engine/types.ts';
import { errorOf, newCatalog } from './helpers.ts';

function seeded() {
  const cat = newCatalog();
  const src = cat.getOrCreateCollection('db', 'src');
  src.insertOne({ _id: 1, x: 11 });
  src.insertOne({ _id: 2, x: 22 });
  src.insertOne({ _id: 3, x: 33 });
  return cat;
}

const docsOf = (cat: ReturnType<typeof newCatalog>, name: string) =>
  cat.getCollection('db', name)?.find({}, { sort: { _id: 1 } }) ?? [];

describe('$out', () => {
  it('replaces the target with the results and returns nothing', () => {
    const cat = seeded();
    cat.getOrCreateCollection('db', 'out').insertOne({ _id: 99 });
    expect(cat.aggregate('db', 'src', [{ $match: { _id: { $gt: 1 } } }, { $out: 'out' }])).toEqual([]);
    expect(docsOf(cat, 'out')).toEqual([
      { _id: 2, x: 22 },
      { _id: 3, x: 33 },
    ]);
  });
  it('reports the writes made to the new collection after it replaced the target', () => {
    const cat = seeded();
    const seen: string[] = [];
    cat.observe((change) => seen.push(`${change.op} ${change.coll} ${String(change.documentKey._id)}`));
    cat.aggregate('db', 'src', [{ $match: { _id: 1 } }, { $out: 'out' }]);
    cat.getCollection('db', 'out')!.insertOne({ _id: 7 });
    cat.getCollection('db', 'out')!.delete({ q: { _id: 1 }, limit: 1 });
    expect(seen).toEqual(['insert out 1', 'insert out 7', 'delete out 1']);
  });
  it('keeps the target unchanged and its indexes when the output violates them', () => {
    const cat = seeded();
    const out = cat.getOrCreateCollection('db', 'out');
    out.createIndexes([{ key: { k: 1 }, name: 'k_1', unique: true }]);
    out.insertOne({ _id: 99, k: 1 });
    expect(
      errorOf(() => cat.aggregate('db', 'src', [{ $project: { k: { $literal: 5 } } }, { $out: 'out' }])).code,
    ).toBe(11000);
    expect(docsOf(cat, 'out')).toEqual([{ _id: 99, k: 1 }]);
    cat.aggregate('db', 'src', [{ $project: { k: '$x' } }, { $out: 'out' }]);
    expect(
      cat
        .getCollection('db', 'out')!
        .listIndexes()
        .map((i) => i.name),
    ).toEqual(['_id_', 'k_1']);
  });
  it('refuses $out before the last stage with 40601', () => {
    expect(errorOf(() => seeded().aggregate('db', 'src', [{ $out: 'o' }, { $match: {} }])).code).toBe(40601);
  });
});

describe('$merge', () => {
  function target() {
    const cat = seeded();
    cat.getOrCreateCollection('db', 't').insertOne({ _id: 2, x: 0, keep: true });
    return cat;
  }
  const merge = (spec: Document) => {
    const cat = target();
    cat.aggregate('db', 'src', [{ $merge: { into: 't', ...spec } }]);
    return docsOf(cat, 't');
  };
  it('merges matched documents and inserts the rest by default', () => {
    expect(merge({})).toEqual([
      { _id: 1, x: 11 },
      { _id: 2, x: 22, keep: true },
      { _id: 3, x: 33 },
    ]);
  });
  it('replaces, keeps existing, or discards as asked', () => {
    expect(merge({ whenMatched: 'replace' })[1]).toEqual({ _id: 2, x: 22 });
    expect(merge({ whenMatched: 'keepExisting', whenNotMatched: 'discard' })).toEqual([{ _id: 2, x: 0, keep: true }]);
  });
  it('runs a whenMatched pipeline with $$new', () => {
    expect(merge({ whenMatched: [{ $set: { x: { $add: ['$x', '$$new.x'] } } }], whenNotMatched: 'discard' })).toEqual([
      { _id: 2, x: 22, keep: true },
    ]);
  });
  it('fails on a match with a real duplicate-key error', () => {
    const cat = target();
    const err = errorOf(() =>
      cat.aggregate('db', null, [{ $documents: [{ _id: 2, x: 1 }] }, { $merge: { into: 't', whenMatched: 'fail' } }]),
    );
    expect(err.code).toBe(11000);
    expect(err.extra).toEqual({ keyPattern: { _id: 1 }, keyValue: { _id: 2 } });
  });
  it('fails when nothing matches and whenNotMatched is fail', () => {
    expect(
      errorOf(() => target().aggregate('db', 'src', [{ $merge: { into: 't', whenNotMatched: 'fail' } }])).code,
    ).toBe(13113);
  });
});
