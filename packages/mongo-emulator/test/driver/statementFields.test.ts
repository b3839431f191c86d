// Proves update and delete statements are parsed as mongod 7.0's IDL does: a field it does not
// declare (8.0's update `sort`) fails the whole command with 40415 and applies nothing.
import { describe, expect, it } from 'vitest';
import { useEmulator } from './emulatorFixture.ts';

const fixture = useEmulator();
const db = () => fixture.client.db('fields');

describe('write statement fields', () => {
  it('refuses sort in an update statement, as 7.0 does', async () => {
    await db()
      .collection('s')
      .insertMany([
        { _id: 1, n: 0 },
        { _id: 2, n: 0 },
      ] as never[]);
    const update = { update: 's', updates: [{ q: {}, u: { $inc: { n: 1 } }, sort: { _id: -1 } }] };
    await expect(db().command(update)).rejects.toMatchObject({
      code: 40415,
      message: "BSON field 'update.updates.sort' is an unknown field.",
    });
    expect(await db().collection('s').countDocuments({ n: 1 })).toBe(0);
  });

  it('refuses an unknown field in a delete statement', async () => {
    await expect(db().command({ delete: 's', deletes: [{ q: {}, limit: 0, bogus: 1 }] })).rejects.toMatchObject({
      code: 40415,
      message: "BSON field 'delete.deletes.bogus' is an unknown field.",
    });
  });
});
