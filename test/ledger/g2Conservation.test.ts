import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountDoc, EntryDoc } from '../../src/ledger/index.ts';
import { countOf } from './support/count.ts';
import { openLedgerHarness, type LedgerHarness } from './support/harness.ts';
import { finalKindOf } from './support/scenarios.ts';

// G2: after a concurrent mix of deposits, withdrawals and transfers among 20 accounts, every
// balance equals the sum of its journal (accounts open at 0), each journal is a consistent
// chain, transfers conserve the total, and every balance and amount is stored as a BSON long.
// Like a caller, the mix sends a key again after a transient answer (RequestInProgress when the
// clients' transactions kept conflicting past their retry budget) and counts the final answer.

const accountsCount = 20;
const operationsCount = 400;
const openingMinorUnits = 1_000;

let h: LedgerHarness;
beforeAll(async () => {
  h = await openLedgerHarness('g2');
});
afterAll(async () => {
  await h.close();
});

/** A small deterministic PRNG (mulberry32), so a failing mix can be replayed. */
function prng(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const signed = (entry: EntryDoc) =>
  (entry.kind === 'deposit' || entry.kind === 'transferIn' ? 1 : -1) * Number(entry.amount);

describe('G2 conservation', () => {
  it('keeps every balance equal to its journal and the total conserved under a concurrent mix', async () => {
    const ids = Array.from({ length: accountsCount }, (_, i) => `g2-${String(i).padStart(2, '0')}`);
    for (const id of ids) await h.fundedAccount(id, openingMinorUnits);
    const services = await h.services(10);
    const random = prng(20_240_607);
    const pick = () => ids[Math.floor(random() * ids.length)]!;
    const amountUpTo = (max: number) => 1 + Math.floor(random() * max);

    const operations = Array.from({ length: operationsCount }, (_, i) => {
      const service = services[i % services.length]!;
      const requestId = `g2-op-${i}`;
      const roll = random();
      if (roll < 0.3) {
        const input = { accountId: pick(), amount: amountUpTo(100), requestId };
        return finalKindOf(() => service.deposit(input), requestId).then((kind) => ({
          op: 'deposit',
          amount: input.amount,
          kind,
        }));
      }
      if (roll < 0.65) {
        const input = { accountId: pick(), amount: amountUpTo(200), requestId };
        return finalKindOf(() => service.withdraw(input), requestId).then((kind) => ({
          op: 'withdraw',
          amount: input.amount,
          kind,
        }));
      }
      const from = pick();
      const to = ids.find((id) => id !== from && random() < 0.2) ?? ids.find((id) => id !== from)!;
      const input = { fromAccountId: from, toAccountId: to, amount: amountUpTo(200), requestId };
      return finalKindOf(() => service.transfer(input), requestId).then((kind) => ({
        op: 'transfer',
        amount: input.amount,
        kind,
      }));
    });
    const results = await Promise.all(operations);

    const decisive = new Set(['depositSuccess', 'withdrawSuccess', 'transferSuccess', 'insufficientFunds']);
    expect(results.filter((result) => !decisive.has(result.kind))).toEqual([]);
    const sumOf = (kind: string) => results.filter((r) => r.kind === kind).reduce((sum, r) => sum + r.amount, 0);
    const expectedTotal = accountsCount * openingMinorUnits + sumOf('depositSuccess') - sumOf('withdrawSuccess');

    const accounts = await h.db.db
      .collection<AccountDoc>('accounts')
      .find({ _id: { $in: ids } })
      .toArray();
    const entries = await h.db.db
      .collection<EntryDoc>('ledger_entries')
      .find({ accountId: { $in: ids } })
      .toArray();
    const total = accounts.reduce((sum, account) => sum + Number(account.balance), 0);
    expect(total).toBe(expectedTotal);

    for (const account of accounts) {
      const journal = entries
        .filter((entry) => entry.accountId === account._id)
        .sort((a, b) => Number(a.versionAfter) - Number(b.versionAfter));
      expect(Number(account.balance)).toBe(journal.reduce((sum, entry) => sum + signed(entry), 0));
      let running = 0;
      for (const entry of journal) {
        running += signed(entry);
        expect(Number(entry.balanceAfter)).toBe(running);
      }
      expect(Number(account.balance)).toBeGreaterThanOrEqual(0);
    }
    const transfers = results.filter((r) => r.kind === 'transferSuccess').length;
    expect(entries.filter((entry) => entry.kind === 'transferOut')).toHaveLength(transfers);
    expect(entries.filter((entry) => entry.kind === 'transferIn')).toHaveLength(transfers);
    expect(await countOf(h.db.db, 'ledger_requests', { status: 'pending' })).toBe(0);
  });

  it('stores balances and amounts as BSON long', async () => {
    await h.fundedAccount('g2-long', 2 ** 40);
    const { db } = h.db;
    expect(
      await countOf(db, 'accounts', { _id: 'g2-long', balance: { $type: 'long' }, version: { $type: 'long' } }),
    ).toBe(1);
    expect(await countOf(db, 'accounts', { balance: { $not: { $type: 'long' } } })).toBe(0);
    expect(
      await countOf(db, 'ledger_entries', {
        accountId: 'g2-long',
        amount: { $type: 'long' },
        balanceAfter: { $type: 'long' },
      }),
    ).toBe(1);
    const notLong = { $or: [{ amount: { $not: { $type: 'long' } } }, { balanceAfter: { $not: { $type: 'long' } } }] };
    expect(await countOf(db, 'ledger_entries', notLong)).toBe(0);
  });
});
