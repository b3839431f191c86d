// Proves each CRUD and catalog command answers the official driver as mongod does: results,
// cursors across batches, counts, error codes and reply shapes.
import { describe, expect, it } from 'vitest';
import { Long } from 'mongodb';
import { useEmulator, cursorIdOf } from './emulatorFixture.ts';

const fixture = useEmulator();
const db = () => fixture.client.db('crud');

describe('insert / find / getMore / killCursors', () => {
  it('returns every document across several getMore batches', async () => {
    const coll = db().collection('many');
    await coll.insertMany(Array.from({ length: 250 }, (_, i) => ({ i })));
    const all = await coll.find({}, { batchSize: 7 }).sort({ i: -1 }).toArray();
    expect(all).toHaveLength(250);
    expect(all[0]!.i).toBe(249);
  });

  it('honours skip, limit, projection and singleBatch', async () => {
    const coll = db().collection('many');
    const page = await coll
      .find({ i: { $gte: 10 } }, { projection: { _id: 0, i: 1 } })
      .sort({ i: 1 })
      .skip(5)
      .limit(3)
      .toArray();
    expect(page).toEqual([{ i: 15 }, { i: 16 }, { i: 17 }]);
    const reply = await db().command({ find: 'many', filter: {}, batchSize: 2, singleBatch: true });
    expect(reply.cursor.firstBatch).toHaveLength(2);
    expect(reply.cursor.id.toString()).toBe('0');
  });

  it('opens a cursor with a Long id that killCursors kills and getMore then misses', async () => {
    const reply = await db().command({ find: 'many', filter: {}, batchSize: 1 });
    const id = cursorIdOf(reply);
    expect(reply.cursor.ns).toBe('crud.many');
    expect(id.toString()).not.toBe('0');
    const killed = await db().command({ killCursors: 'many', cursors: [id] });
    expect(killed.cursorsKilled.map(String)).toEqual([id.toString()]);
    await expect(db().command({ getMore: id, collection: 'many' })).rejects.toMatchObject({
      code: 43,
      codeName: 'CursorNotFound',
    });
  });

  it('finds nothing in a collection that does not exist', async () => {
    expect(await db().collection('nowhere').find({}).toArray()).toEqual([]);
  });
});

describe('a null _id', () => {
  // mongod keeps a present `_id: null` (src/mongo/db/ops/insert.cpp, fixDocumentForInsert adds an
  // _id only when the field is absent) and the _id index holds it once. The spec test
  // crud/create-null-ids.json fails only because the Node driver replaces a null _id before it
  // sends the insert (utils.ts maybeAddIdToDocuments: `document._id == null`).
  it('stores and matches a null _id sent on the wire, once, while the driver replaces one', async () => {
    const coll = db().collection('nullIds');
    expect(await db().command({ insert: 'nullIds', documents: [{ _id: null, a: 1 }] })).toMatchObject({ n: 1 });
    const again = await db().command({ insert: 'nullIds', documents: [{ _id: null, a: 2 }] });
    expect(again.writeErrors).toMatchObject([{ code: 11000, keyValue: { _id: null } }]);
    expect(await coll.countDocuments({ _id: { $type: 'null' } })).toBe(1);
    expect(await coll.find({ _id: null } as never).toArray()).toEqual([{ _id: null, a: 1 }]);
    const viaDriver = await coll.insertOne({ _id: null, a: 3 } as never);
    expect(viaDriver.insertedId).not.toBeNull();
    expect(await coll.countDocuments({ _id: { $type: 'null' } })).toBe(1);
  });
});

