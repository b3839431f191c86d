// Proves the catalog's basic life cycle: implicit creation, listing, dropping, and that every
// write reaches the observer in apply order.
import { describe, expect, it } from 'vitest';
import { Catalog } from '../../src/engine/catalog.ts';
import type { CommandError } from '../../src/errors.ts';

describe('Catalog', () => {
  it('creates a collection implicitly on first write and lists it', () => {
    const cat = new Catalog();
    cat.getOrCreateCollection('db', 'c').insertOne({ a: 1 });
    expect(cat.listDatabaseNames()).toEqual(['db']);
    expect(cat.listCollections('db').map((c) => c.name)).toEqual(['c']);
  });

  it('refuses to create a collection twice with NamespaceExists', () => {
    const cat = new Catalog();
    cat.createCollection('db', 'c');
    expect(() => cat.createCollection('db', 'c')).toThrow(expect.objectContaining({ code: 48 }) as CommandError);
  });

  it('drops collections and databases', () => {
    const cat = new Catalog();
    cat.createCollection('db', 'c');
    expect(cat.dropCollection('db', 'c')).toBe(true);
    expect(cat.dropCollection('db', 'c')).toBe(false);
    cat.createCollection('db2', 'c');
    cat.dropDatabase('db2');
    expect(cat.getCollection('db2', 'c')).toBeUndefined();
  });

  it('reports every change to observers in apply order', () => {
    const cat = new Catalog();
    const seen: string[] = [];
    cat.observe((ch) => seen.push(ch.op));
    const c = cat.getOrCreateCollection('db', 'c');
    c.insertOne({ _id: 1, a: 1 });
    c.update({ q: { _id: 1 }, u: { $set: { a: 2 } } });
    c.delete({ q: { _id: 1 }, limit: 1 });
    expect(seen).toEqual(['insert', 'update', 'delete']);
  });

  it('aggregates over a collection', () => {
    const cat = new Catalog();
    const c = cat.getOrCreateCollection('db', 'c');
    c.insertOne({ k: 'a', n: 1 });
    c.insertOne({ k: 'a', n: 2 });
    expect(cat.aggregate('db', 'c', [{ $group: { _id: '$k', total: { $sum: '$n' } } }])).toEqual([
      { _id: 'a', total: 3 },
    ]);
  });

  it('refuses an unknown stage with code 40324', () => {
    const cat = new Catalog();
    expect(() => cat.aggregate('db', null, [{ $foo: {} }])).toThrow("Unrecognized pipeline stage name: '$foo'");
  });
});
