// Proves the change events of views as on mongod 7.0 (jstests/change_streams/show_expanded_events
// for views): a whole-database stream with showExpandedEvents reports a view's create, with
// operationDescription {viewOn, pipeline} and no collectionUUID, and its drop; a stream without
// the option, and a stream on the view's own name, report neither.
import type { Document } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../driver/emulatorFixture.ts';
import { opened, take } from './streamHelpers.ts';

const fixture = useEmulator();
const db = () => fixture.client.db('viewEvents');
const viewPipeline = [{ $match: { a: 2 } }, { $project: { a: 1 } }];

describe('view events', () => {
  it('are reported to a whole-database stream with showExpandedEvents, and only there', async () => {
    await db().createCollection('base');
    const expanded = await opened(db().watch([], { showExpandedEvents: true, maxAwaitTimeMS: 50 }));
    const plain = await opened(db().watch([], { maxAwaitTimeMS: 50 }));
    const onViewName = await opened(
      db().collection('view').watch([], { showExpandedEvents: true, maxAwaitTimeMS: 50 }),
    );
    await db().createCollection('view', { viewOn: 'base', pipeline: viewPipeline });
    await db().collection('view').drop();
    await db().collection<{ _id: number }>('base').insertOne({ _id: 1 });
    const events: Document[] = await take(expanded, 3);
    expect(events.map((e) => e.operationType)).toEqual(['create', 'drop', 'insert']);
    const [create, drop] = events;
    expect(Object.keys(create!)).toEqual([
      '_id',
      'operationType',
      'clusterTime',
      'wallTime',
      'ns',
      'operationDescription',
    ]);
    expect(create).toMatchObject({
      ns: { db: 'viewEvents', coll: 'view' },
      operationDescription: { viewOn: 'base', pipeline: viewPipeline },
    });
    expect(drop).toMatchObject({ ns: { db: 'viewEvents', coll: 'view' } });
    expect(drop!.collectionUUID).toBeUndefined();
    // The stream without the option sees only the insert; the stream on the view's name nothing.
    expect((await take(plain, 1)).map((e) => e.operationType)).toEqual(['insert']);
    await db().createCollection('view');
    const onName: Document[] = await take(onViewName, 1);
    expect(onName.map((e) => [e.operationType, e.collectionUUID !== undefined])).toEqual([['create', true]]);
    await Promise.all([expanded.close(), plain.close(), onViewName.close()]);
  });

  it('resume after a view creation, with the next event', async () => {
    const stream = await opened(db().watch([], { showExpandedEvents: true, maxAwaitTimeMS: 50 }));
    await db().createCollection('v1', { viewOn: 'base', pipeline: viewPipeline });
    await db().createCollection('v2', { viewOn: 'v1', pipeline: [] });
    const [first] = await take(stream, 1);
    await stream.close();
    // Not opened(): its first read would swallow the event the resumed stream starts with.
    const resumed = db().watch([], { showExpandedEvents: true, resumeAfter: first!._id, maxAwaitTimeMS: 50 });
    const [next] = await take(resumed, 1);
    expect(next).toMatchObject({
      operationType: 'create',
      ns: { coll: 'v2' },
      operationDescription: { viewOn: 'v1', pipeline: [] },
    });
    await resumed.close();
  });
});