describe('update / delete / findAndModify', () => {
  it('reports n, nModified and upserted ids', async () => {
    const coll = db().collection('upd');
    await coll.insertMany([
      { k: 1, v: 0 },
      { k: 1, v: 0 },
      { k: 2, v: 0 },
    ]);
    const many = await coll.updateMany({ k: 1 }, { $inc: { v: 1 } });
    expect(many).toMatchObject({ matchedCount: 2, modifiedCount: 2, upsertedCount: 0 });
    const upsert = await coll.updateOne({ k: 3 }, { $set: { v: 9 } }, { upsert: true });
    expect(upsert.upsertedCount).toBe(1);
    expect(await coll.findOne({ _id: upsert.upsertedId! })).toMatchObject({ k: 3, v: 9 });
    const raw = await db().command({ update: 'upd', updates: [{ q: { k: 2 }, u: { $set: { v: 0 } } }] });
    expect(raw).toMatchObject({ n: 1, nModified: 0 });
  });

  it('deletes one or all matches', async () => {
    const coll = db().collection('del');
    await coll.insertMany([{ k: 1 }, { k: 1 }, { k: 1 }, { k: 2 }]);
    expect((await coll.deleteOne({ k: 1 })).deletedCount).toBe(1);
    expect((await coll.deleteMany({ k: 1 })).deletedCount).toBe(2);
    expect(await coll.countDocuments()).toBe(1);
  });

  it('findOneAndUpdate returns the document before or after, findOneAndDelete removes it', async () => {
    const coll = db().collection('fam');
    await coll.insertOne({ _id: 'a', n: 1 } as never);
    expect(await coll.findOneAndUpdate({ _id: 'a' } as never, { $inc: { n: 1 } })).toMatchObject({ n: 1 });
    expect(
      await coll.findOneAndUpdate({ _id: 'a' } as never, { $inc: { n: 1 } }, { returnDocument: 'after' }),
    ).toMatchObject({ n: 3 });
    const raw = await db().command({
      findAndModify: 'fam',
      query: { _id: 'b' },
      update: { $set: { n: 0 } },
      upsert: true,
      new: true,
    });
    expect(raw.lastErrorObject).toMatchObject({ n: 1, updatedExisting: false, upserted: 'b' });
    expect(await coll.findOneAndDelete({ _id: 'a' } as never)).toMatchObject({ n: 3 });
    expect(await coll.countDocuments()).toBe(1);
  });

  it('refuses a findAndModify with both update and remove', async () => {
    await expect(
      db().command({ findAndModify: 'fam', query: {}, update: { $set: { x: 1 } }, remove: true }),
    ).rejects.toMatchObject({
      code: 9,
      codeName: 'FailedToParse',
    });
  });
});

describe('aggregate / count / distinct', () => {
  it('aggregates through a cursor', async () => {
    const coll = db().collection('agg');
    await coll.insertMany([
      { g: 'a', x: 1 },
      { g: 'a', x: 2 },
      { g: 'b', x: 5 },
    ]);
    const groups = await coll
      .aggregate([{ $group: { _id: '$g', total: { $sum: '$x' } } }, { $sort: { _id: 1 } }])
      .toArray();
    expect(groups).toEqual([
      { _id: 'a', total: 3 },
      { _id: 'b', total: 5 },
    ]);
  });

  it('requires the cursor option and refuses explain clearly', async () => {
    await expect(db().command({ aggregate: 'agg', pipeline: [] })).rejects.toMatchObject({ code: 9 });
    await expect(db().command({ aggregate: 'agg', pipeline: [], explain: true })).rejects.toMatchObject({ code: 115 });
  });

  it('counts and lists distinct values', async () => {
    expect((await db().command({ count: 'agg', query: { g: 'a' } })).n).toBe(2);
    expect(
      await db()
        .collection('agg')
        .countDocuments({ x: { $gt: 1 } }),
    ).toBe(2);
    expect(await db().collection('agg').distinct('g')).toEqual(['a', 'b']);
  });
});

describe('catalog commands', () => {
  it('creates, lists and drops collections and databases', async () => {
    const other = fixture.client.db('catalog');
    await other.createCollection('c1');
    await expect(other.createCollection('c1')).rejects.toMatchObject({ code: 48, codeName: 'NamespaceExists' });
    await other.collection('c2').insertOne({});
    expect((await other.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name).sort()).toEqual([
      'c1',
      'c2',
    ]);
    expect((await other.listCollections({ name: 'c2' }).toArray()).map((c) => c.name)).toEqual(['c2']);
    const names = (await fixture.client.db('admin').admin().listDatabases()).databases.map((d) => d.name);
    expect(names).toContain('catalog');
    expect(await other.collection('c1').drop()).toBe(true);
    expect((await other.command({ drop: 'never-was' })).ok).toBe(1);
    await other.dropDatabase();
    expect(await other.listCollections().toArray()).toEqual([]);
  });

  it('creates, lists and drops indexes', async () => {
    const coll = db().collection('idx');
    expect(await coll.createIndex({ a: 1, b: -1 }, { name: 'a_b' })).toBe('a_b');
    const names = (await coll.listIndexes().toArray()).map((i) => i.name);
    expect(names).toEqual(['_id_', 'a_b']);
    await coll.dropIndex('a_b');
    expect((await coll.listIndexes().toArray()).map((i) => i.name)).toEqual(['_id_']);
    await expect(db().command({ listIndexes: 'no-such' })).rejects.toMatchObject({
      code: 26,
      codeName: 'NamespaceNotFound',
    });
    await expect(coll.dropIndex('nope')).rejects.toMatchObject({ code: 27, codeName: 'IndexNotFound' });
  });
});

