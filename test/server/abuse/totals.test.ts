// Abuse class "totals that overflow" (issue 29, item 3). Proves that money aggregates are exact
// past 2^53-1, as BigIntString decimal strings: two accounts each holding a legal 2^53-1 (deposited
// through the API) total 2 × (2^53-1) for every role that may read totals, where `ledgerTotals`
// answered INTERNAL_SERVER_ERROR ("stored money is not a safe integer"); and 1,100 such accounts
// (written directly) total past 2^63-1, where a `$sum` of longs turns into a rounded double.
import { Long } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../support/app.ts';
import { deposit, openAccount } from '../../support/callers.ts';

const MAX = BigInt(Number.MAX_SAFE_INTEGER);
const TOTALS = `query ($currency: String!) { ledgerTotals(currency: $currency) { moneyHeld accounts deposits { count amount } withdrawals { count amount } transfers { count amount } } }`;

describe('money aggregates past 2^53-1', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('totals two accounts of 2^53-1 each exactly, as a decimal string, for every role that reads totals', async () => {
    for (const id of ['big-1', 'big-2']) {
      await openAccount(app, id, 'XTS');
      await deposit(app, id, Number.MAX_SAFE_INTEGER, `big-deposit-${id}`);
    }
    const exact = String(2n * MAX);
    expect(exact).toBe('18014398509481982');
    for (const key of ['dashboard', 'ops', 'service', 'admin'] as const) {
      const res = await app.gql(TOTALS, { currency: 'XTS' }, { key });
      expect(res.errors, key).toBeUndefined();
      expect(res.data.ledgerTotals, key).toEqual({
        moneyHeld: exact,
        accounts: 2,
        deposits: { count: 2, amount: exact },
        withdrawals: { count: 0, amount: '0' },
        transfers: { count: 0, amount: '0' },
      });
    }
  });

  it('stays exact past 2^63-1 (1,100 accounts of 2^53-1), where a sum of longs would be a rounded double', async () => {
    const count = 1_100;
    await app.db
      .collection('accounts')
      .insertMany(
        Array.from({ length: count }, (_, i) => ({
          _id: `huge-${i}` as never,
          currency: 'XTH',
          balance: Long.fromBigInt(MAX),
          version: Long.fromNumber(1),
          openedAt: new Date(),
        })),
      );
    const res = await app.gql(TOTALS, { currency: 'XTH' }, { key: 'dashboard' });
    expect(res.errors).toBeUndefined();
    expect(BigInt(res.data.ledgerTotals.moneyHeld)).toBe(BigInt(count) * MAX);
    expect(BigInt(count) * MAX > 2n ** 63n - 1n).toBe(true);
  });
});
