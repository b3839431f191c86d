// Proves single-document atomicity under real concurrency: many driver connections race the
// same conditional write, and exactly one of them applies it.
import { describe, expect, it } from 'vitest';
import { Long, type MongoClient } from 'mongodb';
import { useEmulator } from './emulatorFixture.ts';

const fixture = useEmulator();
const CLIENTS = 8;

async function clients(): Promise<MongoClient[]> {
  return Promise.all(Array.from({ length: CLIENTS }, () => fixture.newClient({ maxPoolSize: 8 })));
}

describe('races', () => {
  it('applies exactly one of 64 concurrent conditional debits over 8 connections', async () => {
    const pool = await clients();
    const accounts = pool[0]!.db('races').collection('accounts');
    await accounts.insertOne({ _id: 'acct', balance: Long.fromNumber(100) } as never);
    const debit = Long.fromNumber(100);
    const results = await Promise.all(
      Array.from({ length: 64 }, (_, i) =>
        pool[i % CLIENTS]!.db('races')
          .collection('accounts')
          .updateOne({ _id: 'acct', balance: { $gte: debit } } as never, { $inc: { balance: debit.negate() } }),
      ),
    );
    expect(results.filter((r) => r.modifiedCount === 1)).toHaveLength(1);
    const after = await accounts.findOne({ _id: 'acct' } as never, { promoteLongs: false });
    expect(after!.balance).toEqual(Long.fromNumber(0));
  });

  it('gives 32 concurrent findOneAndUpdate claims exactly one winner', async () => {
    const pool = await clients();
    const items = pool[0]!.db('races').collection('items');
    await items.insertOne({ _id: 'job', status: 'PENDING', version: 1 } as never);
    const results = await Promise.all(
      Array.from({ length: 32 }, (_, i) =>
        pool[i % CLIENTS]!.db('races')
          .collection('items')
          .findOneAndUpdate(
            { _id: 'job', status: 'PENDING', version: 1 } as never,
            { $set: { status: 'PROCESSING', worker: `w${i}` }, $inc: { version: 1 } },
            { returnDocument: 'after' },
          ),
      ),
    );
    const winners = results.filter((doc) => doc !== null);
    expect(winners).toHaveLength(1);
    const stored = await items.findOne({ _id: 'job' } as never);
    expect(stored).toMatchObject({ status: 'PROCESSING', version: 2, worker: winners[0]!.worker });
  });
});
