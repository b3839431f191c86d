import { Long, ObjectId } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyBook, type Book } from '../../bench/context.ts';
import { checkInvariants } from '../../bench/invariants.ts';
import { connectTestDb, type TestDb } from '../support/mongo.ts';

// The bench's invariant checks must catch corrupted money and a doubled or missing completion:
// each test writes a small ledger and queue straight into its own database, consistent or
// broken in known ways, and reads the verdicts.

const long = (value: number) => Long.fromNumber(value);

interface Damage {
  balanceB: number;
  extraCompletion: boolean;
  /** An account withdrawn below zero, its journal agreeing with it. */
  overdraft: boolean;
}

async function seed(t: TestDb, { balanceB, extraCompletion, overdraft }: Damage): Promise<Book> {
  const { db } = t;
  await db.collection('accounts').insertMany([
    { _id: 'a' as never, currency: 'EUR', balance: long(7), version: long(2) },
    { _id: 'b' as never, currency: 'EUR', balance: long(balanceB), version: long(1) },
  ]);
  const entry = (
    id: string,
    accountId: string,
    kind: string,
    amount: number,
    balanceAfter: number,
    versionAfter: number,
  ) => ({
    _id: id as never,
    accountId,
    kind,
    amount: long(amount),
    balanceAfter: long(balanceAfter),
    versionAfter: long(versionAfter),
  });
  await db
    .collection('ledger_entries')
    .insertMany([
      entry('r1:credit', 'a', 'deposit', 10, 10, 1),
      entry('r2:debit', 'a', 'transferOut', 3, 7, 2),
      entry('r2:credit', 'b', 'transferIn', 3, 3, 1),
    ]);
  if (overdraft) {
    await db
      .collection('accounts')
      .insertOne({ _id: 'c' as never, currency: 'EUR', balance: long(-2), version: long(1) });
    await db.collection('ledger_entries').insertOne(entry('r3:debit', 'c', 'withdrawal', 2, -2, 1));
  }
  const id = new ObjectId();
  const done = {
    kind: 'k',
    status: 'DONE',
    version: 3,
    history: [{ to: 'PENDING' }, { to: 'PROCESSING' }, { to: 'DONE' }],
  };
  await db.collection('workItems').insertOne({ _id: id, ...done });
  const book = {
    ...emptyBook(),
    depositedMinor: 10,
    withdrawnMinor: overdraft ? 2 : 0,
    workKinds: new Set(['k']),
    createdItemIds: new Set([id.toHexString()]),
  };
  book.completedItemIds = extraCompletion ? [id.toHexString(), id.toHexString()] : [id.toHexString()];
  return book;
}

let consistent: TestDb;
let corrupted: TestDb;
beforeAll(async () => {
  [consistent, corrupted] = await Promise.all([connectTestDb('bench_inv_ok'), connectTestDb('bench_inv_bad')]);
});
afterAll(async () => {
  await Promise.all([consistent.close(), corrupted.close()]);
});

describe('bench invariants', () => {
  it('hold on a consistent ledger and queue', async () => {
    const book = await seed(consistent, { balanceB: 3, extraCompletion: false, overdraft: false });
    const checks = await checkInvariants(consistent.db, book);
    expect(checks.filter((check) => !check.holds)).toEqual([]);
    expect(checks).toHaveLength(6);
  });

  it('break on a balance that is not its entries, money that appeared, an overdraft and a doubled completion', async () => {
    const book = await seed(corrupted, { balanceB: 4, extraCompletion: true, overdraft: true });
    const verdicts = Object.fromEntries(
      (await checkInvariants(corrupted.db, book)).map((check) => [check.name, check]),
    );
    expect(verdicts['balances = opening (0) + entries']).toMatchObject({
      holds: false,
      detail: expect.stringContaining('b balance 4, entries sum 3'),
    });
    expect(verdicts['money held = deposits − withdrawals the API answered']).toMatchObject({ holds: false });
    expect(verdicts['each work item done exactly once']).toMatchObject({
      holds: false,
      detail: expect.stringContaining('CompleteSuccess 2 times'),
    });
    expect(verdicts['no negative balance']).toMatchObject({ holds: false, detail: expect.stringContaining('c') });
    expect(verdicts['transfers conserve']?.holds).toBe(true);
  });
});
