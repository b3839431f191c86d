// A commit installs the versions the transaction's writes left (records and index keys) on the
// live collections instead of running each write again. Proves, through the driver: the index
// keys are right the moment the commit answers (counted from the keys alone, and by the unique
// index refusing or accepting the old and new values), a snapshot opened before the commit
// still reads the old versions, the applyOps entry is byte for byte what the write path logged,
// and a commit that no longer fits (a unique key taken, or its collection dropped, after its
// snapshot) is refused whole with a transient WriteConflict, leaving nothing behind.
import { BSON, MongoServerError, type ClientSession, type Collection, type Db, type Document } from 'mongodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useEmulator } from '../driver/emulatorFixture.ts';

interface Account {
  _id: string;
  email: string;
  balance: number;
  tags?: string[];
}

const fixture = useEmulator();
let db: Db;
let accounts: Collection<Account>;
let session: ClientSession;
let other: ClientSession;

beforeEach(async () => {
  db = fixture.client.db('txn_install');
  accounts = db.collection<Account>('accounts');
  await accounts.drop().catch(() => undefined);
  await accounts.createIndexes([
    { key: { email: 1 }, name: 'email_1', unique: true },
    { key: { balance: 1 }, name: 'balance_1' },
  ]);
  await accounts.insertMany([
    { _id: 'a', email: 'a@x', balance: 100 },
    { _id: 'b', email: 'b@x', balance: 50 },
    { _id: 'c', email: 'c@x', balance: 10 },
  ]);
  session = fixture.client.startSession();
  other = fixture.client.startSession();
});

afterEach(async () => {
  await session.endSession();
  await other.endSession();
});

/** The count command on an equality of one indexed field: answered from the index keys alone. */
async function keysFor(filter: Document): Promise<number> {
  const answer = await db.command({ count: 'accounts', query: filter });
  return answer.n as number;
}

async function serverError(promise: Promise<unknown>): Promise<MongoServerError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MongoServerError);
  return error as MongoServerError;
}

const oplog = () => fixture.client.db('local').collection('oplog.rs');

