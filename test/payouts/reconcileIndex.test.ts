// The catch-up's query is an index walk: it hints the `kind_createdAt_id` index, so the server
// must use that index or refuse the query (proved by dropping the index). It pages by
// (createdAt, _id), so entries sharing one `createdAt` are neither skipped nor repeated, and a
// start time leaves out what was stamped before it.
import { Long } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectionNames } from '../../src/ledger/index.ts';
import { ensureWalkIndexes, journalForWalk, withdrawalsAfter } from '../../src/payouts/withdrawalWalk.ts';
import { connectTestDb, type TestDb } from '../support/mongo.ts';

const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms);

function entry(id: string, kind: string, createdAt: Date) {
  const zero = Long.fromNumber(0);
  return {
    _id: id,
    requestId: id,
    accountId: 'a',
    currency: 'EUR',
    kind,
    amount: Long.fromNumber(1),
    balanceAfter: zero,
    versionAfter: zero,
    counterpartyAccountId: null,
    createdAt,
  };
}

describe('withdrawalsAfter (catch-up walk)', () => {
  let test: TestDb;
  beforeAll(async () => {
    test = await connectTestDb('streams_reconcile_index');
    await ensureWalkIndexes(test.db);
  });
  afterAll(async () => {
    await test?.close();
  });

  it('pages through withdrawals by (createdAt, _id) on the kind_createdAt_id index, and is refused without it', async () => {
    // Seven withdrawals, five of them stamped in the same millisecond, and deposits between them.
    const docs = [
      entry('w-late', 'withdrawal', at(20)),
      ...['w-e', 'w-a', 'w-d', 'w-b', 'w-c'].map((id) => entry(id, 'withdrawal', at(10))),
      entry('w-early', 'withdrawal', at(0)),
      entry('d-1', 'deposit', at(10)),
      entry('d-2', 'deposit', at(15)),
    ];
    await test.db.collection(collectionNames.entries).insertMany(docs as never[]);
    const entries = journalForWalk(test.db);
    const walked: string[] = [];
    let after = null;
    for (let page = 0; page < 10; page++) {
      const batch = await withdrawalsAfter(entries, after, null, 2);
      if (batch.length === 0) break;
      walked.push(...batch.map((doc) => doc._id));
      const last = batch.at(-1)!;
      after = { createdAt: last.createdAt, id: last._id };
    }
    expect(walked).toEqual(['w-early', 'w-a', 'w-b', 'w-c', 'w-d', 'w-e', 'w-late']);
    expect((await withdrawalsAfter(entries, null, at(10), 100)).map((doc) => doc._id)).toEqual([
      'w-a',
      'w-b',
      'w-c',
      'w-d',
      'w-e',
      'w-late',
    ]);

    await test.db.collection(collectionNames.entries).dropIndex('kind_createdAt_id');
    await expect(withdrawalsAfter(entries, null, null, 4)).rejects.toMatchObject({ codeName: 'BadValue' });
  });
});
