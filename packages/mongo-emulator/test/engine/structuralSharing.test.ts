// Proves stored documents are immutable versions sharing structure: an update copies only the
// containers on the paths it writes, the previous version stays exactly as it was (frozen when
// the catalog's freezeDocuments is on, as the suite's emulator runs), reads hand out mutable
// copies, and what the engine derives from versions (index keys, BSON size, updateDescription) stays exact.
import { Binary, BSONRegExp, calculateObjectSize, Decimal128, Long, ObjectId, Timestamp } from 'bson';
import { describe, expect, it } from 'vitest';
import { Catalog } from '../../src/engine/catalog.ts';
import { cloneValue } from '../../src/engine/clone.ts';
import { describeDelta } from '../../src/engine/deltaDiff.ts';
import { documentSize } from '../../src/engine/documentSize.ts';
import type { ChangeRecord, Document } from '../../src/engine/types.ts';
import { errorOf, newCollection } from './helpers.ts';

type Versions = Extract<ChangeRecord, { op: 'update' }>;

const base = (): Document => ({
  _id: 1,
  n: 1,
  a: { b: { c: 1, d: { deep: [1, 2] } }, e: { untouched: true } },
  list: [
    { k: 1, v: 'x' },
    { k: 2, v: 'y' },
    { k: 3, v: 'z' },
  ],
  trace: Array.from({ length: 50 }, (_, i) => ({ r: `req:${i}`, d: BigInt(i) })),
});

/** Applies `u` to a fresh copy of base() and returns the update's change record. */
function versionsOf(u: Document, extra: Document = {}): Versions {
  const c = newCollection();
  c.insertOne(base());
  const [change] = c.update({ q: { _id: 1, 'list.k': 2 }, u, ...extra }).changes;
  expect(change?.op).toBe('update');
  return change as Versions;
}

describe('an update', () => {
  it('copies only the containers on the paths it writes and shares the rest', () => {
    const { fullDocumentBefore: before, fullDocument: after } = versionsOf({ $set: { 'a.b.c': 2 } });
    expect(after).not.toBe(before);
    expect(after.a).not.toBe(before.a);
    expect((after.a as Document).b).not.toBe((before.a as Document).b);
    expect((after.a as Document).e).toBe((before.a as Document).e);
    expect(((after.a as Document).b as Document).d).toBe(((before.a as Document).b as Document).d);
    expect(after.list).toBe(before.list);
    expect(after.trace).toBe(before.trace);
  });

  it('shares the elements of an array it rebuilds', () => {
    const { fullDocumentBefore: before, fullDocument: after } = versionsOf({
      $push: { trace: { $each: [{ r: 'new', d: 0n }], $slice: -50 } },
    });
    const [was, now] = [before.trace as Document[], after.trace as Document[]];
    expect(now).not.toBe(was);
    expect(now[0]).toBe(was[1]);
    expect(now[48]).toBe(was[49]);
    expect(after.a).toBe(before.a);
  });

  // Every operator, positional forms included: the previous version must come out unchanged.
  const updates: [string, Document, Document?][] = [
    ['$set into an array element, padding', { $set: { 'list.5.k': 9 } }],
    ['$unset of a nested field and of an element', { $unset: { 'a.b.c': '', 'list.0': '' } }],
    ['$rename across documents', { $rename: { 'a.b.c': 'a.e.moved' } }],
    ['$inc and $mul', { $inc: { n: 1, 'a.b.c': 5 }, $mul: { 'list.0.k': 3 } }],
    ['$min, $max and $bit', { $min: { n: 0 }, $max: { 'a.b.c': 9 }, $bit: { 'list.1.k': { or: 4 } } }],
    ['$currentDate', { $currentDate: { 'a.b.when': true } }],
    ['$push with $position and $sort', { $push: { list: { $each: [{ k: 0 }], $position: 0, $sort: { k: -1 } } } }],
    ['$addToSet, $pull and $pop', { $addToSet: { 'a.b.d.deep': 3 }, $pull: { list: { k: 1 } }, $pop: { trace: -1 } }],
    ['positional $', { $set: { 'list.$.v': 'matched' } }],
    [
      '$[] and $[id]',
      { $inc: { 'list.$[].k': 10 }, $set: { 'list.$[big].v': 'big' } },
      { arrayFilters: [{ 'big.k': { $gte: 2 } }] },
    ],
    ['a pipeline', [{ $set: { n: { $add: ['$n', 1] } } }] as unknown as Document],
  ];
  for (const [name, u, extra] of updates) {
    it(`leaves the previous version exactly as it was: ${name}`, () => {
      const { fullDocumentBefore: before, fullDocument: after } = versionsOf(u, extra);
      expect(before).toEqual(base());
      expect(after).not.toEqual(base());
    });
  }
});

