import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { depositInput, EntryIndex, reverseMoveInput, withdrawInput } from '../../src/ledger/index.ts';
import { openLedgerHarness, type LedgerHarness } from './support/harness.ts';

// The ledger's life cycle, one call at a time (DESIGN flow 7): references and metadata, reversals,
// closing an account, balances at past times. The races, mutants and kills are in
// lifecycleRaces.test.ts and lifecycleProcesses.test.ts.

let h: LedgerHarness;
beforeAll(async () => {
  h = await openLedgerHarness('lifecycle');
});
afterAll(async () => {
  await h.close();
});

async function account(id: string) {
  const [snapshot] = await h.service.accountsByIds([id]);
  return snapshot;
}

describe('reference and metadata', () => {
  it('are stored once with the request, on the entries as the reference, and part of what a replay must match', async () => {
    await h.fundedAccount('lc-ref', 0);
    const metadata = JSON.stringify({ invoice: 'INV-7', lines: [1, 2], nested: { a: { b: true } } });
    const first = await h.service.deposit({
      requestId: 'lc-ref-1',
      accountId: 'lc-ref',
      amount: 500,
      reference: 'bank-tx-42',
      metadata,
    });
    expect(first).toMatchObject({ kind: 'depositSuccess', entry: { reference: 'bank-tx-42', metadata } });
    // Key order is no difference; another value is.
    const reordered = JSON.stringify({ nested: { a: { b: true } }, lines: [1, 2], invoice: 'INV-7' });
    expect(
      await h.service.deposit({
        requestId: 'lc-ref-1',
        accountId: 'lc-ref',
        amount: 500,
        reference: 'bank-tx-42',
        metadata: reordered,
      }),
    ).toMatchObject({
      kind: 'duplicateReplayed',
      original: { kind: 'depositSuccess', entry: { reference: 'bank-tx-42' } },
    });
    expect(
      await h.service.deposit({
        requestId: 'lc-ref-1',
        accountId: 'lc-ref',
        amount: 500,
        reference: 'bank-tx-43',
        metadata,
      }),
    ).toMatchObject({
      kind: 'idempotencyKeyReused',
      field: 'reference',
    });
    expect(
      await h.service.deposit({ requestId: 'lc-ref-1', accountId: 'lc-ref', amount: 500, reference: 'bank-tx-42' }),
    ).toMatchObject({
      kind: 'idempotencyKeyReused',
      field: 'metadata',
    });
    expect(
      await h.service.deposit({
        requestId: 'lc-ref-1',
        accountId: 'lc-ref',
        amount: 500,
        reference: 'bank-tx-42',
        metadata: JSON.stringify({ invoice: 'INV-8' }),
      }),
    ).toMatchObject({
      kind: 'idempotencyKeyReused',
      field: 'metadata',
    });
    // The metadata lives on the request only; the entry carries the reference.
    const stored = await h.db.db.collection('ledger_entries').findOne({ requestId: 'lc-ref-1' });
    expect(stored).toMatchObject({ reference: 'bank-tx-42' });
    expect(stored).not.toHaveProperty('metadata');
    expect(await h.service.moveAnnotations(['lc-ref-1'])).toEqual([{ metadata, reversedAmount: 0 }]);
  });

  it('a move without them stores neither, and its key replays as before', async () => {
    await h.fundedAccount('lc-plain', 100);
    expect(await h.service.withdraw({ requestId: 'lc-plain-1', accountId: 'lc-plain', amount: 10 })).toMatchObject({
      kind: 'withdrawSuccess',
      entry: { reference: null, metadata: null },
    });
    const request = await h.db.db.collection('ledger_requests').findOne({ _id: 'ledger:lc-plain-1' as never });
    expect(request?.['params']).toEqual({ op: 'withdraw', fromAccountId: 'lc-plain', toAccountId: null, amount: 10 });
    expect(
      await h.service.withdraw({ requestId: 'lc-plain-1', accountId: 'lc-plain', amount: 10, reference: 'late' }),
    ).toMatchObject({ kind: 'idempotencyKeyReused', field: 'reference' });
  });

  it('are bounded: 128 characters, 4 KiB and 8 levels of JSON object', () => {
    const base = { accountId: 'a', amount: 1, requestId: 'r' };
    expect(depositInput.safeParse({ ...base, reference: 'x'.repeat(128) }).success).toBe(true);
    expect(depositInput.safeParse({ ...base, reference: 'x'.repeat(129) }).error?.issues[0]?.message).toMatch(
      /at most 128/,
    );
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 1; i < 8; i += 1) deep = { deep };
    expect(withdrawInput.safeParse({ ...base, metadata: deep }).success).toBe(true);
    expect(withdrawInput.safeParse({ ...base, metadata: { deep } }).error?.issues[0]?.message).toMatch(
      /at most 8 levels/,
    );
    expect(
      withdrawInput.safeParse({ ...base, metadata: { blob: 'x'.repeat(4_096) } }).error?.issues[0]?.message,
    ).toMatch(/4096 bytes/);
    expect(withdrawInput.safeParse({ ...base, metadata: [1] }).error?.issues[0]?.message).toMatch(/JSON object/);
    expect(withdrawInput.safeParse({ ...base, metadata: 'text' }).error?.issues[0]?.message).toMatch(/JSON object/);
  });

  it('ledgerEntries by reference walks its own index', async () => {
    await h.fundedAccount('lc-find', 0);
    await h.service.deposit({ requestId: 'lc-find-1', accountId: 'lc-find', amount: 5, reference: 'needle' });
    await h.service.deposit({ requestId: 'lc-find-2', accountId: 'lc-find', amount: 6, reference: 'hay' });
    const explained = await h.db.db
      .collection('ledger_entries')
      .find({ reference: 'needle' }, { hint: EntryIndex.byReference })
      .toArray();
    expect(explained.map((entry) => entry['requestId'])).toEqual(['lc-find-1']);
  });
});

