// Proves write concerns behave as on a one-node replica set: majority/1/j/wtimeout succeed;
// w greater than the members and unknown tags apply the write, then report a writeConcernError.
import { describe, expect, it } from 'vitest';
import { MongoWriteConcernError } from 'mongodb';
import { useEmulator } from './emulatorFixture.ts';

const fixture = useEmulator();
const coll = () => fixture.client.db('wc').collection('c');

describe('write concern', () => {
  it('accepts majority, 1, j and wtimeout', async () => {
    await coll().insertOne({ k: 'majority' }, { writeConcern: { w: 'majority', wtimeout: 1000 } });
    await coll().insertOne({ k: 'one' }, { writeConcern: { w: 1, journal: true } });
    expect(
      await coll()
        .find({ k: { $in: ['majority', 'one'] } })
        .toArray(),
    ).toHaveLength(2);
  });

  it('answers w:10 with UnsatisfiableWriteConcern after applying the write', async () => {
    const error = await coll()
      .insertOne({ k: 'w10' }, { writeConcern: { w: 10 } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MongoWriteConcernError);
    expect(error).toMatchObject({ code: 100, message: 'Not enough data-bearing nodes' });
    expect((error as MongoWriteConcernError).result).toMatchObject({
      writeConcernError: {
        codeName: 'UnsatisfiableWriteConcern',
        errInfo: { writeConcern: { w: 10, provenance: 'clientSupplied' } },
      },
    });
    expect((await coll().find({ k: 'w10' }).toArray()).length).toBe(1);
  });

  it('answers an unknown tag with UnknownReplWriteConcern', async () => {
    // A tag mode name; the driver's type only spells out 'majority'.
    const tag = 'eastCoast' as 'majority';
    const error = await coll()
      .insertOne({ k: 'tag' }, { writeConcern: { w: tag } })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 79,
      message: "No write concern mode named 'eastCoast' found in replica set configuration",
    });
  });

  it('sends no reply to w:0 yet applies the write', async () => {
    const result = await coll().insertOne({ k: 'w0' }, { writeConcern: { w: 0 } });
    expect(result.acknowledged).toBe(false);
    await expect.poll(async () => (await coll().find({ k: 'w0' }).toArray()).length).toBe(1);
    expect((await fixture.client.db('admin').command({ ping: 1 })).ok).toBe(1);
  });
});
