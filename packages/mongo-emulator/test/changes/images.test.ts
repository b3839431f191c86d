// Proves pre- and post-images as mongod 7.0 gives them: recorded per write while the collection's
// changeStreamPreAndPostImages is on, each the document just before / just after that very change
// (not the current one), null or NoMatchingDocument (47) when a write recorded none.
import { describe, expect, it } from 'vitest';
import type { ChangeStreamOptions, Document } from 'mongodb';
import { useEmulator } from '../driver/emulatorFixture.ts';
import { opened, take } from './streamHelpers.ts';

type Doc = { _id: number; v?: number; w?: number };
const fixture = useEmulator();
const db = () => fixture.client.db('images');
const imagesOn = (coll: string, enabled: boolean) =>
  db().command({ collMod: coll, changeStreamPreAndPostImages: { enabled } });
const watch = (coll: string, options: ChangeStreamOptions) =>
  opened(
    db()
      .collection<Doc>(coll)
      .watch([], { maxAwaitTimeMS: 50, ...options }),
  );

describe('pre- and post-images', () => {
  it('gives each update the document just before and just after it, not the current one', async () => {
    await db().createCollection('pointInTime', { changeStreamPreAndPostImages: { enabled: true } });
    const coll = db().collection<Doc>('pointInTime');
    await coll.insertOne({ _id: 1, v: 0 });
    const stream = await watch('pointInTime', {
      fullDocument: 'whenAvailable',
      fullDocumentBeforeChange: 'whenAvailable',
    });
    await coll.updateOne({ _id: 1 }, { $set: { v: 1 } });
    await coll.updateOne({ _id: 1 }, { $set: { v: 2 } });
    await coll.replaceOne({ _id: 1 }, { w: 3 });
    await coll.deleteOne({ _id: 1 });
    const [first, second, replace, del] = await take(stream, 4);
    expect(first).toMatchObject({ fullDocumentBeforeChange: { _id: 1, v: 0 }, fullDocument: { _id: 1, v: 1 } });
    expect(second).toMatchObject({ fullDocumentBeforeChange: { _id: 1, v: 1 }, fullDocument: { _id: 1, v: 2 } });
    expect(Object.keys(first!)).toEqual([
      '_id',
      'operationType',
      'clusterTime',
      'wallTime',
      'fullDocument',
      'ns',
      'documentKey',
      'updateDescription',
      'fullDocumentBeforeChange',
    ]);
    expect(replace).toMatchObject({ fullDocument: { _id: 1, w: 3 }, fullDocumentBeforeChange: { _id: 1, v: 2 } });
    expect(del).toMatchObject({ operationType: 'delete', fullDocumentBeforeChange: { _id: 1, w: 3 } });
    expect(del).not.toHaveProperty('fullDocument');
    await stream.close();
  });

  it('records images only for writes made while the option is on', async () => {
    const coll = db().collection<Doc>('toggled');
    await coll.insertOne({ _id: 1, v: 0 });
    const stream = await watch('toggled', { fullDocument: 'whenAvailable', fullDocumentBeforeChange: 'whenAvailable' });
    await coll.updateOne({ _id: 1 }, { $set: { v: 1 } }); // off: no images
    await imagesOn('toggled', true);
    await coll.updateOne({ _id: 1 }, { $set: { v: 2 } });
    await imagesOn('toggled', false);
    await coll.updateOne({ _id: 1 }, { $set: { v: 3 } });
    const events = (await take(stream, 3)) as Document[];
    expect(events.map((e) => [e.fullDocumentBeforeChange, e.fullDocument])).toEqual([
      [null, null],
      [
        { _id: 1, v: 1 },
        { _id: 1, v: 2 },
      ],
      [null, null],
    ]);
    await stream.close();
  });

  it('fails a stream that requires an image a write did not record with NoMatchingDocument, and no label', async () => {
    const coll = db().collection<Doc>('required');
    await coll.insertOne({ _id: 1, v: 0 });
    for (const [options, image] of [
      [{ fullDocumentBeforeChange: 'required' }, 'pre-image'],
      [{ fullDocument: 'required' }, 'post-image'],
    ] as const) {
      const stream = await watch('required', options);
      await coll.updateOne({ _id: 1 }, { $inc: { v: 1 } });
      const error = await stream.next().catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 47, codeName: 'NoMatchingDocument' });
      expect((error as Error).message).toMatch(
        new RegExp(
          `^Change stream was configured to require a ${image}.*but the ${image} was not found for event: .*operationType: "update"`,
        ),
      );
      expect((error as { errorLabels?: string[] }).errorLabels ?? []).toEqual([]);
      await stream.close();
    }
  });

  it('leaves inserts without fullDocumentBeforeChange and refuses unknown modes', async () => {
    await db().createCollection('inserts', { changeStreamPreAndPostImages: { enabled: true } });
    const stream = await watch('inserts', { fullDocumentBeforeChange: 'required' });
    await db().collection<Doc>('inserts').insertOne({ _id: 1 });
    const [insert] = await take(stream, 1);
    expect(insert).not.toHaveProperty('fullDocumentBeforeChange');
    await stream.close();
    const open = (spec: Document) =>
      db().command({ aggregate: 'inserts', pipeline: [{ $changeStream: spec }], cursor: {} });
    await expect(open({ fullDocumentBeforeChange: 'sometimes' })).rejects.toMatchObject({ code: 2 });
    await expect(open({ fullDocument: 1 })).rejects.toMatchObject({ code: 14 });
  });
});