describe('stored versions', () => {
  it('are frozen in the test suite, so mutating history throws at the culprit', () => {
    // The emulator's entry (startEmulator) turns freezing on from this variable.
    expect(process.env.EMULATOR_FREEZE_DOCUMENTS).toBe('1');
    const { fullDocumentBefore: before, fullDocument: after } = versionsOf({ $inc: { n: 1 } });
    expect(Object.isFrozen(after)).toBe(true);
    expect(Object.isFrozen((after.trace as Document[])[0])).toBe(true);
    expect(() => {
      (before.a as Document).e = 'changed';
    }).toThrow(TypeError);
    expect(() => (after.trace as unknown[]).push(1)).toThrow(TypeError);
  });

  it('are frozen only when the catalog is told to (the default costs no walk)', () => {
    const plain = new Catalog().getOrCreateCollection('db', 'c');
    const { changes } = plain.update({ q: {}, u: { $set: { n: 2 } }, upsert: true });
    expect(Object.isFrozen((changes[0] as { fullDocument: Document }).fullDocument)).toBe(false);
  });

  it('are handed to readers as mutable copies, projected before they are copied', () => {
    const c = newCollection();
    c.insertOne(base());
    const [found] = c.find({ _id: 1 });
    (found!.a as Document).e = 'mine';
    (found!.trace as Document[]).length = 0;
    const { value } = c.findAndModify({
      query: { _id: 1 },
      update: { $inc: { n: 1 } },
      fields: { n: 1, trace: { $slice: -1 } },
      new: true,
    });
    expect(value).toEqual({ _id: 1, n: 2, trace: [{ r: 'req:49', d: 49n }] });
    (value!.trace as Document[])[0]!.r = 'mine';
    expect(c.find({ _id: 1 })[0]).toEqual({ ...base(), n: 2 });
  });

  it('keep the inserted document apart from the caller’s object', () => {
    const c = newCollection();
    const mine = base();
    c.insertOne(mine);
    (mine.a as Document).e = 'mine';
    expect(Object.isFrozen(mine)).toBe(false);
    expect(c.find({ _id: 1 })[0]).toEqual(base());
  });
});

