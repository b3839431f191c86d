// Proves retryable-write bookkeeping per lsid + txnNumber: a statement already applied is not
// applied again and reports retriedStmtIds; an older txnNumber is TransactionTooOld.
import { describe, expect, it } from 'vitest';
import { useEmulator } from './emulatorFixture.ts';

const fixture = useEmulator();
const db = () => fixture.client.db('retry');

describe('retryable writes', () => {
  it('does not apply an insert twice under the same txnNumber', async () => {
    const session = fixture.client.startSession();
    try {
      const command = { insert: 'c', documents: [{ _id: 1 }, { _id: 2 }], txnNumber: 1n };
      expect(await db().command(command, { session })).toMatchObject({ n: 2 });
      const again = await db().command(command, { session });
      expect(again).toMatchObject({ n: 2, retriedStmtIds: [0, 1] });
      expect(again.writeErrors).toBeUndefined();
      expect(await db().collection('c').find().toArray()).toHaveLength(2);
    } finally {
      await session.endSession();
    }
  });

  it('returns the first result of an update and of a findAndModify', async () => {
    const session = fixture.client.startSession();
    try {
      await db()
        .collection('u')
        .insertOne({ _id: 'x', n: 0 } as never);
      const update = { update: 'u', updates: [{ q: { _id: 'x' }, u: { $inc: { n: 1 } } }], txnNumber: 5n };
      expect(await db().command(update, { session })).toMatchObject({ n: 1, nModified: 1 });
      expect(await db().command(update, { session })).toMatchObject({ n: 1, nModified: 1, retriedStmtIds: [0] });
      const fam = { findAndModify: 'u', query: { _id: 'x' }, update: { $inc: { n: 10 } }, new: true, txnNumber: 6n };
      const first = await db().command(fam, { session });
      const second = await db().command(fam, { session });
      expect(first.value).toMatchObject({ n: 11 });
      expect(second.value).toEqual(first.value);
      expect(
        await db()
          .collection('u')
          .findOne({ _id: 'x' } as never),
      ).toMatchObject({ n: 11 });
    } finally {
      await session.endSession();
    }
  });

  it('refuses an older txnNumber with TransactionTooOld', async () => {
    const session = fixture.client.startSession();
    try {
      await db().command({ insert: 'old', documents: [{}], txnNumber: 9n }, { session });
      await expect(db().command({ insert: 'old', documents: [{}], txnNumber: 8n }, { session })).rejects.toMatchObject({
        code: 225,
        codeName: 'TransactionTooOld',
      });
    } finally {
      await session.endSession();
    }
  });
});
