// Proves renameCollection moves documents and indexes as mongod does and refuses what mongod
// refuses: a missing source, an existing target without dropTarget, a rename to itself.
import { describe, expect, it } from 'vitest';
import { useEmulator } from './emulatorFixture.ts';

const fixture = useEmulator();
const db = () => fixture.client.db('rename');

describe('renameCollection', () => {
  it('moves documents and indexes, within and across databases', async () => {
    await db()
      .collection('a')
      .insertOne({ _id: 1, k: 'x' } as never);
    await db().collection('a').createIndex({ k: 1 }, { unique: true });
    await db().collection('a').rename('b');
    expect(await db().listCollections({ name: 'a' }).toArray()).toEqual([]);
    expect(await db().collection('b').find().toArray()).toEqual([{ _id: 1, k: 'x' }]);
    await expect(db().collection('b').insertOne({ k: 'x' })).rejects.toMatchObject({ code: 11000 });
    await fixture.client.db('admin').command({ renameCollection: 'rename.b', to: 'rename2.c' });
    expect(await fixture.client.db('rename2').collection('c').countDocuments()).toBe(1);
  });

  it('refuses a missing source, an existing target and itself; dropTarget replaces', async () => {
    const admin = fixture.client.db('admin');
    await db()
      .collection('s')
      .insertOne({ _id: 's' } as never);
    await db()
      .collection('t')
      .insertOne({ _id: 't' } as never);
    await expect(admin.command({ renameCollection: 'rename.none', to: 'rename.x' })).rejects.toMatchObject({
      code: 26,
    });
    await expect(admin.command({ renameCollection: 'rename.s', to: 'rename.t' })).rejects.toMatchObject({
      code: 48,
      message: 'target namespace exists',
    });
    await expect(admin.command({ renameCollection: 'rename.s', to: 'rename.s' })).rejects.toMatchObject({ code: 20 });
    await expect(db().command({ renameCollection: 'rename.s', to: 'rename.u' })).rejects.toMatchObject({ code: 13 });
    await db().collection('s').rename('t', { dropTarget: true });
    expect(await db().collection('t').find().toArray()).toEqual([{ _id: 's' }]);
  });
});