describe('a commit that installs its versions', () => {
  it('leaves every index with the committed keys, and none of the old ones', async () => {
    session.startTransaction();
    await accounts.updateOne({ _id: 'a' }, { $set: { email: 'a2@x' }, $inc: { balance: -30 } }, { session });
    await accounts.deleteOne({ _id: 'b' }, { session });
    await accounts.insertOne({ _id: 'd', email: 'b@x', balance: 70 }, { session });
    await session.commitTransaction();

    expect(await keysFor({ email: 'a@x' })).toBe(0);
    expect(await keysFor({ email: 'a2@x' })).toBe(1);
    expect(await keysFor({ balance: 100 })).toBe(0);
    expect(await keysFor({ balance: 70 })).toBe(2);
    expect(await keysFor({ balance: 50 })).toBe(0);
    expect(await keysFor({ email: 'b@x' })).toBe(1);
    // The unique index holds the new value, and freed the old one.
    expect((await serverError(accounts.insertOne({ _id: 'e', email: 'a2@x', balance: 0 }))).code).toBe(11000);
    await accounts.insertOne({ _id: 'f', email: 'a@x', balance: 0 });
    expect(await accounts.find({}, { sort: { _id: 1 } }).toArray()).toEqual([
      { _id: 'a', email: 'a2@x', balance: 70 },
      { _id: 'c', email: 'c@x', balance: 10 },
      { _id: 'd', email: 'b@x', balance: 70 },
      { _id: 'f', email: 'a@x', balance: 0 },
    ]);
  });

  it('keeps a snapshot opened before the commit on the old versions, through its indexes too', async () => {
    other.startTransaction();
    expect(await accounts.findOne({ _id: 'c' }, { session: other })).toMatchObject({ balance: 10 });

    session.startTransaction();
    await accounts.updateOne({ _id: 'a' }, { $set: { email: 'moved@x', balance: 1 } }, { session });
    await accounts.insertOne({ _id: 'n', email: 'n@x', balance: 1 }, { session });
    await session.commitTransaction();

    expect(await accounts.find({ balance: 1 }, { session: other }).hint('balance_1').toArray()).toEqual([]);
    expect(await accounts.find({ email: 'a@x' }, { session: other }).hint('email_1').toArray()).toEqual([
      { _id: 'a', email: 'a@x', balance: 100 },
    ]);
    expect(await accounts.countDocuments({}, { session: other })).toBe(3);
    await other.commitTransaction();
    expect(await accounts.find({ balance: 1 }).hint('balance_1').toArray()).toHaveLength(2);
  });

  it('logs the applyOps entry the write path logged: same operations, same bytes', async () => {
    await accounts.insertOne({ _id: 'r', email: 'r@x', balance: 5, tags: ['x'] });
    const [last] = await oplog()
      .find({}, { sort: { $natural: -1 }, limit: 1 })
      .toArray();
    session.startTransaction();
    await accounts.insertOne({ _id: 'i', email: 'i@x', balance: 1 }, { session });
    await accounts.updateOne({ _id: 'a' }, { $inc: { balance: -1 }, $set: { 'meta.seen': true } }, { session });
    await accounts.updateOne({ _id: 'r' }, { $push: { tags: 'y' } }, { session });
    await accounts.updateOne({ _id: 'c' }, [{ $set: { balance: { $add: ['$balance', 5] } } }], { session });
    await accounts.replaceOne({ _id: 'b' }, { email: 'b@x', balance: 51 }, { session });
    await accounts.deleteOne({ _id: 'i' }, { session });
    await session.commitTransaction();
    const entries = await oplog()
      .find({ ts: { $gt: last!.ts } })
      .toArray();
    expect(entries).toHaveLength(1);
    const ops = (entries[0]!.o as Document).applyOps as Document[];
    const uuid = ops[0]!.ui;
    expect(ops).toEqual([
      { op: 'i', ns: 'txn_install.accounts', ui: uuid, o: { _id: 'i', email: 'i@x', balance: 1 }, o2: { _id: 'i' } },
      {
        op: 'u',
        ns: 'txn_install.accounts',
        ui: uuid,
        o: { $v: 2, diff: { u: { balance: 99 }, i: { meta: { seen: true } } } },
        o2: { _id: 'a' },
      },
      {
        op: 'u',
        ns: 'txn_install.accounts',
        ui: uuid,
        o: { $v: 2, diff: { stags: { a: true, u1: 'y' } } },
        o2: { _id: 'r' },
      },
      // A pipeline whose diff is not smaller than the document logs it whole.
      { op: 'u', ns: 'txn_install.accounts', ui: uuid, o: { _id: 'c', email: 'c@x', balance: 15 }, o2: { _id: 'c' } },
      { op: 'u', ns: 'txn_install.accounts', ui: uuid, o: { _id: 'b', email: 'b@x', balance: 51 }, o2: { _id: 'b' } },
      { op: 'd', ns: 'txn_install.accounts', ui: uuid, o: { _id: 'i' } },
    ]);
    expect(ops.map((op) => Object.keys(op))).toEqual([
      ['op', 'ns', 'ui', 'o', 'o2'],
      ['op', 'ns', 'ui', 'o', 'o2'],
      ['op', 'ns', 'ui', 'o', 'o2'],
      ['op', 'ns', 'ui', 'o', 'o2'],
      ['op', 'ns', 'ui', 'o', 'o2'],
      ['op', 'ns', 'ui', 'o'],
    ]);
    expect(BSON.calculateObjectSize({ applyOps: ops })).toBe(COMMITTED_OPS_BYTES);
  });

  it('creates the collection and the indexes the transaction made, and no index it did not', async () => {
    const fresh = db.collection<{ _id: number; code: string }>('fresh');
    await fresh.drop().catch(() => undefined);
    session.startTransaction();
    await db.createCollection('fresh', { session });
    await fresh.createIndex({ code: 1 }, { name: 'code_1', unique: true, session });
    await fresh.insertOne({ _id: 1, code: 'x' }, { session });
    await accounts.updateOne({ _id: 'a' }, { $inc: { balance: 1 } }, { session });
    await session.commitTransaction();
    expect((await fresh.listIndexes().toArray()).map((spec) => spec.name)).toEqual(['_id_', 'code_1']);
    expect((await serverError(fresh.insertOne({ _id: 2, code: 'x' }))).code).toBe(11000);
    expect((await accounts.listIndexes().toArray()).map((spec) => spec.name)).toEqual(['_id_', 'email_1', 'balance_1']);
  });

  it('refuses a commit whose unique key was taken after its snapshot, leaving nothing behind', async () => {
    session.startTransaction();
    await accounts.updateOne({ _id: 'a' }, { $inc: { balance: -1 } }, { session });
    await accounts.insertOne({ _id: 't', email: 't@x', balance: 1, tags: ['late'] }, { session });
    // Outside the transaction: a unique index its snapshot lacks, and a document holding the key.
    await accounts.createIndex({ tags: 1 }, { name: 'tags_1', unique: true, sparse: true });
    await accounts.insertOne({ _id: 'x', email: 'x@x', balance: 0, tags: ['late'] });
    const [last] = await oplog()
      .find({}, { sort: { $natural: -1 }, limit: 1 })
      .toArray();

    const error = await serverError(session.commitTransaction());
    expect(error.codeName).toBe('WriteConflict');
    expect(error.code).toBe(112);
    expect(error.errorLabels).toContain('TransientTransactionError');
    expect(await accounts.findOne({ _id: 'a' })).toMatchObject({ balance: 100 });
    expect(await accounts.findOne({ _id: 't' })).toBeNull();
    expect(await keysFor({ tags: 'late' })).toBe(1);
    expect(await oplog().countDocuments({ ts: { $gt: last!.ts } })).toBe(0);
  });

  it('refuses a commit whose own documents would share a key of a unique index built after its snapshot', async () => {
    session.startTransaction();
    await accounts.insertOne({ _id: 't1', email: 't1@x', balance: 1, tags: ['same'] }, { session });
    await accounts.insertOne({ _id: 't2', email: 't2@x', balance: 1, tags: ['same'] }, { session });
    await accounts.createIndex({ tags: 1 }, { name: 'tags_1', unique: true, sparse: true });

    expect((await serverError(session.commitTransaction())).codeName).toBe('WriteConflict');
    expect(await accounts.countDocuments({ _id: { $in: ['t1', 't2'] } })).toBe(0);
    expect(await keysFor({ tags: 'same' })).toBe(0);
  });

  it('refuses a commit whose collection was dropped after its snapshot, recreating nothing', async () => {
    session.startTransaction();
    await accounts.updateOne({ _id: 'a' }, { $inc: { balance: -1 } }, { session });
    await accounts.insertOne({ _id: 't', email: 't@x', balance: 1 }, { session });
    await accounts.drop();

    const error = await serverError(session.commitTransaction());
    expect(error.codeName).toBe('WriteConflict');
    expect(error.errorLabels).toContain('TransientTransactionError');
    expect(await db.listCollections({ name: 'accounts' }).toArray()).toEqual([]);
  });
});

/** BSON bytes of the six operations above, as commits logged them when they ran each write again. */
const COMMITTED_OPS_BYTES = 839;
