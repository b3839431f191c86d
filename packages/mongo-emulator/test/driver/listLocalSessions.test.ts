// Proves $listLocalSessions lists the server's session cache as mongod does without auth:
// one document per lsid used, {_id: {id, uid}, lastUse}, with aggregate: 1 on any database.
import { describe, expect, it } from 'vitest';
import { useEmulator } from './emulatorFixture.ts';

const fixture = useEmulator();

describe('$listLocalSessions', () => {
  it('lists a session once a command used it, and the later stages apply', async () => {
    const session = fixture.client.startSession();
    try {
      await fixture.client.db('lls').collection('c').insertOne({}, { session });
      const id = session.id!.id;
      const listed = await fixture.client
        .db('admin')
        .aggregate([{ $listLocalSessions: { allUsers: true } }, { $match: { '_id.id': id } }])
        .toArray();
      expect(listed).toHaveLength(1);
      expect(listed[0]).toMatchObject({ _id: { id, uid: expect.anything() }, lastUse: expect.any(Date) });
      expect(
        await fixture.client
          .db('admin')
          .aggregate([{ $listLocalSessions: { users: [{ user: 'u', db: 'admin' }] } }])
          .toArray(),
      ).toEqual([]);
    } finally {
      await session.endSession();
    }
  });

  it('runs with aggregate: 1 on any database, and refuses a collection', async () => {
    await fixture.client.db('lls').collection('c').insertOne({});
    expect(
      (
        await fixture.client
          .db('lls')
          .aggregate([{ $listLocalSessions: {} }])
          .toArray()
      ).length,
    ).toBeGreaterThan(0);
    await expect(
      fixture.client
        .db('admin')
        .collection('c')
        .aggregate([{ $listLocalSessions: {} }])
        .toArray(),
    ).rejects.toMatchObject({
      code: 73,
      message: '$listLocalSessions must be run against the database with {aggregate: 1}, not a collection',
    });
  });
});
