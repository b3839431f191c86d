// Proves failGetMoreAfterCursorCheckout and the ResumableChangeStreamError label as mongod gives
// them: a getMore failed after it holds its cursor deletes the cursor and, on a change stream with
// a resumable code, carries the label (so the driver resumes, losing nothing); failCommand acting
// before the checkout leaves getMore errors unlabelled; a change stream's aggregate is labelled.
import { afterEach, describe, expect, it } from 'vitest';
import type { Document, MongoServerError } from 'mongodb';
import { useEmulator, cursorIdOf } from '../driver/emulatorFixture.ts';
import { opened, take } from './streamHelpers.ts';

type Doc = { _id: number };
const fixture = useEmulator();
const db = () => fixture.client.db('resumable');
const failPoint = (name: string, mode: Document | string, data?: Document) =>
  fixture.client.db('admin').command({ configureFailPoint: name, mode, ...(data ? { data } : {}) });

/** The labels the server put on an error (the driver keeps them behind a getter). */
const labels = (error: unknown) => (error as MongoServerError).errorLabels;

afterEach(async () => {
  await failPoint('failGetMoreAfterCursorCheckout', 'off');
  await failPoint('failCommand', 'off');
});

describe('getMore errors on change streams', () => {
  it('labels a resumable code after checkout, deletes the cursor, and lets the driver resume without loss', async () => {
    const first = await db().command({ aggregate: 'labelled', pipeline: [{ $changeStream: {} }], cursor: {} });
    await failPoint('failGetMoreAfterCursorCheckout', { times: 1 }, { errorCode: 262 });
    const error = await db()
      .command({ getMore: cursorIdOf(first), collection: 'labelled' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 262, codeName: 'ExceededTimeLimit' });
    expect(labels(error)).toEqual(['ResumableChangeStreamError']);
    await expect(db().command({ getMore: cursorIdOf(first), collection: 'labelled' })).rejects.toMatchObject({
      code: 43,
    });

    const stream = await opened(db().collection<Doc>('labelled').watch([], { maxAwaitTimeMS: 50 }));
    await failPoint('failGetMoreAfterCursorCheckout', { times: 1 }, { errorCode: 6 });
    await db()
      .collection<Doc>('labelled')
      .insertMany([{ _id: 1 }, { _id: 2 }]);
    const events = (await take(stream, 2)) as Document[];
    expect(events.map((e) => e.documentKey._id)).toEqual([1, 2]);
    await stream.close();
  });

  it('leaves a failCommand getMore error unlabelled (it acts before the cursor is checked out) and a non-resumable code too', async () => {
    const open = () => db().command({ aggregate: 'unlabelled', pipeline: [{ $changeStream: {} }], cursor: {} });
    const first = await open();
    await failPoint('failCommand', { times: 1 }, { failCommands: ['getMore'], errorCode: 6 });
    const error = await db()
      .command({ getMore: cursorIdOf(first), collection: 'unlabelled' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 6 });
    expect(labels(error)).toEqual([]);
    const second = await open();
    await failPoint('failGetMoreAfterCursorCheckout', { times: 1 }, {});
    const internal = await db()
      .command({ getMore: cursorIdOf(second), collection: 'unlabelled' })
      .catch((e: unknown) => e);
    expect(internal).toMatchObject({
      code: 1,
      codeName: 'InternalError',
      message: "Hit the 'failGetMoreAfterCursorCheckout' failpoint",
    });
    expect(labels(internal)).toEqual([]);
  });

  it('fails find cursors too, without a label, and only in the namespace it names', async () => {
    await db()
      .collection<Doc>('plain')
      .insertMany([{ _id: 1 }, { _id: 2 }, { _id: 3 }]);
    const cursor = async () => cursorIdOf(await db().command({ find: 'plain', batchSize: 1 }));
    const [other, target] = [await cursor(), await cursor()];
    await failPoint('failGetMoreAfterCursorCheckout', { times: 1 }, { errorCode: 6, namespace: 'resumable.elsewhere' });
    await expect(db().command({ getMore: other, collection: 'plain', batchSize: 1 })).resolves.toMatchObject({ ok: 1 });
    await failPoint('failGetMoreAfterCursorCheckout', { times: 1 }, { errorCode: 6, namespace: 'resumable.plain' });
    const error = await db()
      .command({ getMore: target, collection: 'plain' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 6 });
    expect(labels(error)).toEqual([]);
    await expect(db().command({ getMore: target, collection: 'plain' })).rejects.toMatchObject({ code: 43 });
  });

  it("labels a change stream's aggregate failed with a resumable code, unless failCommand chose the labels", async () => {
    const open = () => db().command({ aggregate: 'agg', pipeline: [{ $changeStream: {} }], cursor: {} });
    await failPoint('failCommand', { times: 1 }, { failCommands: ['aggregate'], errorCode: 6 });
    const labelled = await open().catch((e: unknown) => e);
    expect(labelled).toMatchObject({ code: 6 });
    expect(labels(labelled)).toEqual(['ResumableChangeStreamError']);
    await failPoint('failCommand', { times: 1 }, { failCommands: ['aggregate'], errorCode: 6, errorLabels: [] });
    const error = await open().catch((e: unknown) => e);
    expect(labels(error)).toEqual([]);
    await failPoint('failCommand', { times: 1 }, { failCommands: ['aggregate'], errorCode: 6 });
    const plain = await db()
      .command({ aggregate: 'agg', pipeline: [], cursor: {} })
      .catch((e: unknown) => e);
    expect(labels(plain)).toEqual([]);
  });
});
