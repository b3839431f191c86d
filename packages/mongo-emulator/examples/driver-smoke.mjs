// A smoke test that needs only the official `mongodb` driver and a running emulator (or mongod):
//   npx mongo-emulator --replSet rs0 &
//   node packages/mongo-emulator/examples/driver-smoke.mjs [mongodb://127.0.0.1:27017/?replicaSet=rs0]
// It exits non-zero on any surprise.
import { MongoClient, Long } from 'mongodb';

const uri = process.argv[2] ?? process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017/?replicaSet=rs0';
const DB_NAME = `driver_smoke_${Date.now()}`;
const CONNECTIONS = 8;
const DEBITS = 64;

function check(condition, message) {
  if (!condition) throw new Error(`surprise: ${message}`);
  console.log(`ok - ${message}`);
}

const clients = Array.from(
  { length: CONNECTIONS },
  () => new MongoClient(uri, { maxPoolSize: 1, heartbeatFrequencyMS: 500 }),
);
try {
  await Promise.all(clients.map((client) => client.connect()));
  const db = clients[0].db(DB_NAME);

  // 1. A unique index and a real duplicate-key error.
  const users = db.collection('users');
  await users.createIndex({ email: 1 }, { unique: true });
  await users.insertOne({ email: 'ada@example.com' });
  const duplicate = await users.insertOne({ email: 'ada@example.com' }).then(
    () => null,
    (error) => error,
  );
  check(duplicate?.code === 11000, `duplicate insert fails with code 11000 (${duplicate?.message})`);
  check(duplicate?.keyValue?.email === 'ada@example.com', 'the error carries keyValue');

  // 2. 64 concurrent conditional debits over 8 connections: exactly one applies.
  const accounts = db.collection('accounts');
  await accounts.insertOne({ _id: 'acct-1', balance: Long.fromNumber(100) });
  const amount = Long.fromNumber(100);
  const results = await Promise.all(
    Array.from({ length: DEBITS }, (_, i) =>
      clients[i % CONNECTIONS]
        .db(DB_NAME)
        .collection('accounts')
        .updateOne({ _id: 'acct-1', balance: { $gte: amount } }, { $inc: { balance: amount.negate() } }),
    ),
  );
  const applied = results.filter((result) => result.modifiedCount === 1).length;
  check(applied === 1, `exactly one of ${DEBITS} concurrent debits applied (${applied})`);
  const account = await accounts.findOne({ _id: 'acct-1' }, { promoteLongs: false });
  check(Long.isLong(account.balance) && account.balance.isZero(), 'the balance is a long and is 0');

  // 3. failCommand acts before the command: the insert fails with the code and is not applied.
  await clients[0].db('admin').command({
    configureFailPoint: 'failCommand',
    mode: { times: 1 },
    data: { failCommands: ['insert'], errorCode: 2 },
  });
  const noRetry = new MongoClient(uri, { retryWrites: false });
  try {
    await noRetry.connect();
    const failed = await noRetry
      .db(DB_NAME)
      .collection('events')
      .insertOne({ kind: 'failpoint' })
      .then(
        () => null,
        (error) => error,
      );
    check(failed?.code === 2, `failCommand failed the insert with code 2 (${failed?.message})`);
  } finally {
    await noRetry.close();
  }
  const count = await db.collection('events').countDocuments({ kind: 'failpoint' });
  check(count === 0, 'the failed insert was not applied');
  await db.collection('events').insertOne({ kind: 'failpoint' });
  check((await db.collection('events').countDocuments({ kind: 'failpoint' })) === 1, 'the fail point fired only once');

  await db.dropDatabase();
  console.log('driver smoke passed');
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await Promise.all(clients.map((client) => client.close()));
}
