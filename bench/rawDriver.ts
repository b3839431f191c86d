// The baseline the API is measured against: the seed's fix written with the plain driver, no
// GraphQL, no service layer. Per withdrawal, three majority writes: claim the request key
// (unique `_id`), the conditional debit (`balance >= amount` in the filter of a findOneAndUpdate),
// the journal entry. It runs on the same engine, at the same concurrency and over the same
// account ids as the API's line, in its own collections (raw_*), so the API's invariants are not
// disturbed; its own invariants are checked after the run.
import { MongoClient, type Collection, type Db } from 'mongodb';
import type { InvariantCheck } from './measured.ts';

const MAJORITY = { writeConcern: { w: 'majority' as const } };

interface RawAccount {
  _id: string;
  balance: number;
}
interface RawRequest {
  _id: string;
  accountId: string;
  amount: number;
}
interface RawEntry {
  _id: string;
  accountId: string;
  amount: number;
  balanceAfter: number;
}

export interface RawDriver {
  /** Opens `ids` in raw_accounts holding `fundingMinor` each (untimed). */
  fund(ids: readonly string[], fundingMinor: number): Promise<void>;
  /** One withdrawal; the label is `WithdrawSuccess` like the API's, or why it was not. */
  withdraw(accountId: string, amount: number, requestId: string): Promise<string>;
  checkInvariants(): Promise<InvariantCheck[]>;
  close(): Promise<void>;
}

/** A client of its own (its own pool), as a service written on the plain driver would have. */
export async function connectRawDriver(uri: string, dbName: string): Promise<RawDriver> {
  const client = await MongoClient.connect(uri, { maxPoolSize: 64 });
  const db: Db = client.db(dbName);
  const accounts: Collection<RawAccount> = db.collection('raw_accounts');
  const requests: Collection<RawRequest> = db.collection('raw_requests');
  const entries: Collection<RawEntry> = db.collection('raw_entries');
  let fundedMinor = 0;
  let answeredMinor = 0;
  return {
    async fund(ids, fundingMinor) {
      await accounts.insertMany(
        ids.map((_id) => ({ _id, balance: fundingMinor })),
        MAJORITY,
      );
      fundedMinor += ids.length * fundingMinor;
    },
    async withdraw(accountId, amount, requestId) {
      try {
        await requests.insertOne({ _id: requestId, accountId, amount }, MAJORITY);
      } catch (error) {
        if ((error as { code?: number }).code === 11000) return 'DuplicateReplayed';
        throw error;
      }
      const debited = await accounts.findOneAndUpdate(
        { _id: accountId, balance: { $gte: amount } },
        { $inc: { balance: -amount } },
        { ...MAJORITY, returnDocument: 'after', projection: { balance: 1 } },
      );
      if (!debited) return 'InsufficientFunds';
      await entries.insertOne(
        { _id: `${requestId}:debit`, accountId, amount, balanceAfter: debited.balance },
        MAJORITY,
      );
      answeredMinor += amount;
      return 'WithdrawSuccess';
    },
    async checkInvariants() {
      const all = await accounts.find({}).toArray();
      const held = all.reduce((sum, account) => sum + account.balance, 0);
      const negative = all.filter((account) => account.balance < 0).length;
      const [entryCount, requestCount] = await Promise.all([entries.countDocuments({}), requests.countDocuments({})]);
      return [
        {
          name: 'raw baseline: no negative balance, held = funded − withdrawn, one entry per key',
          holds: negative === 0 && held === fundedMinor - answeredMinor && entryCount === requestCount,
          detail: `${all.length} accounts, ${negative} negative, held ${held} of ${fundedMinor - answeredMinor}, ${entryCount} entries for ${requestCount} keys`,
        },
      ];
    },
    close: () => client.close(),
  };
}
