import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countOf } from './support/count.ts';
import { openLedgerHarness, type LedgerHarness } from './support/harness.ts';

// G6: a credit that would take a balance past 2^53-1 is refused as BalanceLimitExceeded and
// changes nothing: the account stays readable, no entry and no request are written, and a
// decided key still replays its decision.

const max = Number.MAX_SAFE_INTEGER;

let h: LedgerHarness;
beforeAll(async () => {
  h = await openLedgerHarness('g6');
});
afterAll(async () => {
  await h.close();
});

const accountOf = async (accountId: string) => (await h.service.accountsByIds([accountId]))[0];

describe('G6 bounded balances', () => {
  it('fills an account up to 2^53-1 exactly, then refuses one more unit with nothing applied', async () => {
    await h.fundedAccount('g6-full', max - 10);
    expect(await h.service.deposit({ accountId: 'g6-full', amount: 10, requestId: 'g6-top' })).toMatchObject({
      kind: 'depositSuccess',
      account: { balance: max },
    });
    const refused = await h.service.deposit({ accountId: 'g6-full', amount: 1, requestId: 'g6-over' });
    expect(refused).toEqual({ kind: 'balanceLimitExceeded', accountId: 'g6-full', balance: max, amount: 1 });
    expect(await accountOf('g6-full')).toMatchObject({ balance: max, version: 2 });
    expect(await countOf(h.db.db, 'ledger_entries', { requestId: 'g6-over' })).toBe(0);
    expect(await countOf(h.db.db, 'ledger_requests', { requestId: 'g6-over' })).toBe(0);
    // A key decided earlier replays its decision, even though a new credit would be refused now.
    expect(await h.service.deposit({ accountId: 'g6-full', amount: 10, requestId: 'g6-top' })).toMatchObject({
      kind: 'duplicateReplayed',
      original: { kind: 'depositSuccess', account: { balance: max } },
    });
  });

  it('refuses a transfer into a full account and leaves the source as it was', async () => {
    await h.fundedAccount('g6-src', 500);
    await h.fundedAccount('g6-dst', max - 100);
    const refused = await h.service.transfer({
      fromAccountId: 'g6-src',
      toAccountId: 'g6-dst',
      amount: 101,
      requestId: 'g6-tr',
    });
    expect(refused).toEqual({ kind: 'balanceLimitExceeded', accountId: 'g6-dst', balance: max - 100, amount: 101 });
    expect(await accountOf('g6-src')).toMatchObject({ balance: 500, version: 1 });
    expect(await accountOf('g6-dst')).toMatchObject({ balance: max - 100, version: 1 });
    expect(await countOf(h.db.db, 'ledger_entries', { requestId: 'g6-tr' })).toBe(0);
    expect(
      await h.service.transfer({
        fromAccountId: 'g6-src',
        toAccountId: 'g6-dst',
        amount: 100,
        requestId: 'g6-tr-fits',
      }),
    ).toMatchObject({
      kind: 'transferSuccess',
      from: { balance: 400 },
      to: { balance: max },
    });
  });
});
