import { MongoClient } from 'mongodb';

/** Transactions timed per collection size at most, and the time spent on one size at most. */
const TRANSACTIONS_MAX = 200;
const SIZE_BUDGET_MS = 5000;
/** Fewest transactions timed per size, even when each takes longer than the budget allows. */
const TRANSACTIONS_MIN = 3;
const SEED_BATCH = 10_000;

/**
 * One caller's money-move transaction (findOneAndUpdate of an account by _id, an insert into
 * each of two other collections, commit) on collections already holding `size` documents each:
 * its cost must not grow with the collections (mongod's snapshots are per document).
 */
export async function transactionLatency(uri: string, size: number): Promise<void> {
  const client = await new MongoClient(uri).connect();
  const db = client.db(`bench_txn_${size}`);
  const accounts = db.collection<{ _id: number; balance: number }>('accounts');
  const requests = db.collection<{ _id: string; n: number }>('requests');
  const entries = db.collection<{ _id: string; n: number }>('entries');
  await Promise.all([accounts, requests, entries].map((c) => c.drop().catch(() => undefined)));
  // Collections exist before the first transaction, as the ledger's do.
  await accounts.insertOne({ _id: -1, balance: 0 });
  await requests.createIndex({ n: 1 }, { unique: true });
  await entries.createIndex({ n: 1 });
  for (let from = 0; from < size; from += SEED_BATCH) {
    const batch = Array.from({ length: Math.min(SEED_BATCH, size - from) }, (_, i) => from + i);
    await accounts.insertMany(batch.map((n) => ({ _id: n, balance: 0 })));
    await requests.insertMany(batch.map((n) => ({ _id: `seed${n}`, n })));
    await entries.insertMany(batch.map((n) => ({ _id: `seed${n}`, n })));
  }
  const samplesMs: number[] = [];
  const session = client.startSession();
  const startedAt = performance.now();
  try {
    for (let i = 0; i < TRANSACTIONS_MAX; i++) {
      if (samplesMs.length >= TRANSACTIONS_MIN && performance.now() - startedAt > SIZE_BUDGET_MS) break;
      const n = size + i;
      const t0 = performance.now();
      session.startTransaction();
      await accounts.findOneAndUpdate({ _id: i % Math.max(1, size) }, { $inc: { balance: 1 } }, { session });
      await requests.insertOne({ _id: `txn${n}`, n }, { session });
      await entries.insertOne({ _id: `txn${n}`, n }, { session });
      await session.commitTransaction();
      samplesMs.push(performance.now() - t0);
    }
  } finally {
    await session.endSession();
  }
  samplesMs.sort((a, b) => a - b);
  const pct = (p: number) =>
    samplesMs[Math.min(samplesMs.length - 1, Math.floor((p / 100) * samplesMs.length))]!.toFixed(1);
  console.log(
    `transaction (findOneAndUpdate + 2 inserts + commit), collections of ${String(size).padStart(7)} documents: p50 ${pct(50)} ms, p99 ${pct(99)} ms (${samplesMs.length} transactions, 1 caller)`,
  );
  await db.dropDatabase();
  await client.close();
}
