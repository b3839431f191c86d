// Proves `let` values are constant expressions evaluated once per command, as on mongod: a
// $literal keeps a '$'-string as data, and the same values reach update, delete,
// findAndModify, find and aggregate.
import { describe, expect, it } from 'vitest';
import { useEmulator } from './emulatorFixture.ts';

const fixture = useEmulator();
const coll = (name: string) => fixture.client.db('letvars').collection(name);

describe('let variables', () => {
  it('evaluates $literal and operators in pipeline updates', async () => {
    await coll('u').insertMany([{ _id: 1 }, { _id: 2 }] as never[]);
    const let_ = { tag: { $literal: '$notAPath' }, sum: { $add: [1, 2] } };
    await coll('u').updateMany({}, [{ $set: { tag: '$$tag', sum: '$$sum' } }], { let: let_ });
    expect(await coll('u').find().toArray()).toEqual([
      { _id: 1, tag: '$notAPath', sum: 3 },
      { _id: 2, tag: '$notAPath', sum: 3 },
    ]);
  });

  it('reaches find, aggregate, findAndModify and delete filters through $expr', async () => {
    await coll('r').insertMany([
      { _id: 1, k: '$x' },
      { _id: 2, k: 'y' },
    ] as never[]);
    const options = { let: { want: { $literal: '$x' } } };
    const filter = { $expr: { $eq: ['$k', '$$want'] } };
    expect(await coll('r').find(filter, options).toArray()).toEqual([{ _id: 1, k: '$x' }]);
    expect(
      await coll('r')
        .aggregate([{ $match: filter }, { $project: { v: '$$want' } }], options)
        .toArray(),
    ).toEqual([{ _id: 1, v: '$x' }]);
    expect(
      await coll('r').findOneAndUpdate(filter, { $set: { hit: true } }, { ...options, returnDocument: 'after' }),
    ).toEqual({ _id: 1, k: '$x', hit: true });
    expect(await coll('r').deleteMany(filter, options)).toMatchObject({ deletedCount: 1 });
    expect(await coll('r').countDocuments()).toBe(1);
  });
});
