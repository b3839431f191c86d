// Proves find and aggregate honour a collation's strength for string equality and order.
import { describe, expect, it } from 'vitest';
import { newCatalog } from './helpers.ts';

function names() {
  const cat = newCatalog();
  const c = cat.getOrCreateCollection('db', 'names');
  for (const [i, name] of ['b', 'A', 'a', 'á', 'B'].entries()) c.insertOne({ _id: i, name });
  return { cat, c };
}

describe('collation', () => {
  it('matches case-insensitively at strength 2 and accent-insensitively at strength 1', () => {
    const { c } = names();
    expect(c.find({ name: 'a' }, { collation: { locale: 'en', strength: 2 } }).map((d) => d._id)).toEqual([1, 2]);
    expect(c.find({ name: 'a' }, { collation: { locale: 'en', strength: 1 } }).map((d) => d._id)).toEqual([1, 2, 3]);
    expect(c.find({ name: 'a' }).map((d) => d._id)).toEqual([2]);
  });
  it('accepts ICU locale names such as en_US, as mongod and the CRUD spec tests spell them', () => {
    const { c } = names();
    expect(c.find({ name: 'a' }, { collation: { locale: 'en_US', strength: 2 } }).map((d) => d._id)).toEqual([1, 2]);
  });
  it('sorts by the locale instead of code points', () => {
    const { c } = names();
    expect(c.find({}, { sort: { name: 1 } }).map((d) => d.name)).toEqual(['A', 'B', 'a', 'b', 'á']);
    const sorted = c
      .find({}, { sort: { name: 1, _id: 1 }, collation: { locale: 'en', strength: 1 } })
      .map((d) => d.name);
    expect(sorted).toEqual(['A', 'a', 'á', 'b', 'B']);
  });
  it('applies to aggregate $match and $sort', () => {
    const { cat } = names();
    const out = cat.aggregate('db', 'names', [{ $match: { name: 'B' } }, { $sort: { _id: -1 } }], {
      collation: { locale: 'en', strength: 2 },
    });
    expect(out.map((d) => d._id)).toEqual([4, 0]);
  });
});

describe('write observer', () => {
  it('sees a failed write not at all and successful ones in order across collections', () => {
    const cat = newCatalog();
    const seen: string[] = [];
    cat.observe((ch) => seen.push(`${ch.coll}:${ch.op}:${String(ch.documentKey._id)}`));
    const a = cat.getOrCreateCollection('db', 'a');
    const b = cat.getOrCreateCollection('db', 'b');
    a.insertOne({ _id: 1 });
    expect(() => a.insertOne({ _id: 1 })).toThrow();
    b.insertOne({ _id: 2 });
    a.update({ q: {}, u: { $set: { x: 1 } }, multi: true });
    expect(seen).toEqual(['a:insert:1', 'b:insert:2', 'a:update:1']);
  });
  it('stops delivering after unsubscribe', () => {
    const cat = newCatalog();
    let n = 0;
    const stop = cat.observe(() => n++);
    cat.getOrCreateCollection('db', 'a').insertOne({});
    stop();
    cat.getOrCreateCollection('db', 'a').insertOne({});
    expect(n).toBe(1);
  });
});
