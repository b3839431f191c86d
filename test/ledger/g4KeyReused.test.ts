import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countOf } from './support/count.ts';
import { openLedgerHarness, type LedgerHarness } from './support/harness.ts';

// G4: a requestId names one operation with one set of parameters. Sending it with anything else
// is refused as IdempotencyKeyReused and changes nothing.

let h: LedgerHarness;
beforeAll(async () => {
  h = await openLedgerHarness('g4');
  await h.fundedAccount('g4-a', 1_000);
  await h.fundedAccount('g4-b', 1_000);
});
afterAll(async () => {
  await h.close();
});

const balances = async () => {
  const docs = await h.db.db
    .collection('accounts')
    .find({}, { sort: { _id: 1 } })
    .toArray();
  return docs.map((doc) => [doc._id, Number(doc.balance), Number(doc.version)]);
};

describe('G4 same key, other parameters', () => {
  it('refuses another amount, another operation and another account, with no effect', async () => {
    expect((await h.service.withdraw({ accountId: 'g4-a', amount: 100, requestId: 'g4-key' })).kind).toBe(
      'withdrawSuccess',
    );
    const before = await balances();
    // Each refusal names the first parameter that differs from the first request's.
    const reused = (field: string) => ({
      kind: 'idempotencyKeyReused',
      requestId: 'g4-key',
      field,
      detail: expect.stringContaining(`first used with ${field} `),
    });
    expect(await h.service.withdraw({ accountId: 'g4-a', amount: 101, requestId: 'g4-key' })).toEqual(reused('amount'));
    expect(await h.service.deposit({ accountId: 'g4-a', amount: 100, requestId: 'g4-key' })).toEqual(
      reused('operation'),
    );
    expect(await h.service.withdraw({ accountId: 'g4-b', amount: 100, requestId: 'g4-key' })).toEqual(
      reused('fromAccountId'),
    );
    expect(
      await h.service.transfer({ fromAccountId: 'g4-a', toAccountId: 'g4-b', amount: 100, requestId: 'g4-key' }),
    ).toEqual(reused('operation'));
    expect(await balances()).toEqual(before);
  });

  it('refuses many concurrent variants of one key while the original applies once', async () => {
    const services = await h.services(5);
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        services[i % services.length]!.deposit({
          accountId: 'g4-b',
          amount: i % 2 === 0 ? 5 : 6,
          requestId: 'g4-race',
        }),
      ),
    );
    const winner = results.find((result) => result.kind === 'depositSuccess');
    expect(winner).toBeDefined();
    const winnerAmount = winner!.kind === 'depositSuccess' ? winner!.entry.amount : 0;
    const reusedCount = results.filter((result) => result.kind === 'idempotencyKeyReused').length;
    expect(reusedCount).toBe(15);
    expect(await countOf(h.db.db, 'ledger_entries', { requestId: 'g4-race' })).toBe(1);
    expect(Number((await h.db.db.collection('accounts').findOne({ _id: 'g4-b' as never }))?.balance)).toBe(
      1_000 + winnerAmount,
    );
  });

  it('refuses reopening an account in another currency', async () => {
    expect(await h.service.openAccount({ accountId: 'g4-a', currency: 'USD' })).toEqual({
      kind: 'idempotencyKeyReused',
      requestId: 'g4-a',
      field: 'currency',
      detail:
        "account g4-a already exists in EUR; an account's currency cannot change (open another accountId for USD)",
    });
  });
});
