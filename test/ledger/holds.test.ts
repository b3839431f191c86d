import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdsPageInput } from '../../src/ledger/index.ts';
import { openLedgerHarness, type LedgerHarness } from './support/harness.ts';

// Holds, one call at a time: what each mutation answers, what it leaves on the account (balance,
// held, available) and the hold, replays and reused keys, and expiry on the database clock. The
// races are in holdRaces.test.ts, the mutants in holdMeta.test.ts.

let h: LedgerHarness;
beforeAll(async () => {
  h = await openLedgerHarness('holds');
});
afterAll(async () => {
  await h.close();
});

async function account(id: string) {
  const [snapshot] = await h.service.accountsByIds([id]);
  return snapshot;
}

describe('holds', () => {
  it('reserves the available balance: a withdrawal or another hold cannot spend what is held', async () => {
    await h.fundedAccount('h-avail', 100);
    await h.fundedAccount('h-avail-w', 0);
    const hold = await h.service.authorizeHold({
      requestId: 'h-avail-1',
      accountId: 'h-avail',
      amount: 70,
      expiresInSeconds: 600,
    });
    expect(hold).toMatchObject({
      kind: 'authorizeHoldSuccess',
      hold: { amount: 70, capturedAmount: 0, status: 'PENDING' },
      account: { balance: 100, held: 70, available: 30 },
    });
    expect(await h.service.withdraw({ requestId: 'h-avail-w1', accountId: 'h-avail', amount: 31 })).toMatchObject({
      kind: 'insufficientFunds',
    });
    expect(
      await h.service.authorizeHold({
        requestId: 'h-avail-2',
        accountId: 'h-avail',
        amount: 31,
        expiresInSeconds: 600,
      }),
    ).toMatchObject({
      kind: 'insufficientFunds',
      balance: 100,
      amount: 31,
    });
    expect(
      await h.service.transfer({
        requestId: 'h-avail-t1',
        fromAccountId: 'h-avail',
        toAccountId: 'h-avail-w',
        amount: 31,
      }),
    ).toMatchObject({ kind: 'insufficientFunds' });
    expect(await h.service.withdraw({ requestId: 'h-avail-w2', accountId: 'h-avail', amount: 30 })).toMatchObject({
      kind: 'withdrawSuccess',
      account: { balance: 70 },
    });
    expect(await account('h-avail')).toMatchObject({ balance: 70, held: 70, available: 0 });
  });

  it('a group commit decides its withdrawals on the available balance', async () => {
    await h.fundedAccount('h-group', 100);
    await h.service.authorizeHold({
      requestId: 'h-group-hold',
      accountId: 'h-group',
      amount: 60,
      expiresInSeconds: 600,
    });
    const results = await h.service.submitMoves({
      atomic: false,
      moves: [1, 2, 3].map((i) => ({
        kind: 'withdraw' as const,
        requestId: `h-group-${i}`,
        accountId: 'h-group',
        amount: 20,
      })),
    });
    expect(results).toMatchObject({
      kind: 'submitMovesSuccess',
      results: [{ kind: 'withdrawSuccess' }, { kind: 'withdrawSuccess' }, { kind: 'insufficientFunds' }],
    });
    expect(await account('h-group')).toMatchObject({ balance: 60, held: 60, available: 0 });
  });

  it('captures part of a hold as a withdrawal, releases the rest in the same transaction, once', async () => {
    await h.fundedAccount('h-cap', 100);
    const auth = await h.service.authorizeHold({
      requestId: 'h-cap-auth',
      accountId: 'h-cap',
      amount: 50,
      expiresInSeconds: 600,
    });
    if (auth.kind !== 'authorizeHoldSuccess') throw new Error(auth.kind);
    const holdId = auth.hold.id;
    expect(await h.service.captureHold({ requestId: 'h-cap-big', holdId, amount: 51, toAccountId: null })).toEqual({
      kind: 'captureExceedsHold',
      holdId,
      holdAmount: 50,
      amount: 51,
    });
    const captured = await h.service.captureHold({ requestId: 'h-cap-1', holdId, amount: 30, toAccountId: null });
    expect(captured).toMatchObject({
      kind: 'captureHoldSuccess',
      hold: { id: holdId, status: 'CAPTURED', amount: 50, capturedAmount: 30 },
      entry: { kind: 'withdrawal', amount: 30, balanceAfter: 70, requestId: 'h-cap-1' },
      credit: null,
      account: { balance: 70, held: 0, available: 70 },
    });
    expect(await account('h-cap')).toMatchObject({ balance: 70, held: 0, available: 70 });
    // The same key replays; another key finds the hold captured; a void too.
    expect(await h.service.captureHold({ requestId: 'h-cap-1', holdId, amount: 30, toAccountId: null })).toMatchObject({
      kind: 'duplicateReplayed',
      requestId: 'h-cap-1',
      original: { kind: 'captureHoldSuccess', entry: { amount: 30 } },
    });
    expect(await h.service.captureHold({ requestId: 'h-cap-2', holdId, amount: null, toAccountId: null })).toEqual({
      kind: 'holdNotPending',
      holdId,
      status: 'CAPTURED',
    });
    expect(await h.service.voidHold({ requestId: 'h-cap-void', holdId })).toEqual({
      kind: 'holdNotPending',
      holdId,
      status: 'CAPTURED',
    });
    expect(await h.service.captureHold({ requestId: 'h-cap-1', holdId, amount: 31, toAccountId: null })).toMatchObject({
      kind: 'idempotencyKeyReused',
      field: 'amount',
    });
    expect(await h.service.withdraw({ requestId: 'h-cap-1', accountId: 'h-cap', amount: 30 })).toMatchObject({
      kind: 'idempotencyKeyReused',
      field: 'operation',
    });
    expect(await h.service.holdById(holdId)).toMatchObject({ status: 'CAPTURED', capturedAmount: 30 });
    expect(await h.service.entryByRequest('h-cap-1')).toMatchObject({ kind: 'withdrawal', amount: 30 });
  });

  it('captures a whole hold to another account as a transfer, refusing a missing account or another currency', async () => {
    await h.fundedAccount('h-tr-from', 100);
    await h.fundedAccount('h-tr-to', 0);
    await h.fundedAccount('h-tr-usd', 0, 'USD');
    const auth = await h.service.authorizeHold({
      requestId: 'h-tr-auth',
      accountId: 'h-tr-from',
      amount: 40,
      expiresInSeconds: 600,
    });
    if (auth.kind !== 'authorizeHoldSuccess') throw new Error(auth.kind);
    const holdId = auth.hold.id;
    expect(
      await h.service.captureHold({ requestId: 'h-tr-nope', holdId, amount: null, toAccountId: 'h-tr-missing' }),
    ).toEqual({ kind: 'accountNotFound', accountId: 'h-tr-missing' });
    expect(
      await h.service.captureHold({ requestId: 'h-tr-usd', holdId, amount: null, toAccountId: 'h-tr-usd' }),
    ).toMatchObject({ kind: 'currencyMismatch', toCurrency: 'USD' });
    expect(await h.service.holdById(holdId)).toMatchObject({ status: 'PENDING' });
    const captured = await h.service.captureHold({ requestId: 'h-tr-1', holdId, amount: null, toAccountId: 'h-tr-to' });
    expect(captured).toMatchObject({
      kind: 'captureHoldSuccess',
      hold: { capturedAmount: 40, status: 'CAPTURED' },
      entry: { kind: 'transferOut', amount: 40, counterpartyAccountId: 'h-tr-to' },
      credit: { kind: 'transferIn', amount: 40, accountId: 'h-tr-to' },
      account: { balance: 60, held: 0 },
      toAccount: { balance: 40 },
    });
  });

  it('voids a hold once, releasing it; an unknown hold is HoldNotFound', async () => {
    await h.fundedAccount('h-void', 100);
    const auth = await h.service.authorizeHold({
      requestId: 'h-void-auth',
      accountId: 'h-void',
      amount: 100,
      expiresInSeconds: 600,
    });
    if (auth.kind !== 'authorizeHoldSuccess') throw new Error(auth.kind);
    expect(await h.service.voidHold({ requestId: 'h-void-1', holdId: auth.hold.id })).toMatchObject({
      kind: 'voidHoldSuccess',
      hold: { status: 'VOIDED' },
      account: { balance: 100, held: 0, available: 100 },
    });
    expect(await h.service.voidHold({ requestId: 'h-void-1', holdId: auth.hold.id })).toMatchObject({
      kind: 'duplicateReplayed',
      original: { kind: 'voidHoldSuccess' },
    });
    expect(await h.service.voidHold({ requestId: 'h-void-2', holdId: 'hold_none' })).toEqual({
      kind: 'holdNotFound',
      holdId: 'hold_none',
    });
    expect(
      await h.service.authorizeHold({
        requestId: 'h-void-auth',
        accountId: 'h-void',
        amount: 100,
        expiresInSeconds: 600,
      }),
    ).toMatchObject({
      kind: 'duplicateReplayed',
      original: { kind: 'authorizeHoldSuccess', hold: { id: auth.hold.id, status: 'PENDING' } },
    });
    expect(
      await h.service.authorizeHold({
        requestId: 'h-void-auth',
        accountId: 'h-void',
        amount: 100,
        expiresInSeconds: 601,
      }),
    ).toMatchObject({ kind: 'idempotencyKeyReused', field: 'expiresInSeconds' });
    expect(
      await h.service.authorizeHold({
        requestId: 'h-void-x',
        accountId: 'h-void-missing',
        amount: 1,
        expiresInSeconds: 60,
      }),
    ).toEqual({ kind: 'accountNotFound', accountId: 'h-void-missing' });
  });

  it('reads a hold past its expiry as EXPIRED before the sweeper runs, refuses to capture it, and the sweeper releases it', async () => {
    await h.fundedAccount('h-exp', 100);
    const auth = await h.service.authorizeHold({
      requestId: 'h-exp-auth',
      accountId: 'h-exp',
      amount: 80,
      expiresInSeconds: 1,
    });
    if (auth.kind !== 'authorizeHoldSuccess') throw new Error(auth.kind);
    const holdId = auth.hold.id;
    await expect
      .poll(async () => (await h.service.holdById(holdId))?.status, { timeout: 5_000, interval: 100 })
      .toBe('EXPIRED');
    // Not yet released (no sweeper ran), but no caller can capture or void it.
    expect(await account('h-exp')).toMatchObject({ held: 80 });
    expect(await h.service.captureHold({ requestId: 'h-exp-cap', holdId, amount: null, toAccountId: null })).toEqual({
      kind: 'holdNotPending',
      holdId,
      status: 'EXPIRED',
    });
    expect(await h.service.voidHold({ requestId: 'h-exp-void', holdId })).toEqual({
      kind: 'holdNotPending',
      holdId,
      status: 'EXPIRED',
    });
    expect(
      (await h.service.listHolds({ accountId: 'h-exp', status: 'EXPIRED', first: 10, after: null })).items.map(
        (hold) => hold.id,
      ),
    ).toEqual([holdId]);
    expect(
      (await h.service.listHolds({ accountId: 'h-exp', status: 'PENDING', first: 10, after: null })).items,
    ).toEqual([]);
    expect(await h.service.sweepExpiredHolds(100)).toMatchObject({ expired: 1 });
    expect(await account('h-exp')).toMatchObject({ balance: 100, held: 0, available: 100 });
    expect(await h.service.holdById(holdId)).toMatchObject({ status: 'EXPIRED' });
  });

  it('pages an account’s holds newest first, by status', async () => {
    await h.fundedAccount('h-page', 1_000);
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const auth = await h.service.authorizeHold({
        requestId: `h-page-${i}`,
        accountId: 'h-page',
        amount: 10,
        expiresInSeconds: 600,
      });
      if (auth.kind !== 'authorizeHoldSuccess') throw new Error(auth.kind);
      ids.push(auth.hold.id);
    }
    await h.service.voidHold({ requestId: 'h-page-void', holdId: ids[0]! });
    const seen: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < 5; page += 1) {
      const got = await h.service.listHolds({ accountId: 'h-page', status: null, first: 2, after });
      seen.push(...got.items.map((hold) => hold.id));
      if (!got.hasNextPage) break;
      after = holdsPageInput.parse({ accountId: 'h-page', first: 2, after: got.endCursor }).after ?? null;
    }
    expect(seen).toEqual([...ids].reverse());
    expect(
      (await h.service.listHolds({ accountId: 'h-page', status: 'VOIDED', first: 10, after: null })).items.map(
        (hold) => hold.id,
      ),
    ).toEqual([ids[0]]);
    expect(
      (await h.service.listHolds({ accountId: 'h-page', status: 'PENDING', first: 10, after: null })).items,
    ).toHaveLength(4);
  });
});