describe('reverseMove', () => {
  it('reverses a deposit in parts, never past the original, linked both ways', async () => {
    await h.fundedAccount('lc-rev-d', 0);
    await h.service.deposit({ requestId: 'lc-rev-d-dep', accountId: 'lc-rev-d', amount: 100 });
    const part = await h.service.reverseMove({
      requestId: 'lc-rev-d-1',
      originalRequestId: 'lc-rev-d-dep',
      amount: 30,
    });
    expect(part).toMatchObject({
      kind: 'reverseMoveSuccess',
      amount: 30,
      originalAmount: 100,
      reversedAmount: 30,
      debit: {
        kind: 'depositReversal',
        accountId: 'lc-rev-d',
        amount: 30,
        balanceAfter: 70,
        reversalOf: 'lc-rev-d-dep',
      },
      credit: null,
      from: { id: 'lc-rev-d', balance: 70 },
    });
    expect(
      await h.service.reverseMove({ requestId: 'lc-rev-d-2', originalRequestId: 'lc-rev-d-dep', amount: 71 }),
    ).toEqual({
      kind: 'reversalExceedsOriginal',
      originalRequestId: 'lc-rev-d-dep',
      originalAmount: 100,
      reversedAmount: 30,
      amount: 71,
    });
    // The key was not recorded: it may carry the corrected amount. No amount: all that is left.
    expect(
      await h.service.reverseMove({ requestId: 'lc-rev-d-2', originalRequestId: 'lc-rev-d-dep', amount: null }),
    ).toMatchObject({ kind: 'reverseMoveSuccess', amount: 70, reversedAmount: 100 });
    expect(
      await h.service.reverseMove({ requestId: 'lc-rev-d-3', originalRequestId: 'lc-rev-d-dep', amount: null }),
    ).toMatchObject({ kind: 'reversalExceedsOriginal', reversedAmount: 100 });
    expect(await account('lc-rev-d')).toMatchObject({ balance: 0 });
    expect(await h.service.moveAnnotations(['lc-rev-d-dep'])).toEqual([{ metadata: null, reversedAmount: 100 }]);
    // Replays answer from the record; other parameters are IdempotencyKeyReused.
    expect(
      await h.service.reverseMove({ requestId: 'lc-rev-d-1', originalRequestId: 'lc-rev-d-dep', amount: 30 }),
    ).toMatchObject({
      kind: 'duplicateReplayed',
      original: { kind: 'reverseMoveSuccess', amount: 30, reversedAmount: 30 },
    });
    expect(
      await h.service.reverseMove({ requestId: 'lc-rev-d-1', originalRequestId: 'lc-rev-d-dep', amount: 31 }),
    ).toMatchObject({ kind: 'idempotencyKeyReused', field: 'amount' });
    expect(await h.service.withdraw({ requestId: 'lc-rev-d-1', accountId: 'lc-rev-d', amount: 1 })).toMatchObject({
      kind: 'idempotencyKeyReused',
      field: 'operation',
    });
  });

  it('reverses a transfer back the way it came, and answers InsufficientFunds when the money left', async () => {
    await h.fundedAccount('lc-rev-a', 100);
    await h.fundedAccount('lc-rev-b', 0);
    await h.service.transfer({ requestId: 'lc-rev-t', fromAccountId: 'lc-rev-a', toAccountId: 'lc-rev-b', amount: 60 });
    await h.service.withdraw({ requestId: 'lc-rev-t-w', accountId: 'lc-rev-b', amount: 50 });
    expect(
      await h.service.reverseMove({ requestId: 'lc-rev-t-1', originalRequestId: 'lc-rev-t', amount: null }),
    ).toEqual({ kind: 'insufficientFunds', accountId: 'lc-rev-b', balance: 10, amount: 60 });
    // Recorded: final for its key, like a withdrawal's.
    expect(
      await h.service.reverseMove({ requestId: 'lc-rev-t-1', originalRequestId: 'lc-rev-t', amount: null }),
    ).toMatchObject({ kind: 'duplicateReplayed', original: { kind: 'insufficientFunds' } });
    const back = await h.service.reverseMove({ requestId: 'lc-rev-t-2', originalRequestId: 'lc-rev-t', amount: 10 });
    expect(back).toMatchObject({
      kind: 'reverseMoveSuccess',
      debit: {
        kind: 'transferOut',
        accountId: 'lc-rev-b',
        balanceAfter: 0,
        counterpartyAccountId: 'lc-rev-a',
        reversalOf: 'lc-rev-t',
      },
      credit: { kind: 'transferIn', accountId: 'lc-rev-a', balanceAfter: 50, reversalOf: 'lc-rev-t' },
      reversedAmount: 10,
    });
  });

  it('refuses what is not a reversible move', async () => {
    await h.fundedAccount('lc-rev-n', 100);
    await h.service.withdraw({ requestId: 'lc-rev-n-w', accountId: 'lc-rev-n', amount: 10 });
    await h.service.withdraw({ requestId: 'lc-rev-n-big', accountId: 'lc-rev-n', amount: 1_000 });
    const withdrawal = await h.service.reverseMove({
      requestId: 'lc-rev-n-1',
      originalRequestId: 'lc-rev-n-w',
      amount: null,
    });
    expect(withdrawal).toMatchObject({ kind: 'notReversible', operation: 'withdraw' });
    expect((withdrawal as { detail: string }).detail).toMatch(/deposit whose reference names/);
    expect(
      await h.service.reverseMove({ requestId: 'lc-rev-n-2', originalRequestId: 'lc-rev-n-big', amount: null }),
    ).toMatchObject({ kind: 'notReversible', operation: 'withdraw' });
    expect(
      await h.service.reverseMove({ requestId: 'lc-rev-n-3', originalRequestId: 'no-such-move', amount: 1 }),
    ).toEqual({ kind: 'moveNotFound', requestId: 'no-such-move' });
    const reversal = await h.service.reverseMove({
      requestId: 'lc-rev-n-4',
      originalRequestId: 'fund-lc-rev-n',
      amount: 1,
    });
    expect(reversal.kind).toBe('reverseMoveSuccess');
    expect(
      await h.service.reverseMove({ requestId: 'lc-rev-n-5', originalRequestId: 'lc-rev-n-4', amount: 1 }),
    ).toMatchObject({ kind: 'notReversible', operation: 'reverseMove' });
    expect(reverseMoveInput.safeParse({ requestId: 'x', originalRequestId: 'y', amount: 0 }).success).toBe(false);
  });
});

