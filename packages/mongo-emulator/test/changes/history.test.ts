// Proves the oplog is bounded and history loss fails as on mongod: a token older than the oldest
// entry is ChangeStreamHistoryLost (286), a token the server never issued ChangeStreamFatalError
// (280), both labelled NonResumableChangeStreamError so the driver does not retry them; an open
// stream that falls behind the window fails; serverStatus/replSetGetStatus report the window.
// Runs its own emulator with a five-entry oplog.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoClient, Timestamp, type ChangeStream, type Document } from 'mongodb';
import { startEmulator, type RunningEmulator } from '../../src/index.ts';
import { cursorIdOf } from '../driver/emulatorFixture.ts';

/** Test documents have numeric ids. */
type Doc = { _id: number; [field: string]: unknown };
const OPLOG_MAX_ENTRIES = 5;
let emulator: RunningEmulator;
let client: MongoClient;
const coll = () => client.db('history').collection<Doc>('c');

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, oplogMaxEntries: OPLOG_MAX_ENTRIES });
  client = await new MongoClient(emulator.uri, { monitorCommands: true }).connect();
});

afterAll(async () => {
  await client?.close();
  await emulator?.stop();
});

async function firstEvent(stream: ChangeStream): Promise<Document> {
  const deadlineMs = Date.now() + 5000;
  while (Date.now() < deadlineMs) {
    const next = await stream.tryNext();
    if (next) return next;
  }
  throw new Error('no event arrived');
}

async function tokenOfInsert(id: number): Promise<Document> {
  const stream = coll().watch([], { maxAwaitTimeMS: 50 });
  await stream.tryNext();
  await coll().insertOne({ _id: id });
  const event = await firstEvent(stream);
  await stream.close();
  return event._id as Document;
}

const open = (changeStream: Document) =>
  client.db('history').command({ aggregate: 'c', pipeline: [{ $changeStream: changeStream }], cursor: {} });

describe('a bounded oplog', () => {
  it('resumes from a token still in the window', async () => {
    const token = await tokenOfInsert(1);
    await coll().insertOne({ _id: 2 });
    const stream = coll().watch([], { resumeAfter: token, maxAwaitTimeMS: 50 });
    expect((await firstEvent(stream)).documentKey).toEqual({ _id: 2 });
    await stream.close();
  });

  it('fails a token older than the oldest entry with ChangeStreamHistoryLost (286), not retried by the driver', async () => {
    const token = await tokenOfInsert(10);
    await coll().insertMany(Array.from({ length: OPLOG_MAX_ENTRIES }, (_, i) => ({ _id: 11 + i })));
    const aggregates: unknown[] = [];
    const listener = (e: { commandName: string }) => e.commandName === 'aggregate' && aggregates.push(e);
    client.on('commandStarted', listener);
    const stream = coll().watch([], { resumeAfter: token, maxAwaitTimeMS: 50 });
    const error = await stream.tryNext().catch((e: unknown) => e);
    client.off('commandStarted', listener);
    expect(error).toMatchObject({
      code: 286,
      codeName: 'ChangeStreamHistoryLost',
      message: 'Resume of change stream was not possible, as the resume point may no longer be in the oplog.',
    });
    expect((error as { errorLabels: string[] }).errorLabels).toEqual(['NonResumableChangeStreamError']);
    expect(aggregates).toHaveLength(1);
    await stream.close();
    // A time before the window (here: before the server started) is lost history too.
    await expect(open({ startAtOperationTime: new Timestamp({ t: 1, i: 1 }) })).rejects.toMatchObject({ code: 286 });
  });

  it('fails a token the server never issued with ChangeStreamFatalError (280) once the stream passes its point', async () => {
    const real = (await tokenOfInsert(20))._data as string;
    // Same time and position, another event identity: a token from some other deployment.
    const forged = { _data: `${real.slice(0, 32)}${'0'.repeat(16)}${real.slice(48)}` };
    const error = await open({ resumeAfter: forged }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 280,
      codeName: 'ChangeStreamFatalError',
      errorLabels: ['NonResumableChangeStreamError'],
    });
    expect((error as Error).message).toMatch(/^cannot resume stream; the resume token was not found\. \{ _data: "82/);
  });

  it('waits on a token ahead of the oplog instead of failing it (mongod fails only once an event passes it)', async () => {
    const real = (await tokenOfInsert(30))._data as string;
    const seconds = parseInt(real.slice(2, 10), 16) + 3600;
    const future = { _data: `82${seconds.toString(16).toUpperCase().padStart(8, '0')}${real.slice(10)}` };
    const opened = await open({ resumeAfter: future });
    expect(opened.cursor.firstBatch).toEqual([]);
    await expect(
      client.db('history').command({ getMore: cursorIdOf(opened), collection: 'c', maxTimeMS: 20 }),
    ).resolves.toMatchObject({ cursor: { nextBatch: [] } });
  });

  it('refuses malformed tokens with mongod’s parse errors', async () => {
    await expect(open({ resumeAfter: { _data: 'zz' } })).rejects.toMatchObject({
      code: 9,
      message: 'resume token string was not a valid hex string',
    });
    await expect(open({ resumeAfter: { _data: 42 } })).rejects.toMatchObject({ code: 40647 });
    await expect(open({ resumeAfter: { _data: '8200' }, startAfter: { _data: '8200' } })).rejects.toMatchObject({
      code: 50865,
    });
  });

  it('fails an open stream that fell behind the window instead of skipping events silently', async () => {
    const opened = await open({});
    await coll().insertMany(Array.from({ length: OPLOG_MAX_ENTRIES + 1 }, (_, i) => ({ _id: 100 + i })));
    await expect(client.db('history').command({ getMore: cursorIdOf(opened), collection: 'c' })).rejects.toMatchObject({
      code: 136,
      codeName: 'CappedPositionLost',
    });
    await expect(client.db('history').command({ getMore: cursorIdOf(opened), collection: 'c' })).rejects.toMatchObject({
      code: 43,
    });
  });

  it('reports the window (first and last entry) in serverStatus and replSetGetStatus', async () => {
    await coll().insertOne({ _id: 200 });
    const status = await client.db('admin').command({ serverStatus: 1 });
    const repl = await client.db('admin').command({ replSetGetStatus: 1 });
    for (const oplog of [status.oplog, repl.oplog]) {
      expect(oplog).toMatchObject({ entries: OPLOG_MAX_ENTRIES, maxEntries: OPLOG_MAX_ENTRIES });
      expect((oplog.latestOptime as Timestamp).toBigInt()).toBe((status.operationTime as Timestamp).toBigInt());
      expect((oplog.earliestOptime as Timestamp).toBigInt()).toBeLessThan((oplog.latestOptime as Timestamp).toBigInt());
      expect(oplog.earliestWallTime).toBeInstanceOf(Date);
    }
  });
});
