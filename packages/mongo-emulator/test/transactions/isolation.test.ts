// Snapshot isolation seen through the driver, two sessions interleaved step by step: what one
// transaction reads, writes and holds, and what everybody else sees meanwhile.
import { MongoServerError, type ClientSession, type Collection } from 'mongodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useEmulator } from '../driver/emulatorFixture.ts';

interface Account {
  _id: string;
  balance: number;
  email?: string;
}

const fixture = useEmulator();
let accounts: Collection<Account>;
let t1: ClientSession;
let t2: ClientSession;

beforeEach(async () => {
  accounts = fixture.client.db('txn_isolation').collection<Account>('accounts');
  await accounts.drop().catch(() => undefined);
  await accounts.insertMany([
    { _id: 'a', balance: 100 },
    { _id: 'b', balance: 50 },
  ]);
  t1 = fixture.client.startSession();
  t2 = fixture.client.startSession();
});

afterEach(async () => {
  await t1.endSession();
  await t2.endSession();
});

async function expectServerError(promise: Promise<unknown>, codeName: string): Promise<MongoServerError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MongoServerError);
  expect((error as MongoServerError).codeName).toBe(codeName);
  return error as MongoServerError;
}

describe('snapshot reads', () => {
  it('keeps reading its snapshot after another transaction commits a change', async () => {
    t1.startTransaction();
    expect(await accounts.findOne({ _id: 'a' }, { session: t1 })).toMatchObject({ balance: 100 });

    t2.startTransaction();
    await accounts.updateOne({ _id: 'a' }, { $inc: { balance: -30 } }, { session: t2 });
    await t2.commitTransaction();
    expect(await accounts.findOne({ _id: 'a' })).toMatchObject({ balance: 70 });

    expect(await accounts.findOne({ _id: 'a' }, { session: t1 })).toMatchObject({ balance: 100 });
    // A collection first read after the change is still read as of the snapshot.
    expect(await accounts.countDocuments({}, { session: t1 })).toBe(2);
    await t1.commitTransaction();
    expect(await accounts.findOne({ _id: 'a' })).toMatchObject({ balance: 70 });
  });

  it('sees its own writes, which nobody else sees until it commits', async () => {
    t1.startTransaction();
    await accounts.updateOne({ _id: 'a' }, { $inc: { balance: -40 } }, { session: t1 });
    await accounts.insertOne({ _id: 'c', balance: 40 }, { session: t1 });
    expect(await accounts.find({}, { session: t1 }).sort({ _id: 1 }).toArray()).toEqual([
      { _id: 'a', balance: 60 },
      { _id: 'b', balance: 50 },
      { _id: 'c', balance: 40 },
    ]);

    expect(await accounts.find({}).sort({ _id: 1 }).toArray()).toEqual([
      { _id: 'a', balance: 100 },
      { _id: 'b', balance: 50 },
    ]);
    t2.startTransaction();
    expect(await accounts.findOne({ _id: 'c' }, { session: t2 })).toBeNull();
    await t2.abortTransaction();

    await t1.commitTransaction();
    expect(await accounts.find({}).sort({ _id: 1 }).toArray()).toEqual([
      { _id: 'a', balance: 60 },
      { _id: 'b', balance: 50 },
      { _id: 'c', balance: 40 },
    ]);
  });

  it('drops every write of an aborted transaction', async () => {
    t1.startTransaction();
    await accounts.deleteOne({ _id: 'b' }, { session: t1 });
    await accounts.updateOne({ _id: 'a' }, { $set: { balance: 0 } }, { session: t1 });
    await t1.abortTransaction();
    expect(await accounts.find({}).sort({ _id: 1 }).toArray()).toEqual([
      { _id: 'a', balance: 100 },
      { _id: 'b', balance: 50 },
    ]);
  });
});

