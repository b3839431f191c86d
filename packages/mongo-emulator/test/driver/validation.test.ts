// Proves collection validators behave as on mongod 5.0+: create and collMod set them, a failing
// insert/update/findAndModify is DocumentValidationFailure (121) with errInfo naming the
// document and the unsatisfied clauses, and bypassDocumentValidation, `moderate` and `warn`
// let writes through where mongod does.
import { describe, expect, it } from 'vitest';
import { useEmulator } from './emulatorFixture.ts';

const fixture = useEmulator();
const db = () => fixture.client.db('validation');

describe('document validation', () => {
  it('refuses an invalid insert with errInfo and accepts it with bypassDocumentValidation', async () => {
    await db().createCollection('c', { validator: { x: { $type: 'string' }, y: { $exists: true } } });
    const error = await db()
      .collection('c')
      .insertOne({ _id: 1, x: 1, y: 1 } as never)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 121,
      errInfo: {
        failingDocumentId: 1,
        details: {
          operatorName: '$and',
          clausesNotSatisfied: [
            {
              index: 0,
              details: {
                operatorName: '$type',
                reason: 'type did not match',
                consideredValue: 1,
                consideredType: 'int',
              },
            },
          ],
        },
      },
    });
    await db()
      .collection('c')
      .insertOne({ _id: 1, x: 1 } as never, { bypassDocumentValidation: true });
    expect(await db().collection('c').countDocuments()).toBe(1);
  });

  it('collMod adds a validator that findAndModify then meets, and refuses an unknown option', async () => {
    await db()
      .collection('m')
      .insertOne({ _id: 1, x: 'a' } as never);
    await db().command({ collMod: 'm', validator: { x: { $type: 'string' } } });
    const error = await db()
      .collection('m')
      .findOneAndUpdate({ _id: 1 } as never, { $set: { x: 1 } })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 121, errInfo: { failingDocumentId: 1, details: { operatorName: '$type' } } });
    expect(
      await db()
        .collection('m')
        .findOne({ _id: 1 } as never),
    ).toEqual({ _id: 1, x: 'a' });
    await expect(db().command({ collMod: 'm', bogus: 1 })).rejects.toMatchObject({ code: 40415 });
    await expect(db().command({ collMod: 'missing', validator: {} })).rejects.toMatchObject({ code: 26 });
  });

  it('lets invalid documents change at level moderate and anything through at action warn', async () => {
    await db()
      .collection('lv')
      .insertOne({ _id: 1, x: 1 } as never);
    await db().command({ collMod: 'lv', validator: { x: { $type: 'string' } }, validationLevel: 'moderate' });
    await db()
      .collection('lv')
      .updateOne({ _id: 1 } as never, { $set: { x: 2 } });
    await expect(
      db()
        .collection('lv')
        .insertOne({ _id: 2, x: 2 } as never),
    ).rejects.toMatchObject({ code: 121 });
    await db().command({ collMod: 'lv', validationAction: 'warn' });
    await db()
      .collection('lv')
      .insertOne({ _id: 2, x: 2 } as never);
    expect(await db().collection('lv').countDocuments()).toBe(2);
  });
});