describe('duplicate keys', () => {
  it('answers E11000 with keyPattern and keyValue, for inserts and upserts alike', async () => {
    const coll = db().collection('uniq');
    await coll.createIndex({ email: 1 }, { unique: true });
    await coll.insertOne({ email: 'a@x' });
    const insertError = await coll.insertOne({ email: 'a@x' }).catch((e: unknown) => e);
    expect(insertError).toMatchObject({
      code: 11000,
      keyPattern: { email: 1 },
      keyValue: { email: 'a@x' },
      message: 'E11000 duplicate key error collection: crud.uniq index: email_1 dup key: { email: "a@x" }',
    });
    await coll.insertOne({ email: 'b@x' });
    await expect(coll.updateOne({ email: 'b@x' }, { $set: { email: 'a@x' } })).rejects.toMatchObject({ code: 11000 });
  });

  it('keeps going after a writeError when unordered, stops when ordered', async () => {
    const coll = db().collection('uniq');
    const docs = [{ email: 'c@x' }, { email: 'a@x' }, { email: 'd@x' }];
    const unordered = await db().command({ insert: 'uniq', documents: docs, ordered: false });
    expect(unordered.n).toBe(2);
    expect(unordered.writeErrors).toHaveLength(1);
    expect(unordered.writeErrors[0]).toMatchObject({ index: 1, code: 11000, keyValue: { email: 'a@x' } });
    const ordered = await db().command({
      insert: 'uniq',
      documents: [{ email: 'e@x' }, { email: 'a@x' }, { email: 'f@x' }],
    });
    expect(ordered.n).toBe(1);
    expect(await coll.countDocuments({ email: 'f@x' })).toBe(0);
  });
});

describe('BSON types end to end', () => {
  it('keeps a long a long', async () => {
    const coll = db().collection('longs');
    await coll.insertOne({ _id: 'acct', balance: Long.fromNumber(5) } as never);
    expect(await coll.countDocuments({ balance: { $type: 'long' } })).toBe(1);
    const doc = await coll.findOne({ _id: 'acct' } as never, { promoteLongs: false });
    expect(doc!.balance).toBeInstanceOf(Long);
    await coll.updateOne({ _id: 'acct' } as never, { $inc: { balance: Long.fromNumber(-2) } });
    const after = await coll.findOne({ _id: 'acct' } as never, { promoteLongs: false });
    expect(after!.balance).toEqual(Long.fromNumber(3));
  });

  it('turns an int that $inc overflows into a long, as mongod does', async () => {
    const coll = db().collection('longs');
    await coll.insertOne({ _id: 'int', n: 2_147_483_647 } as never);
    expect(await coll.countDocuments({ _id: 'int', n: { $type: 'int' } } as never)).toBe(1);
    await coll.updateOne({ _id: 'int' } as never, { $inc: { n: 1 } });
    expect(await coll.countDocuments({ _id: 'int', n: { $type: 'long' } } as never)).toBe(1);
    const doc = await coll.findOne({ _id: 'int' } as never, { promoteLongs: false });
    expect(doc!.n).toEqual(Long.fromString('2147483648'));
  });
});

describe('command envelope', () => {
  it('refuses a collection name of the wrong type as InvalidNamespace', async () => {
    await expect(db().command({ find: 5 })).rejects.toMatchObject({ code: 73, codeName: 'InvalidNamespace' });
  });
});
