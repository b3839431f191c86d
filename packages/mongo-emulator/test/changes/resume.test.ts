// Proves resuming works as on mongod: resumeAfter, startAfter (also past an invalidate) and
// startAtOperationTime from tokens a stream handed out; a new client resuming from a token the
// first one stored after it closed; and the driver's own resume after a dropped connection, with
// nothing lost and nothing delivered twice.
import { describe, expect, it } from 'vitest';
import type { Document, ResumeToken, Timestamp } from 'mongodb';
import { useEmulator, cursorIdOf } from '../driver/emulatorFixture.ts';
import { take } from './streamHelpers.ts';

/** Test documents have numeric ids. */
type Doc = { _id: number; [field: string]: unknown };
const fixture = useEmulator();
const db = () => fixture.client.db('resume');

const ids = (events: Document[]) => events.map((e) => e.documentKey?._id ?? e.operationType);

describe('resuming a change stream', () => {
  it('resumeAfter an event continues right after it, in a new client after the first one closed', async () => {
    const coll = db().collection<Doc>('stored');
    const first = await fixture.newClient();
    const stream = first.db('resume').collection('stored').watch([], { maxAwaitTimeMS: 50 });
    await stream.tryNext();
    await coll.insertMany([{ _id: 1 }, { _id: 2 }, { _id: 3 }]);
    const [, second] = await take(stream, 2);
    const stored: ResumeToken = JSON.parse(JSON.stringify(second!._id)); // as a service would persist it
    await stream.close();
    await first.close();
    await coll.insertOne({ _id: 4 });

    const later = await fixture.newClient();
    const resumed = later.db('resume').collection('stored').watch([], { resumeAfter: stored, maxAwaitTimeMS: 50 });
    expect(ids(await take(resumed, 2))).toEqual([3, 4]);
    await resumed.close();
  });

  it('startAtOperationTime includes the writes at and after that time (a read’s operationTime is the last write’s)', async () => {
    const coll = db().collection<Doc>('attime');
    await coll.insertOne({ _id: 1 });
    const { operationTime } = await db().command({ ping: 1 });
    await coll.insertOne({ _id: 2 });
    await coll.insertOne({ _id: 3 });
    const stream = coll.watch([], { startAtOperationTime: operationTime as Timestamp, maxAwaitTimeMS: 50 });
    expect(ids(await take(stream, 3))).toEqual([1, 2, 3]);
    await stream.close();
  });

  it('startAfter an invalidate opens a stream on the recreated collection; resumeAfter it is refused', async () => {
    const coll = db().collection<Doc>('recreated');
    await coll.insertOne({ _id: 1 });
    const stream = coll.watch([], { maxAwaitTimeMS: 50 });
    await stream.tryNext();
    await coll.drop();
    const [, invalidate] = await take(stream, 2);
    expect(invalidate!.operationType).toBe('invalidate');
    await coll.insertOne({ _id: 2 });

    const after = coll.watch([], { startAfter: invalidate!._id, maxAwaitTimeMS: 50 });
    expect(ids(await take(after, 1))).toEqual([2]);
    await after.close();
    await expect(
      db().command({
        aggregate: 'recreated',
        pipeline: [{ $changeStream: { resumeAfter: invalidate!._id } }],
        cursor: {},
      }),
    ).rejects.toMatchObject({ code: 260, codeName: 'InvalidResumeToken' });
  });

  it('resumeAfter the drop event itself still delivers the invalidate', async () => {
    const coll = db().collection<Doc>('dropresume');
    await coll.insertOne({ _id: 1 });
    const stream = coll.watch([], { maxAwaitTimeMS: 50 });
    await stream.tryNext();
    await coll.drop();
    const [drop] = await take(stream, 1);
    await stream.close();
    const resumed = coll.watch([], { resumeAfter: drop!._id, maxAwaitTimeMS: 50 });
    const [invalidate] = await take(resumed, 1);
    expect(invalidate!.operationType).toBe('invalidate');
  });

  it('postBatchResumeToken moves past scanned entries of other namespaces and resumes without loss or repeat', async () => {
    const coll = db().collection<Doc>('pbrt');
    const opened = await db().command({ aggregate: 'pbrt', pipeline: [{ $changeStream: {} }], cursor: {} });
    await coll.insertOne({ _id: 1 });
    await db().collection<Doc>('elsewhere').insertOne({ _id: 1 }); // scanned, not reported
    const withEvent = await db().command({ getMore: cursorIdOf(opened), collection: 'pbrt', maxTimeMS: 500 });
    const [event] = withEvent.cursor.nextBatch;
    const highWaterMark = withEvent.cursor.postBatchResumeToken;
    expect(highWaterMark._data > event._id._data).toBe(true);
    const empty = await db().command({ getMore: cursorIdOf(opened), collection: 'pbrt', maxTimeMS: 50 });
    expect(empty.cursor).toMatchObject({ nextBatch: [], postBatchResumeToken: highWaterMark });
    await coll.insertOne({ _id: 2 });
    const resumed = coll.watch([], { resumeAfter: highWaterMark, maxAwaitTimeMS: 50 });
    expect(ids(await take(resumed, 1))).toEqual([2]);
    await resumed.close();
    await db().command({ killCursors: 'pbrt', cursors: [cursorIdOf(opened)] });
  });

  it('orders tokens as the oplog: later events have greater _data', async () => {
    const coll = db().collection<Doc>('order');
    const stream = coll.watch([], { maxAwaitTimeMS: 50 });
    await stream.tryNext();
    await coll.insertMany(Array.from({ length: 20 }, (_, i) => ({ _id: i })));
    const tokens = (await take(stream, 20)).map((e) => (e._id as { _data: string })._data);
    expect([...tokens].sort()).toEqual(tokens);
    await stream.close();
  });

  it('the driver resumes by itself after the connection drops on getMore: no event lost or repeated', async () => {
    const coll = db().collection<Doc>('autoresume');
    const client = await fixture.newClient({ monitorCommands: true });
    const stream = client.db('resume').collection('autoresume').watch([], { maxAwaitTimeMS: 50, batchSize: 1 });
    await stream.tryNext();
    const seen: unknown[] = [];
    const commands: string[] = [];
    client.on('commandStarted', (e) => commands.push(e.commandName));
    for (let round = 0; round < 3; round++) {
      await coll.insertMany([{ _id: round * 2 }, { _id: round * 2 + 1 }]);
      seen.push(...ids(await take(stream, 1)));
      await fixture.client.db('admin').command({
        configureFailPoint: 'failCommand',
        mode: { times: 1 },
        data: { failCommands: ['getMore'], closeConnection: true },
      });
      seen.push(...ids(await take(stream, 1)));
    }
    expect(seen).toEqual([0, 1, 2, 3, 4, 5]);
    expect(commands.filter((name) => name === 'aggregate')).toHaveLength(3); // one resume per drop
    await stream.close();
  });

  it('labels a getMore error the stream can survive ResumableChangeStreamError only when mongod would', async () => {
    // failCommand acts before mongod parses the getMore, so it adds no label (spec test
    // "change stream does not resume if error does not contain ResumableChangeStreamError").
    const opened = await db().command({ aggregate: 'labels', pipeline: [{ $changeStream: {} }], cursor: {} });
    await fixture.client
      .db('admin')
      .command({
        configureFailPoint: 'failCommand',
        mode: { times: 1 },
        data: { failCommands: ['getMore'], errorCode: 6 },
      });
    const error = await db()
      .command({ getMore: cursorIdOf(opened), collection: 'labels', maxTimeMS: 10 })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 6 });
    expect((error as { errorLabels?: string[] }).errorLabels ?? []).not.toContain('ResumableChangeStreamError');
    await db().command({ killCursors: 'labels', cursors: [cursorIdOf(opened)] });
  });
});