describe('write conflicts', () => {
  it('gives the second writer of a document WriteConflict with TransientTransactionError, and ends its transaction', async () => {
    t1.startTransaction();
    t2.startTransaction();
    await accounts.updateOne({ _id: 'a' }, { $inc: { balance: -10 } }, { session: t1 });
    const error = await expectServerError(
      accounts.updateOne({ _id: 'a' }, { $inc: { balance: -20 } }, { session: t2 }),
      'WriteConflict',
    );
    expect(error.code).toBe(112);
    expect(error.errorLabels).toContain('TransientTransactionError');

    const commit = await expectServerError(t2.commitTransaction(), 'NoSuchTransaction');
    expect(commit.errorLabels).toContain('TransientTransactionError');
    await t1.commitTransaction();
    expect(await accounts.findOne({ _id: 'a' })).toMatchObject({ balance: 90 });
  });

  it('refuses a write to a document changed outside the transaction after its snapshot', async () => {
    t1.startTransaction();
    expect(await accounts.findOne({ _id: 'a' }, { session: t1 })).toMatchObject({ balance: 100 });
    await accounts.updateOne({ _id: 'a' }, { $set: { balance: 1 } });
    await expectServerError(
      accounts.updateOne({ _id: 'a' }, { $inc: { balance: -10 } }, { session: t1 }),
      'WriteConflict',
    );
    await t1.abortTransaction();
    expect(await accounts.findOne({ _id: 'a' })).toMatchObject({ balance: 1 });
  });

  it('conflicts on a unique key two transactions insert under different _ids', async () => {
    await accounts.createIndex({ email: 1 }, { unique: true, partialFilterExpression: { email: { $exists: true } } });
    t1.startTransaction();
    t2.startTransaction();
    await accounts.insertOne({ _id: 'x', balance: 0, email: 'same@example.com' }, { session: t1 });
    await expectServerError(
      accounts.insertOne({ _id: 'y', balance: 0, email: 'same@example.com' }, { session: t2 }),
      'WriteConflict',
    );
    await t1.commitTransaction();
    expect(await accounts.countDocuments({ email: 'same@example.com' })).toBe(1);
  });

  it('reports a duplicate key inside a transaction as a command error that aborts it', async () => {
    t1.startTransaction();
    const error = await expectServerError(
      accounts.insertOne({ _id: 'a', balance: 1 }, { session: t1 }),
      'DuplicateKey',
    );
    expect(error.errorLabels).not.toContain('TransientTransactionError');
    await expectServerError(accounts.insertOne({ _id: 'z', balance: 1 }, { session: t1 }), 'NoSuchTransaction');
    await t1.abortTransaction();
  });
});

describe('plain writes against an open transaction', () => {
  it('wait for the transaction holding the document, then apply on top of its commit', async () => {
    // The waiting is observed, not slept on: serverStatus counts the write conflict the plain
    // write met (mongod's metrics.operation.writeConflicts), and only the commit can release it.
    const writeConflicts = async () => {
      const status = await fixture.client.db('admin').command({ serverStatus: 1 });
      return Number(status.metrics.operation.writeConflicts);
    };
    const conflictsBefore = await writeConflicts();
    t1.startTransaction();
    await accounts.updateOne({ _id: 'a' }, { $inc: { balance: -10 } }, { session: t1 });
    let settled = false;
    const plain = accounts.updateOne({ _id: 'a' }, { $inc: { balance: -5 } }).finally(() => {
      settled = true;
    });
    await expect.poll(writeConflicts, { timeout: 10_000 }).toBe(conflictsBefore + 1);
    expect(settled).toBe(false);
    await t1.commitTransaction();
    await plain;
    expect(await accounts.findOne({ _id: 'a' })).toMatchObject({ balance: 85 });
  });

  it('give up with MaxTimeMSExpired when maxTimeMS runs out first', async () => {
    t1.startTransaction();
    await accounts.updateOne({ _id: 'a' }, { $inc: { balance: -10 } }, { session: t1 });
    await expectServerError(
      accounts.updateOne({ _id: 'a' }, { $set: { balance: 0 } }, { maxTimeMS: 100 }),
      'MaxTimeMSExpired',
    );
    await accounts.updateOne({ _id: 'b' }, { $inc: { balance: 1 } }, { maxTimeMS: 100 });
    await t1.commitTransaction();
    expect(await accounts.find({}).sort({ _id: 1 }).toArray()).toEqual([
      { _id: 'a', balance: 90 },
      { _id: 'b', balance: 51 },
    ]);
  });
});
