// What applications rely on through the driver: withTransaction retrying a transient error and
// committing exactly once, UnknownTransactionCommitResult on a commit write-concern failure,
// snapshot reads at a cluster time, and a commit reaching change streams as one group.
import { type Long, MongoServerError, type Collection, type Timestamp } from 'mongodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { useEmulator } from '../driver/emulatorFixture.ts';

const fixture = useEmulator();
let counters: Collection<{ _id: string; n: number }>;

beforeEach(async () => {
  counters = fixture.client.db('txn_driver').collection('counters');
  await counters.drop().catch(() => undefined);
  await counters.insertOne({ _id: 'c', n: 0 });
});

async function failPoint(mode: unknown, data: Record<string, unknown>): Promise<void> {
  await fixture.client.db('admin').command({ configureFailPoint: 'failCommand', mode, data });
}

describe('withTransaction', () => {
  it('retries a transient commit error and commits exactly once', async () => {
    await failPoint({ times: 1 }, { failCommands: ['commitTransaction'], errorCode: 112 });
    const session = fixture.client.startSession();
    let attempts = 0;
    try {
      await session.withTransaction(async () => {
        attempts += 1;
        await counters.updateOne({ _id: 'c' }, { $inc: { n: 1 } }, { session });
        await counters.insertOne({ _id: `log-${attempts}`, n: attempts }, { session });
      });
    } finally {
      await session.endSession();
    }
    expect(attempts).toBe(2);
    expect(await counters.find({}).sort({ _id: 1 }).toArray()).toEqual([
      { _id: 'c', n: 1 },
      { _id: 'log-2', n: 2 },
    ]);
  });

  it('runs concurrent transfers from many clients without losing or doubling money', async () => {
    const accounts = fixture.client.db('txn_driver').collection<{ _id: string; balance: number }>('accounts');
    await accounts.drop().catch(() => undefined);
    await accounts.insertMany([
      { _id: 'a', balance: 1000 },
      { _id: 'b', balance: 1000 },
    ]);
    const clients = await Promise.all(Array.from({ length: 8 }, () => fixture.newClient()));
    const totals: number[] = [];
    const transfers = clients.map(async (client, i) => {
      const coll = client.db('txn_driver').collection<{ _id: string; balance: number }>('accounts');
      for (let k = 0; k < 5; k++) {
        const session = client.startSession();
        try {
          await session.withTransaction(async () => {
            const [from, to] = (i + k) % 2 === 0 ? ['a', 'b'] : ['b', 'a'];
            await coll.updateOne({ _id: from }, { $inc: { balance: -7 } }, { session });
            await coll.updateOne({ _id: to }, { $inc: { balance: 7 } }, { session });
          });
        } finally {
          await session.endSession();
        }
        // One find reads both accounts at one instant: a half-applied transfer would show.
        const both = await coll.find({}).toArray();
        totals.push(both.reduce((sum, d) => sum + d.balance, 0));
      }
    });
    await Promise.all(transfers);
    expect(new Set(totals)).toEqual(new Set([2000]));
    const final = await accounts.find({}).sort({ _id: 1 }).toArray();
    expect(final[0]!.balance + final[1]!.balance).toBe(2000);
  });
});

describe('commit outcomes', () => {
  it('labels a commit writeConcernError UnknownTransactionCommitResult while the writes stay committed', async () => {
    await failPoint(
      { times: 1 },
      {
        failCommands: ['commitTransaction'],
        writeConcernError: { code: 64, errmsg: 'waiting for replication timed out', errInfo: { wtimeout: true } },
      },
    );
    const session = fixture.client.startSession();
    try {
      session.startTransaction();
      await counters.updateOne({ _id: 'c' }, { $inc: { n: 5 } }, { session });
      const error = await session.commitTransaction().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(MongoServerError);
      expect((error as MongoServerError).errorLabels).toContain('UnknownTransactionCommitResult');
      await session.commitTransaction();
    } finally {
      await session.endSession();
    }
    expect(await counters.findOne({ _id: 'c' })).toEqual({ _id: 'c', n: 5 });
  });
});

describe('snapshot reads outside transactions', () => {
  it('read the data as of atClusterTime and report it', async () => {
    await counters.updateOne({ _id: 'c' }, { $set: { n: 1 } });
    const before = (await fixture.client.db('admin').command({ ping: 1 })).operationTime as Timestamp;
    await counters.updateOne({ _id: 'c' }, { $set: { n: 2 } });
    const reply = await fixture.client.db('txn_driver').command({
      find: 'counters',
      filter: { _id: 'c' },
      readConcern: { level: 'snapshot', atClusterTime: before },
    });
    expect(reply.cursor.firstBatch).toEqual([{ _id: 'c', n: 1 }]);
    expect(reply.cursor.atClusterTime).toEqual(before);
    const session = fixture.client.startSession({ snapshot: true });
    try {
      expect(await counters.findOne({ _id: 'c' }, { session })).toEqual({ _id: 'c', n: 2 });
      await counters.updateOne({ _id: 'c' }, { $set: { n: 3 } });
      expect(await counters.findOne({ _id: 'c' }, { session })).toEqual({ _id: 'c', n: 2 });
    } finally {
      await session.endSession();
    }
  });
});

describe('change streams', () => {
  it('show a commit as one contiguous group carrying lsid and txnNumber', async () => {
    const stream = counters.watch();
    await stream.tryNext();
    const session = fixture.client.startSession();
    try {
      session.startTransaction();
      await counters.insertOne({ _id: 'x', n: 1 }, { session });
      await counters.updateOne({ _id: 'c' }, { $inc: { n: 1 } }, { session });
      await counters.insertOne({ _id: 'outside', n: 0 });
      await session.commitTransaction();
      const events = [await stream.next(), await stream.next(), await stream.next()];
      expect(events.map((e) => e.operationType)).toEqual(['insert', 'insert', 'update']);
      const [outside, ...inTxn] = events as unknown as {
        documentKey: { _id: string };
        txnNumber?: Long;
        lsid?: unknown;
      }[];
      expect(outside!.documentKey._id).toBe('outside');
      expect(outside!.txnNumber).toBeUndefined();
      for (const event of inTxn) {
        expect(Number(event.txnNumber)).toBe(Number(session.serverSession!.txnNumber));
        expect(event.lsid).toBeDefined();
      }
    } finally {
      await stream.close();
      await session.endSession();
    }
  });
});