describe('closeAccount', () => {
  it('moves the whole balance and closes in one transaction; every later move on it is AccountClosed', async () => {
    await h.fundedAccount('lc-close', 250);
    await h.fundedAccount('lc-close-to', 10);
    await h.fundedAccount('lc-close-usd', 0, 'USD');
    await h.service.deposit({ requestId: 'lc-close-dep', accountId: 'lc-close', amount: 50 });
    expect(
      await h.service.closeAccount({
        requestId: 'lc-close-x',
        accountId: 'lc-close',
        transferBalanceTo: 'lc-close-usd',
      }),
    ).toMatchObject({ kind: 'currencyMismatch', toCurrency: 'USD' });
    expect(
      await h.service.closeAccount({ requestId: 'lc-close-x', accountId: 'lc-close', transferBalanceTo: 'nobody' }),
    ).toEqual({ kind: 'accountNotFound', accountId: 'nobody' });
    const closedAnswer = await h.service.closeAccount({
      requestId: 'lc-close-1',
      accountId: 'lc-close',
      transferBalanceTo: 'lc-close-to',
    });
    expect(closedAnswer).toMatchObject({
      kind: 'closeAccountSuccess',
      account: { id: 'lc-close', balance: 0, status: 'CLOSED' },
      movedAmount: 300,
      transferredTo: { id: 'lc-close-to', balance: 310 },
      debit: { kind: 'transferOut', amount: 300, balanceAfter: 0 },
      credit: { kind: 'transferIn', amount: 300, balanceAfter: 310 },
    });
    expect(await account('lc-close')).toMatchObject({ balance: 0, status: 'CLOSED' });
    // Money stays a BSON long through the close's pipeline write.
    expect(
      await h.db.db
        .collection('accounts')
        .countDocuments({ _id: 'lc-close' as never, balance: { $type: 'long' }, version: { $type: 'long' } }),
    ).toBe(1);
    const closedAt = (closedAnswer as { account: { closedAt: Date } }).account.closedAt;
    expect(closedAt).toBeInstanceOf(Date);
    const refused = { kind: 'accountClosed', accountId: 'lc-close', closedAt };
    expect(await h.service.deposit({ requestId: 'lc-close-a1', accountId: 'lc-close', amount: 1 })).toEqual(refused);
    expect(await h.service.withdraw({ requestId: 'lc-close-a2', accountId: 'lc-close', amount: 1 })).toEqual(refused);
    expect(
      await h.service.transfer({
        requestId: 'lc-close-a3',
        fromAccountId: 'lc-close-to',
        toAccountId: 'lc-close',
        amount: 1,
      }),
    ).toEqual(refused);
    expect(
      await h.service.authorizeHold({
        requestId: 'lc-close-a4',
        accountId: 'lc-close',
        amount: 1,
        expiresInSeconds: 60,
      }),
    ).toEqual(refused);
    expect(
      await h.service.reverseMove({ requestId: 'lc-close-a5', originalRequestId: 'lc-close-dep', amount: 1 }),
    ).toEqual(refused);
    const batch = await h.service.submitMoves({
      atomic: false,
      moves: [
        { kind: 'deposit', requestId: 'lc-close-b1', accountId: 'lc-close', amount: 1 },
        { kind: 'deposit', requestId: 'lc-close-b2', accountId: 'lc-close-to', amount: 1 },
      ],
    });
    expect(batch).toMatchObject({ kind: 'submitMovesSuccess', results: [refused, { kind: 'depositSuccess' }] });
    // A capture into it, from a hold on another account.
    const hold = await h.service.authorizeHold({
      requestId: 'lc-close-h',
      accountId: 'lc-close-to',
      amount: 5,
      expiresInSeconds: 60,
    });
    const holdId = (hold as { hold: { id: string } }).hold.id;
    expect(
      await h.service.captureHold({ requestId: 'lc-close-c', holdId, amount: null, toAccountId: 'lc-close' }),
    ).toEqual(refused);
    // Closing twice, or into it, is AccountClosed; the first close replays.
    expect(
      await h.service.closeAccount({
        requestId: 'lc-close-2',
        accountId: 'lc-close',
        transferBalanceTo: 'lc-close-to',
      }),
    ).toEqual(refused);
    expect(
      await h.service.closeAccount({
        requestId: 'lc-close-1',
        accountId: 'lc-close',
        transferBalanceTo: 'lc-close-to',
      }),
    ).toMatchObject({ kind: 'duplicateReplayed', original: { kind: 'closeAccountSuccess', movedAmount: 300 } });
  });

  it('refuses while a hold is pending, and closes an empty account without entries', async () => {
    await h.fundedAccount('lc-held', 40);
    await h.fundedAccount('lc-held-to', 0);
    const hold = await h.service.authorizeHold({
      requestId: 'lc-held-h',
      accountId: 'lc-held',
      amount: 40,
      expiresInSeconds: 600,
    });
    expect(
      await h.service.closeAccount({ requestId: 'lc-held-1', accountId: 'lc-held', transferBalanceTo: 'lc-held-to' }),
    ).toEqual({ kind: 'accountHasHolds', accountId: 'lc-held', held: 40 });
    await h.service.captureHold({
      requestId: 'lc-held-c',
      holdId: (hold as { hold: { id: string } }).hold.id,
      amount: null,
      toAccountId: null,
    });
    expect(
      await h.service.closeAccount({ requestId: 'lc-held-1', accountId: 'lc-held', transferBalanceTo: 'lc-held-to' }),
    ).toMatchObject({
      kind: 'closeAccountSuccess',
      movedAmount: 0,
      debit: null,
      credit: null,
      account: { status: 'CLOSED', balance: 0 },
    });
  });
});

