import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WithdrawResult } from '../../src/ledger/index.ts';
import { countOf } from './support/count.ts';
import { openLedgerHarness, type LedgerHarness } from './support/harness.ts';

// G3: one requestId, one effect. The request is recorded already decided, in the transaction
// that moves the money (there is no pending state): of sends that overlap, one transaction
// commits, and the others meet its key (a write conflict, then the duplicate) and replay it, or
// answer RequestInProgress when their retry budget runs out first. Later replays get
// DuplicateReplayed carrying the very same outcome, and a refusal stays a refusal.

let h: LedgerHarness;
beforeAll(async () => {
  h = await openLedgerHarness('g3');
});
afterAll(async () => {
  await h.close();
});

const balanceOf = async (accountId: string) =>
  Number((await h.db.db.collection('accounts').findOne({ _id: accountId as never }))?.balance);
const entriesOf = (requestId: string) => countOf(h.db.db, 'ledger_entries', { requestId });

describe('G3 exactly once per requestId', () => {
  it('applies one withdrawal sent 50 times at once and 50 times afterwards', async () => {
    await h.fundedAccount('g3-acct', 100);
    const services = await h.services(10);
    const input = { accountId: 'g3-acct', amount: 30, requestId: 'g3-once' };
    const send = (count: number) =>
      Promise.all(Array.from({ length: count }, (_, i) => services[i % services.length]!.withdraw(input)));

    const overlapping = await send(50);
    const successes = overlapping.filter((result) => result.kind === 'withdrawSuccess');
    expect(successes).toHaveLength(1);
    const success = successes[0]!;
    for (const result of overlapping.filter((r) => r !== success)) {
      expect(['duplicateReplayed', 'requestInProgress']).toContain(result.kind);
      if (result.kind === 'duplicateReplayed') expect(result.original).toEqual(success);
    }

    const later = await send(50);
    for (const result of later) {
      expect(result).toMatchObject({ kind: 'duplicateReplayed', requestId: 'g3-once' });
      expect((result as Extract<WithdrawResult, { kind: 'duplicateReplayed' }>).original).toEqual(success);
    }
    expect(success).toMatchObject({ account: { balance: 70 }, entry: { amount: 30, balanceAfter: 70 } });
    expect(await balanceOf('g3-acct')).toBe(70);
    expect(await entriesOf('g3-once')).toBe(1);
  });

  it('keeps a refused withdrawal refused after the money arrives', async () => {
    await h.fundedAccount('g3-poor', 100);
    const input = { accountId: 'g3-poor', amount: 500, requestId: 'g3-refused' };
    expect(await h.service.withdraw(input)).toEqual({
      kind: 'insufficientFunds',
      accountId: 'g3-poor',
      balance: 100,
      amount: 500,
    });
    await h.service.deposit({ accountId: 'g3-poor', amount: 1_000, requestId: 'g3-poor-topup' });
    const replay = await h.service.withdraw(input);
    expect(replay).toMatchObject({
      kind: 'duplicateReplayed',
      original: { kind: 'insufficientFunds', accountId: 'g3-poor', balance: 100, amount: 500 },
    });
    expect(await balanceOf('g3-poor')).toBe(1_100);
    expect(await entriesOf('g3-refused')).toBe(0);
  });

  it('moves a transfer sent 20 times at once exactly once', async () => {
    await h.fundedAccount('g3-from', 500);
    await h.fundedAccount('g3-to', 0);
    const services = await h.services(5);
    const input = { fromAccountId: 'g3-from', toAccountId: 'g3-to', amount: 120, requestId: 'g3-transfer' };
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => services[i % services.length]!.transfer(input)),
    );
    expect(results.filter((result) => result.kind === 'transferSuccess')).toHaveLength(1);
    expect(results.every((r) => ['transferSuccess', 'duplicateReplayed', 'requestInProgress'].includes(r.kind))).toBe(
      true,
    );
    expect([await balanceOf('g3-from'), await balanceOf('g3-to')]).toEqual([380, 120]);
    expect(await entriesOf('g3-transfer')).toBe(2);
  });

  it('replays a deposit with its first entry and balance', async () => {
    await h.fundedAccount('g3-dep', 0);
    const input = { accountId: 'g3-dep', amount: 40, requestId: 'g3-deposit' };
    const first = await h.service.deposit(input);
    await h.service.deposit({ ...input, requestId: 'g3-deposit-other' });
    expect(await h.service.deposit(input)).toMatchObject({ kind: 'duplicateReplayed', original: first });
    expect(first).toMatchObject({ kind: 'depositSuccess', account: { balance: 40 } });
    expect(await balanceOf('g3-dep')).toBe(80);
  });

  it('handles account and request ids holding dots and dollars like any other', async () => {
    await h.fundedAccount('$g3.odd', 50);
    const input = { accountId: '$g3.odd', amount: 20, requestId: '$req.odd' };
    expect(await h.service.withdraw(input)).toMatchObject({ kind: 'withdrawSuccess', account: { balance: 30 } });
    expect(await h.service.withdraw(input)).toMatchObject({
      kind: 'duplicateReplayed',
      original: { kind: 'withdrawSuccess' },
    });
    expect(await balanceOf('$g3.odd')).toBe(30);
  });

  it('replays an opening with the account as it was opened', async () => {
    await h.fundedAccount('g3-open', 75);
    const replay = await h.service.openAccount({ accountId: 'g3-open', currency: 'EUR' });
    expect(replay).toMatchObject({
      kind: 'duplicateReplayed',
      requestId: 'g3-open',
      original: { kind: 'openAccountSuccess', account: { id: 'g3-open', currency: 'EUR', balance: 0, version: 0 } },
    });
  });
});
