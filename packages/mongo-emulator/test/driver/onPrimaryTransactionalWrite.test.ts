// Proves the onPrimaryTransactionalWrite fail point acts as on mongod: it fires where a
// retryable write commits (never on a statement retried under the same txnNumber), ends the
// connection, and with failBeforeCommitExceptionCode leaves the write unapplied.
import { afterEach, describe, expect, it } from 'vitest';
import { useEmulator } from './emulatorFixture.ts';

const fixture = useEmulator();
const admin = () => fixture.client.db('admin');
const db = () => fixture.client.db('optw');

function failPoint(mode: unknown, data?: Record<string, unknown>) {
  return admin().command({ configureFailPoint: 'onPrimaryTransactionalWrite', mode, ...(data ? { data } : {}) });
}

afterEach(async () => {
  await failPoint('off');
});

describe('onPrimaryTransactionalWrite', () => {
  it('applies the write, closes the connection, and the driver retry returns the first result', async () => {
    await failPoint({ times: 1 });
    await db()
      .collection('committed')
      .insertOne({ _id: 1 } as never);
    expect(await db().collection('committed').countDocuments()).toBe(1);
    const { count } = await failPoint('off');
    expect(count).toBe(1);
  });

  it('leaves the write unapplied with failBeforeCommitExceptionCode', async () => {
    await failPoint({ times: 2 }, { failBeforeCommitExceptionCode: 1 });
    await expect(
      db()
        .collection('never')
        .insertOne({ _id: 1 } as never),
    ).rejects.toMatchObject({ name: 'MongoNetworkError' });
    expect(await db().collection('never').countDocuments()).toBe(0);
  });

  it('answers the code as an error when the connection stays open', async () => {
    const client = await fixture.newClient(); // its own pool, so raw txnNumbers never meet the driver's
    const session = client.startSession();
    try {
      await failPoint({ times: 1 }, { failBeforeCommitExceptionCode: 2, closeConnection: false });
      const reply = await client
        .db('optw')
        .command({ insert: 'open', documents: [{ _id: 1 }], txnNumber: 1n }, { session });
      expect(reply.writeErrors).toEqual([expect.objectContaining({ index: 0, code: 2 })]);
      expect(await db().collection('open').countDocuments()).toBe(0);
    } finally {
      await session.endSession();
    }
  });

  it('fires once for an insert batch and per statement for an update', async () => {
    const client = await fixture.newClient();
    const session = client.startSession();
    try {
      await failPoint('alwaysOn', { closeConnection: false });
      const raw = client.db('optw');
      await raw.command(
        { insert: 'batch', documents: [{ _id: 1 }, { _id: 2 }, { _id: 3 }], txnNumber: 1n },
        { session },
      );
      const updates = [1, 2, 3].map((_id) => ({ q: { _id }, u: { $set: { seen: true } } }));
      await raw.command({ update: 'batch', updates, txnNumber: 2n }, { session });
      // A retried statement commits nothing, so it does not count.
      await raw.command({ update: 'batch', updates, txnNumber: 2n }, { session });
      const { count } = await failPoint('off');
      expect(count).toBe(4);
    } finally {
      await session.endSession();
    }
  });

  it('never fires for a write without a txnNumber', async () => {
    await failPoint('alwaysOn', { failBeforeCommitExceptionCode: 1 });
    await db()
      .collection('plain')
      .updateMany({}, { $set: { a: 1 } });
    await db().command({ insert: 'plain', documents: [{ _id: 1 }] });
    expect(await db().collection('plain').countDocuments()).toBe(1);
  });
});
