// The reconciliation's query is an index walk: it hints the `kind_id` index, so the server must
// use that index or refuse the query (proved by dropping the index). It pages by `_id`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectionNames, ensureLedgerIndexes } from '../../src/ledger/index.ts';
import { connectTestDb, type TestDb } from '../support/mongo.ts';
import { fundedAccount, ledgerOn, withdrawMany } from './support/payouts.ts';

describe('withdrawalsAfter (reconciliation query)', () => {
  let test: TestDb;
  beforeAll(async () => {
    test = await connectTestDb('streams_reconcile_index');
    await ensureLedgerIndexes(test.db);
  });
  afterAll(async () => {
    await test?.close();
  });

  it('pages through every withdrawal by _id on the kind_id index, and is refused without it', async () => {
    const ledger = ledgerOn(test.db);
    await fundedAccount(ledger, 'idx-acct');
    await withdrawMany(ledger, 'idx-acct', 'idx', 7);
    const first = await ledger.withdrawalsAfter(null, 4);
    const rest = await ledger.withdrawalsAfter(first.at(-1)!.id, 4);
    const ids = [...first, ...rest].map((entry) => entry.id);
    expect(ids).toHaveLength(7);
    expect(ids).toEqual([...ids].sort());
    expect([...first, ...rest].every((entry) => entry.kind === 'withdrawal')).toBe(true);

    await test.db.collection(collectionNames.entries).dropIndex('kind_id');
    await expect(ledger.withdrawalsAfter(null, 4)).rejects.toMatchObject({ codeName: 'BadValue' });
  });
});
