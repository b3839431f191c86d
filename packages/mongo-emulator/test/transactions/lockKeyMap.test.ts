// The lock table and the write history find keys by namespace and index, then by BSON equality
// of the key values: 1, 1.0 and 1n are one key, a string and a symbol of the same text are one
// key, the same values under another index or namespace are another, and the size counts each
// key once. Keys of strings and ObjectIds are hashed, others kept in B-trees: both kinds here.
import { BSONSymbol, ObjectId } from 'bson';
import { describe, expect, it } from 'vitest';
import { LockKeyMap } from '../../src/txn/LockKeyMap.ts';
import type { LockKey } from '../../src/txn/lockKeys.ts';

const key = (ns: string, index: string, ...values: unknown[]): LockKey => ({ ns, index, key: values });

describe('LockKeyMap', () => {
  it('finds a key by BSON equality of its values, within its namespace and index only', () => {
    const map = new LockKeyMap<string>();
    map.set(key('db.a', 'n_1', 1, 'x'), 'first');
    expect(map.get(key('db.a', 'n_1', 1n, 'x'))).toBe('first');
    expect(map.get(key('db.a', 'n_1', 1.0, 'x'))).toBe('first');
    expect(map.get(key('db.a', 'n_1', 1))).toBeUndefined();
    expect(map.get(key('db.a', 'other', 1, 'x'))).toBeUndefined();
    expect(map.get(key('db.b', 'n_1', 1, 'x'))).toBeUndefined();
    // A namespace and index whose names run together otherwise stay apart.
    map.set(key('db.a', 'b_1', 'v'), 'ab');
    expect(map.get(key('db.ab', '_1', 'v'))).toBeUndefined();
  });

  it('hashes strings, symbols and ObjectIds with one spelling each, apart from every other type', () => {
    const map = new LockKeyMap<string>();
    const id = new ObjectId();
    map.set(key('db.a', '_id_', 'x'), 'string');
    map.set(key('db.a', '_id_', id), 'objectId');
    map.set(key('db.a', 'pair', 'a\u0000sb'), 'pair');
    expect(map.get(key('db.a', '_id_', new BSONSymbol('x')))).toBe('string');
    expect(map.get(key('db.a', '_id_', ObjectId.createFromHexString(id.toHexString())))).toBe('objectId');
    expect(map.get(key('db.a', '_id_', id.toHexString()))).toBeUndefined();
    // A string may hold NUL: one string spelled like two is still one key, and not theirs.
    expect(map.get(key('db.a', 'pair', 'a', 'b'))).toBeUndefined();
    expect(map.get(key('db.a', 'pair', 'a\u0000sb'))).toBe('pair');
    map.set(key('db.a', '_id_', { k: 1 }), 'document');
    expect(map.get(key('db.a', '_id_', { k: 1.0 }))).toBe('document');
    expect(map.size).toBe(4);
  });

  it('overwrites an equal key, deletes it, and counts each key once', () => {
    const map = new LockKeyMap<string>();
    map.set(key('db.a', '_id_', 'k'), 'one');
    map.set(key('db.a', '_id_', 'k'), 'two');
    map.set(key('db.a', '_id_', 'l'), 'three');
    map.set(key('db.b', '_id_', 'k'), 'four');
    map.set(key('db.b', 'n_1', 7), 'five');
    map.set(key('db.b', 'n_1', 7n), 'six');
    expect(map.size).toBe(4);
    expect(map.get(key('db.b', 'n_1', 7.0))).toBe('six');
    map.delete(key('db.b', 'n_1', 7));
    expect(map.get(key('db.b', 'n_1', 7n))).toBeUndefined();
    expect(map.get(key('db.a', '_id_', 'k'))).toBe('two');
    map.delete(key('db.a', '_id_', 'k'));
    map.delete(key('db.a', '_id_', 'missing'));
    expect(map.size).toBe(2);
    expect(map.get(key('db.a', '_id_', 'k'))).toBeUndefined();
    expect(map.get(key('db.b', '_id_', 'k'))).toBe('four');
    map.delete(key('db.a', '_id_', 'l'));
    map.delete(key('db.b', '_id_', 'k'));
    expect(map.size).toBe(0);
    map.set(key('db.a', '_id_', 'k'), 'again');
    expect(map.get(key('db.a', '_id_', 'k'))).toBe('again');
  });
});
