// Proves views behave as on mongod: created with viewOn/pipeline, listed as type 'view',
// read through find, count, distinct and aggregate (views on views too), never written.
import { describe, expect, it } from 'vitest';
import { useEmulator } from './emulatorFixture.ts';

const fixture = useEmulator();
const db = () => fixture.client.db('views');

describe('views', () => {
  it('reads a view, and a view on a view, through every read command', async () => {
    await db()
      .collection('src')
      .insertMany([
        { _id: 1, k: 'a', tags: ['x', 'y'] },
        { _id: 2, k: 'b', tags: ['y'] },
        { _id: 3, k: 'a', tags: [] },
      ] as never[]);
    await db().createCollection('onlyA', { viewOn: 'src', pipeline: [{ $match: { k: 'a' } }] });
    await db().createCollection('onlyAIds', { viewOn: 'onlyA', pipeline: [{ $project: { k: 0 } }] });
    expect(
      await db()
        .collection('onlyA')
        .find({}, { sort: { _id: -1 }, projection: { tags: 0 } } as never)
        .toArray(),
    ).toEqual([
      { _id: 3, k: 'a' },
      { _id: 1, k: 'a' },
    ]);
    expect(
      await db()
        .collection('onlyAIds')
        .find({ _id: 1 } as never)
        .toArray(),
    ).toEqual([{ _id: 1, tags: ['x', 'y'] }]);
    expect(
      await db()
        .collection('onlyA')
        .countDocuments({ _id: { $gt: 1 } } as never),
    ).toBe(1);
    expect(await db().command({ count: 'onlyA' })).toMatchObject({ n: 2 });
    expect(await db().collection('onlyA').distinct('tags')).toEqual(['x', 'y']);
    expect(
      await db()
        .collection('onlyAIds')
        .aggregate([{ $count: 'n' }])
        .toArray(),
    ).toEqual([{ n: 2 }]);
  });

  it('lists views as type view and refuses writes with CommandNotSupportedOnView', async () => {
    await db().createCollection('v', { viewOn: 'src', pipeline: [] });
    expect(await db().listCollections({ name: 'v' }).toArray()).toEqual([
      { name: 'v', type: 'view', options: { viewOn: 'src', pipeline: [] }, info: { readOnly: true } },
    ]);
    await expect(db().collection('v').insertOne({})).rejects.toMatchObject({
      code: 166,
      message: 'Namespace views.v is a view, not a collection',
    });
    await expect(db().collection('v').deleteMany({})).rejects.toMatchObject({ code: 166 });
    await expect(db().collection('v').createIndex({ k: 1 })).rejects.toMatchObject({ code: 166 });
    await expect(db().createCollection('v')).rejects.toMatchObject({ code: 48 });
    await db().collection('v').drop();
    expect(await db().listCollections({ name: 'v' }).toArray()).toEqual([]);
  });

  it('refuses a cycle of views', async () => {
    await db().createCollection('c1', { viewOn: 'c2' });
    await expect(db().createCollection('c2', { viewOn: 'c1' })).rejects.toMatchObject({ code: 165 });
  });
});