describe('index maintenance on shared versions', () => {
  it('moves the keys of an indexed path changed deep inside shared documents, and only those', () => {
    const c = newCollection();
    c.createIndexes([
      { key: { 'a.b.c': 1 }, name: 'abc' },
      { key: { 'list.k': 1 }, name: 'listK' },
    ]);
    c.insertOne(base());
    c.update({ q: { _id: 1 }, u: { $set: { 'a.b.c': 7 }, $inc: { n: 1 } } });
    expect(c.find({ 'a.b.c': 7 })).toHaveLength(1);
    expect(c.lastIndexUsed).toBe('abc');
    expect(c.find({ 'a.b.c': 1 })).toHaveLength(0);
    c.update({ q: { _id: 1 }, u: { $set: { 'list.1.k': 20 } } });
    expect(c.find({ 'list.k': 20 })).toHaveLength(1);
    expect(c.lastIndexUsed).toBe('listK');
    expect(c.find({ 'list.k': 2 })).toHaveLength(0);
  });

  it('still refuses a duplicate key written through a nested path', () => {
    const c = newCollection();
    c.createIndexes([{ key: { 'a.b.c': 1 }, name: 'abc', unique: true }]);
    c.insertOne(base());
    c.insertOne({ ...base(), _id: 2, a: { b: { c: 2 } } });
    expect(errorOf(() => c.update({ q: { _id: 2 }, u: { $set: { 'a.b.c': 1 } } })).codeName).toBe('DuplicateKey');
    expect(c.find({ 'a.b.c': 2 })).toHaveLength(1);
  });

  it('re-evaluates a partial index whose filter reads a field outside its key', () => {
    const c = newCollection();
    c.createIndexes([{ key: { n: 1 }, name: 'liveN', unique: true, partialFilterExpression: { live: true } }]);
    c.insertOne({ _id: 1, n: 1, live: false });
    c.insertOne({ _id: 2, n: 1, live: true });
    expect(errorOf(() => c.update({ q: { _id: 1 }, u: { $set: { live: true } } })).codeName).toBe('DuplicateKey');
  });
});

describe('what the engine derives from versions', () => {
  it('counts BSON size exactly as calculateObjectSize, also for versions sharing subtrees', () => {
    const doc: Document = {
      _id: new ObjectId(),
      text: 'héllo ✓ 𝄞',
      ints: [0, -1, 2147483647, -2147483648],
      doubles: [0.5, -0, 2147483648, 1e300, Number.NaN],
      long: Long.fromNumber(5),
      big: 9007199254740993n,
      when: new Date(0),
      flags: [true, false, null],
      misc: {
        dec: Decimal128.fromString('1.5'),
        bin: new Binary(Buffer.from('abc')),
        ts: new Timestamp({ t: 1, i: 2 }),
        re: new BSONRegExp('a', 'i'),
        js: /x/g,
      },
      nested: { deeper: [[1, [2, { three: 'é' }]], {}] },
    };
    expect(documentSize(doc)).toBe(calculateObjectSize(doc));
    const c = newCollection();
    c.insertOne(doc);
    const { fullDocument } = c.update({ q: {}, u: { $set: { 'nested.deeper.1.x': 'ü' }, $push: { ints: 7 } } })
      .changes[0] as Versions;
    expect(documentSize(fullDocument)).toBe(calculateObjectSize(fullDocument));
  });

  it('refuses a write that grows a shared document past 16 MiB', () => {
    const c = newCollection();
    c.insertOne({ _id: 1, chunks: ['x'.repeat(8 * 1024 * 1024)] });
    c.update({ q: {}, u: { $set: { n: 1 } } });
    expect(errorOf(() => c.update({ q: {}, u: { $push: { chunks: 'y'.repeat(8 * 1024 * 1024) } } })).codeName).toBe(
      'BSONObjectTooLarge',
    );
    expect(c.find({})[0]!.chunks).toHaveLength(1);
  });

  it('describes an update on first read, from the $v: 2 delta its operators logged', () => {
    const change = versionsOf({ $set: { 'a.b.c': 2 }, $unset: { n: '' }, $pop: { trace: 1 } });
    const expected = describeDelta(cloneValue(change.delta));
    // $pop logs the whole array (pop_node.cpp), so it is an updated field, not a truncation.
    expect(expected.updatedFields).toEqual({ 'a.b.c': 2, trace: change.fullDocument.trace });
    expect(expected.truncatedArrays).toEqual([]);
    expect(change).toMatchObject({
      op: 'update',
      db: 'db',
      coll: 'c',
      documentKey: { _id: 1 },
      fullDocumentBefore: change.fullDocumentBefore,
      fullDocument: change.fullDocument,
    });
    expect(change.updateDescription).toEqual(expected);
    expect(change.updateDescription).toBe(change.updateDescription);
  });
});
