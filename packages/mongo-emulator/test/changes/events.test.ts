// Proves the change events the official driver receives have mongod 7.0's shapes: each operation
// type, the namespaces a collection, database and cluster stream see, invalidation, updateLookup,
// stages after $changeStream, and the errors mongod answers for bad pipelines.
import { describe, expect, it } from 'vitest';
import { Timestamp, type Document } from 'mongodb';
import { useEmulator, cursorIdOf } from '../driver/emulatorFixture.ts';
import { take, opened } from './streamHelpers.ts';

/** Test documents have numeric ids. */
type Doc = { _id: number; [field: string]: unknown };
const fixture = useEmulator();
const db = (name: string) => fixture.client.db(name);

describe('change events', () => {
  it('reports insert, update, replace and delete with mongod’s fields, in order', async () => {
    const coll = db('events').collection<Doc>('crud');
    const stream = await opened(coll.watch([], { maxAwaitTimeMS: 50 }));
    await coll.insertOne({ _id: 1, a: 1, arr: [1, 2, 3] });
    await coll.updateOne({ _id: 1 }, { $set: { b: 2, arr: [1] }, $unset: { a: '' } });
    await coll.replaceOne({ _id: 1 }, { c: 3 });
    await coll.deleteOne({ _id: 1 });
    const [insert, update, replace, del] = await take(stream, 4);
    const ns = { db: 'events', coll: 'crud' };
    expect(Object.keys(insert!)).toEqual([
      '_id',
      'operationType',
      'clusterTime',
      'wallTime',
      'fullDocument',
      'ns',
      'documentKey',
    ]);
    expect(insert).toMatchObject({
      operationType: 'insert',
      fullDocument: { _id: 1, a: 1, arr: [1, 2, 3] },
      ns,
      documentKey: { _id: 1 },
    });
    expect(insert!._id).toEqual({ _data: expect.stringMatching(/^82[0-9A-F]+$/) });
    expect(insert!.clusterTime).toBeInstanceOf(Timestamp);
    expect((insert as Document).wallTime).toBeInstanceOf(Date);
    expect(Object.keys(update!)).toEqual([
      '_id',
      'operationType',
      'clusterTime',
      'wallTime',
      'ns',
      'documentKey',
      'updateDescription',
    ]);
    expect(update).toMatchObject({
      operationType: 'update',
      // $set of a whole array logs (and reports) the array, not a truncation (modifier_node.cpp).
      updateDescription: { updatedFields: { b: 2, arr: [1] }, removedFields: ['a'], truncatedArrays: [] },
    });
    expect(replace).toMatchObject({
      operationType: 'replace',
      fullDocument: { _id: 1, c: 3 },
      documentKey: { _id: 1 },
    });
    expect(Object.keys(del!)).toEqual(['_id', 'operationType', 'clusterTime', 'wallTime', 'ns', 'documentKey']);
    const times = [insert, update, replace, del].map((e) => (e!.clusterTime as Timestamp).toBigInt());
    expect([...times].sort((a, b) => (a < b ? -1 : 1))).toEqual(times);
    expect(new Set(times).size).toBe(4);
    await stream.close();
  });

  it('gives one event per document changed by a multi-document update, and none for a no-op', async () => {
    const coll = db('events').collection<Doc>('multi');
    await coll.insertMany([
      { _id: 1, n: 0 },
      { _id: 2, n: 0 },
      { _id: 3, n: 5 },
    ]);
    const stream = await opened(coll.watch([], { maxAwaitTimeMS: 50 }));
    await coll.updateMany({ n: 0 }, { $set: { n: 1 } });
    await coll.updateOne({ _id: 3 }, { $set: { n: 5 } });
    await coll.insertOne({ _id: 4 });
    const events = await take(stream, 3);
    expect(events.map((e) => [e.operationType, (e as { documentKey: Document }).documentKey._id])).toEqual([
      ['update', 1],
      ['update', 2],
      ['insert', 4],
    ]);
    await stream.close();
  });

  it('looks the current document up for updates with fullDocument: updateLookup', async () => {
    const coll = db('events').collection<{ _id: number; v: number }>('lookup');
    await coll.insertOne({ _id: 1, v: 1 });
    const stream = await opened(coll.watch([], { fullDocument: 'updateLookup', maxAwaitTimeMS: 50 }));
    await coll.updateOne({ _id: 1 }, { $inc: { v: 1 } });
    const [update] = await take(stream, 1);
    expect(update).toMatchObject({ operationType: 'update', fullDocument: { _id: 1, v: 2 } });
    // mongod's transform reserves fullDocument's slot after wallTime; the lookup fills it there.
    expect(Object.keys(update!)).toEqual([
      '_id',
      'operationType',
      'clusterTime',
      'wallTime',
      'fullDocument',
      'ns',
      'documentKey',
      'updateDescription',
    ]);
    await coll.updateOne({ _id: 1 }, { $inc: { v: 1 } });
    await coll.deleteOne({ _id: 1 });
    const [gone, del] = await take(stream, 2);
    expect(gone).toMatchObject({ operationType: 'update', fullDocument: null });
    expect(del).not.toHaveProperty('fullDocument');
    await stream.close();
  });

  it('ends a collection stream with drop then invalidate, and closes the cursor', async () => {
    const coll = db('events').collection<Doc>('dropped');
    await coll.insertOne({ _id: 1 });
    const stream = await opened(coll.watch([], { maxAwaitTimeMS: 50 }));
    await coll.drop();
    const [drop, invalidate] = await take(stream, 2);
    expect(drop).toMatchObject({ operationType: 'drop', ns: { db: 'events', coll: 'dropped' } });
    expect(Object.keys(invalidate!)).toEqual(['_id', 'operationType', 'clusterTime', 'wallTime']);
    expect(invalidate).toMatchObject({ operationType: 'invalidate', clusterTime: drop!.clusterTime });
    expect(invalidate!._id).not.toEqual(drop!._id);
    expect(stream.closed).toBe(true);
  });

  it('shows a database stream every collection of its database, and invalidates it on dropDatabase', async () => {
    const database = db('events_db');
    await database.collection<Doc>('a').insertOne({ _id: 0 });
    const stream = await opened(database.watch([], { maxAwaitTimeMS: 50 }));
    await database.collection<Doc>('a').insertOne({ _id: 1 });
    await db('events_other').collection<Doc>('x').insertOne({ _id: 1 }); // another database: not seen
    await database.collection<Doc>('b').insertOne({ _id: 2 });
    await database.dropDatabase();
    const events = await take(stream, 6);
    expect(events.map((e) => [e.operationType, (e as { ns?: Document }).ns])).toEqual([
      ['insert', { db: 'events_db', coll: 'a' }],
      ['insert', { db: 'events_db', coll: 'b' }],
      ['drop', { db: 'events_db', coll: 'a' }],
      ['drop', { db: 'events_db', coll: 'b' }],
      ['dropDatabase', { db: 'events_db' }],
      ['invalidate', undefined],
    ]);
    expect(stream.closed).toBe(true);
  });

  it('shows a cluster stream (allChangesForCluster) every user database, and never invalidates it', async () => {
    const stream = await opened(fixture.client.watch([], { maxAwaitTimeMS: 50 }));
    await db('events_c1').collection<Doc>('x').insertOne({ _id: 1 });
    await db('events_c2').collection<Doc>('y').insertOne({ _id: 2 });
    await db('events_c1').dropDatabase();
    await db('events_c2').collection<Doc>('y').insertOne({ _id: 3 });
    const events = await take(stream, 5);
    expect(events.map((e) => e.operationType)).toEqual(['insert', 'insert', 'drop', 'dropDatabase', 'insert']);
    expect(stream.closed).toBe(false);
    await stream.close();
  });

  it('applies $match, $project, $addFields and $replaceRoot after $changeStream to each event', async () => {
    const coll = db('events').collection<Doc>('stages');
    const stream = await opened(
      coll.watch<Document, Document>(
        [
          { $match: { operationType: 'insert', 'fullDocument.keep': true } },
          { $addFields: { tag: 'kept' } },
          { $project: { fullDocument: 1, tag: 1 } },
          { $replaceRoot: { newRoot: { _id: '$_id', doc: '$fullDocument', tag: '$tag' } } },
        ],
        { maxAwaitTimeMS: 50 },
      ),
    );
    await coll.insertMany([
      { _id: 1, keep: false },
      { _id: 2, keep: true },
    ]);
    const [event] = await take(stream, 1);
    expect(event).toEqual({
      _id: expect.objectContaining({ _data: expect.any(String) }),
      doc: { _id: 2, keep: true },
      tag: 'kept',
    });
    await stream.close();
  });

  it('fails with 280 and NonResumableChangeStreamError when a stage removes the _id, at the first event', async () => {
    const coll = db('events').collection<Doc>('noid');
    const stream = await opened(coll.watch([{ $project: { _id: 0 } }], { maxAwaitTimeMS: 50 }));
    await coll.insertOne({ _id: 1 });
    const error = await stream.next().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 280, codeName: 'ChangeStreamFatalError' });
    expect((error as { errorLabels: string[] }).errorLabels).toContain('NonResumableChangeStreamError');
    expect((error as Error).message).toMatch(
      /^Encountered an event whose _id field, which contains the resume token, was modified by the pipeline/,
    );
    await stream.close();
  });

  it('refuses stages a change stream cannot run, and a $changeStream that is not first, as mongod does', async () => {
    const command = (pipeline: Document[]) => db('events').command({ aggregate: 'c', pipeline, cursor: {} });
    await expect(command([{ $changeStream: {} }, { $group: { _id: null } }])).rejects.toMatchObject({
      code: 20,
      message: '$group is not permitted in a $changeStream pipeline',
    });
    await expect(command([{ $changeStream: {} }, { $unsupported: 'foo' }])).rejects.toMatchObject({ code: 40324 });
    await expect(command([{ $match: {} }, { $changeStream: {} }])).rejects.toMatchObject({ code: 40602 });
    await expect(command([{ $changeStream: { bogus: 1 } }])).rejects.toMatchObject({ code: 40415 });
    await expect(command([{ $changeStream: { fullDocument: 'sometimes' } }])).rejects.toMatchObject({ code: 2 });
    await expect(
      db('admin').command({ aggregate: 1, pipeline: [{ $changeStream: {} }], cursor: {} }),
    ).rejects.toMatchObject({ code: 73 });
    await expect(
      db('events').command({ aggregate: 1, pipeline: [{ $changeStream: { allChangesForCluster: true } }], cursor: {} }),
    ).rejects.toMatchObject({ code: 72 });
  });

  it('answers the first batch with a cursor that carries a postBatchResumeToken, and advances operationTime', async () => {
    const coll = db('events').collection<Doc>('batches');
    const first = await db('events').command({ aggregate: 'batches', pipeline: [{ $changeStream: {} }], cursor: {} });
    expect(Object.keys(first.cursor)).toEqual(['firstBatch', 'postBatchResumeToken', 'id', 'ns']);
    expect(first.cursor).toMatchObject({
      firstBatch: [],
      ns: 'events.batches',
      postBatchResumeToken: { _data: expect.any(String) },
    });
    await coll.insertOne({ _id: 1 });
    const more = await db('events').command({ getMore: cursorIdOf(first), collection: 'batches', maxTimeMS: 1000 });
    expect(more.cursor.nextBatch).toHaveLength(1);
    expect(more.cursor.postBatchResumeToken).toEqual(more.cursor.nextBatch[0]._id);
    expect((more.operationTime as Timestamp).toBigInt()).toBeGreaterThan((first.operationTime as Timestamp).toBigInt());
    await db('events').command({ killCursors: 'batches', cursors: [cursorIdOf(first)] });
  });

  it('hands each event to a waiting getMore as soon as it is written, not after maxTimeMS', async () => {
    const coll = db('events').collection<Doc>('wake');
    // Seen, not timed: the getMore is listed waiting in currentOp before the write, and its
    // maxTimeMS (a minute) outlasts the test's timeout, so only the write can have ended it.
    const waitingGetMores = async () => {
      const { inprog } = await db('admin').command({ currentOp: 1, op: 'getmore' });
      return (inprog as Document[]).filter((op) => op.ns === 'events.wake').length;
    };
    const first = await db('events').command({ aggregate: 'wake', pipeline: [{ $changeStream: {} }], cursor: {} });
    const waiting = db('events').command({ getMore: cursorIdOf(first), collection: 'wake', maxTimeMS: 60_000 });
    await expect.poll(waitingGetMores, { timeout: 10_000 }).toBe(1);
    await coll.insertOne({ _id: 1 });
    const reply = await waiting;
    expect(reply.cursor.nextBatch).toHaveLength(1);
    // With nothing to hand out, a getMore waits (listed in currentOp) instead of answering at once.
    const idle = db('events').command({ getMore: cursorIdOf(first), collection: 'wake', maxTimeMS: 3_000 });
    await expect.poll(waitingGetMores, { timeout: 10_000, interval: 20 }).toBe(1);
    expect((await idle).cursor.nextBatch).toEqual([]);
    await db('events').command({ killCursors: 'wake', cursors: [cursorIdOf(first)] });
  });
});