describe('balanceAt', () => {
  it('is the balance after the last decision committed at or before the time, on the database clock', async () => {
    await h.fundedAccount('lc-at', 0);
    const before = new Date(Date.now() - 60_000);
    const marks: { at: Date; balance: number }[] = [];
    for (const [i, amount] of [100, 50, 25].entries()) {
      await h.service.deposit({ requestId: `lc-at-${i}`, accountId: 'lc-at', amount });
      const [snapshot] = await h.service.accountsByIds(['lc-at']);
      await sleep(5); // distinct milliseconds between the moves, so each mark sits between two commits
      marks.push({ at: new Date(), balance: snapshot!.balance });
    }
    expect(await h.service.balanceAt('lc-at', before)).toBe(0);
    for (const mark of marks) expect(await h.service.balanceAt('lc-at', mark.at)).toBe(mark.balance);
    const history = await h.service.balanceHistory({ accountId: 'lc-at', first: 2, at: null, after: null });
    expect(history.items.map((point) => point.balance)).toEqual([175, 150]);
    expect(history.hasNextPage).toBe(true);
    const entries = await h.db.db
      .collection('ledger_entries')
      .find({ accountId: 'lc-at' })
      .sort({ versionAfter: 1 })
      .toArray();
    for (const entry of entries) expect(entry['committedAt']).toBeInstanceOf(Date);
  });
});
