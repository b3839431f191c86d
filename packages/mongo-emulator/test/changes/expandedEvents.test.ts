// Proves showExpandedEvents as on mongod 7.0: create (explicit or by a first write), createIndexes,
// dropIndexes, modify and rename with collectionUUID and operationDescription, none of them
// without the option; and a batch capped at 16 MiB, the event that does not fit opening the next.
import { describe, expect, it } from 'vitest';
import type { Binary, Document } from 'mongodb';
import { useEmulator, cursorIdOf } from '../driver/emulatorFixture.ts';
import { opened, take } from './streamHelpers.ts';

type Doc = { _id: number; [field: string]: unknown };
const fixture = useEmulator();
const db = () => fixture.client.db('expanded');
const uuidOf = async (coll: string) =>
  ((await db().listCollections({ name: coll }).toArray())[0] as { info: { uuid: Binary } }).info.uuid;

describe('showExpandedEvents', () => {
  it('reports DDL with collectionUUID and operationDescription, and hides it from other streams', async () => {
    const expanded = await opened(db().watch([], { showExpandedEvents: true, maxAwaitTimeMS: 50 }));
    const plain = await opened(db().watch([], { maxAwaitTimeMS: 50 }));
    await db().createCollection('ddl', { validator: { v: { $type: 'int' } } });
    const coll = db().collection<Doc>('ddl');
    await coll.createIndex({ a: 1 }); // empty: one event per index
    await coll.insertOne({ _id: 1, v: 1 });
    await coll.createIndexes([{ key: { b: 1 } }, { key: { c: 1 } }]); // built over data: one event
    await coll.dropIndex('a_1');
    await db().command({ collMod: 'ddl', validationLevel: 'off' });
    await db().collection<Doc>('implicit').insertOne({ _id: 2 });
    const events = await take(expanded, 8);
    expect(events.map((e) => e.operationType)).toEqual([
      'create',
      'createIndexes',
      'insert',
      'createIndexes',
      'dropIndexes',
      'modify',
      'create',
      'insert',
    ]);
    const [create, oneIndex, insert, twoIndexes, dropIndex, modify, implicit] = events as Document[];
    const uuid = await uuidOf('ddl');
    expect(Object.keys(create!)).toEqual([
      '_id',
      'operationType',
      'clusterTime',
      'collectionUUID',
      'wallTime',
      'ns',
      'operationDescription',
    ]);
    expect(create).toMatchObject({
      collectionUUID: uuid,
      ns: { db: 'expanded', coll: 'ddl' },
      operationDescription: { validator: { v: { $type: 'int' } }, idIndex: { v: 2, key: { _id: 1 }, name: '_id_' } },
    });
    expect(oneIndex!.operationDescription).toEqual({ indexes: [{ v: 2, key: { a: 1 }, name: 'a_1' }] });
    expect(insert!.collectionUUID).toEqual(uuid);
    expect(twoIndexes!.operationDescription.indexes.map((i: Document) => i.name)).toEqual(['b_1', 'c_1']);
    expect(dropIndex!.operationDescription).toEqual({ indexes: [{ v: 2, key: { a: 1 }, name: 'a_1' }] });
    expect(modify).toMatchObject({
      operationDescription: { validationLevel: 'off' },
      stateBeforeChange: { collectionOptions: { uuid, validator: { v: { $type: 'int' } } } },
    });
    expect(implicit).toMatchObject({
      ns: { db: 'expanded', coll: 'implicit' },
      collectionUUID: await uuidOf('implicit'),
    });
    const seen = await take(plain, 2);
    expect(seen.map((e) => e.operationType)).toEqual(['insert', 'insert']);
    await Promise.all([expanded.close(), plain.close()]);
  });

  it('describes a rename with its target, and the target it dropped', async () => {
    await db().collection<Doc>('from').insertOne({ _id: 1 });
    await db().collection<Doc>('onto').insertOne({ _id: 2 });
    const dropped = await uuidOf('onto');
    const stream = await opened(db().collection('from').watch([], { showExpandedEvents: true, maxAwaitTimeMS: 50 }));
    await fixture.client
      .db('admin')
      .command({ renameCollection: 'expanded.from', to: 'expanded.onto', dropTarget: true });
    const [rename, invalidate] = await take(stream, 2);
    expect(rename).toMatchObject({
      operationType: 'rename',
      to: { db: 'expanded', coll: 'onto' },
      operationDescription: { to: { db: 'expanded', coll: 'onto' }, dropTarget: dropped },
    });
    expect(invalidate!.operationType).toBe('invalidate');
  });
});

describe('change-stream batches', () => {
  it('stop at 16 MiB; the event that does not fit opens the next batch', async () => {
    const first = await db().command({ aggregate: 'big', pipeline: [{ $changeStream: {} }], cursor: {} });
    const payload = 'x'.repeat(6 * 1024 * 1024);
    for (const _id of [1, 2, 3]) await db().collection<Doc>('big').insertOne({ _id, payload });
    const getMore = () => db().command({ getMore: cursorIdOf(first), collection: 'big', maxTimeMS: 100 });
    const full = await getMore();
    expect(full.cursor.nextBatch.map((e: Document) => e.documentKey._id)).toEqual([1, 2]);
    expect(full.cursor.postBatchResumeToken).toEqual(full.cursor.nextBatch[1]._id);
    const rest = await getMore();
    expect(rest.cursor.nextBatch.map((e: Document) => e.documentKey._id)).toEqual([3]);
    await db().command({ killCursors: 'big', cursors: [cursorIdOf(first)] });
  });
});
