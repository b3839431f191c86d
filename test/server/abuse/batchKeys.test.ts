// Abuse class "a batch that reuses its own key" (issue 41, item 4). An atomic batch naming one
// requestId twice with different amounts answered LinkedMoveFailed for both moves: no result named
// the cause. Per the contract (G4: the same requestId with other parameters is IdempotencyKeyReused,
// no effect; an atomic batch's failed move gets its own answer, every other one LinkedMoveFailed),
// the second use answers IdempotencyKeyReused naming the field, the first LinkedMoveFailed, nothing
// is written, and the corrected batch may reuse the key. A non-atomic batch applies the first and
// refuses the second the same way; the same move twice is applied once and replayed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../support/app.ts';
import { deposit, openAccount } from '../../support/callers.ts';

const SUBMIT = `mutation ($input: SubmitMovesInput!) { submitMoves(input: $input) { __typename ... on SubmitMovesSuccess { results { __typename ... on IdempotencyKeyReused { requestId field detail } ... on LinkedMoveFailed { requestId } } } } }`;

describe('a batch naming one requestId twice', () => {
  let app: TestApp;
  const submit = async (atomic: boolean, moves: Array<Record<string, unknown>>) => {
    const res = await app.gql(SUBMIT, { input: { atomic, moves } }, { key: 'service' });
    expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
    return res.data.submitMoves.results as Array<{
      __typename: string;
      requestId?: string;
      field?: string;
      detail?: string;
    }>;
  };
  const balance = async (id: string) =>
    (await app.gql(`{ account(id: "${id}") { balance } }`, {}, { key: 'dashboard' })).data.account.balance as number;

  beforeAll(async () => {
    app = await startTestApp({ env: { RATE_LIMITS: 'off' } });
    await openAccount(app, 'bk-a');
    await openAccount(app, 'bk-b');
    await deposit(app, 'bk-a', 1_000, 'bk-fund');
  });
  afterAll(async () => {
    await app?.close();
  });

  it('atomic, other amounts: the second use answers IdempotencyKeyReused naming the amount, the first LinkedMoveFailed, nothing written', async () => {
    const results = await submit(true, [
      { kind: 'DEPOSIT', requestId: 'bk-k1', accountId: 'bk-a', amount: 100 },
      { kind: 'DEPOSIT', requestId: 'bk-k1', accountId: 'bk-a', amount: 200 },
    ]);
    expect(results).toEqual([
      { __typename: 'LinkedMoveFailed', requestId: 'bk-k1' },
      {
        __typename: 'IdempotencyKeyReused',
        requestId: 'bk-k1',
        field: 'amount',
        detail: 'requestId bk-k1 was first used with amount 100, now 200: use a new requestId for a new request',
      },
    ]);
    expect(await balance('bk-a')).toBe(1_000);
    // Nothing was recorded: the corrected batch uses the key.
    const fixed = await submit(true, [
      { kind: 'DEPOSIT', requestId: 'bk-k1', accountId: 'bk-a', amount: 100 },
      { kind: 'DEPOSIT', requestId: 'bk-k2', accountId: 'bk-a', amount: 200 },
    ]);
    expect(fixed.map((result) => result.__typename)).toEqual(['DepositSuccess', 'DepositSuccess']);
    expect(await balance('bk-a')).toBe(1_300);
  });

  it('atomic, other accounts or kinds: the field named is the one that differs', async () => {
    const results = await submit(true, [
      { kind: 'WITHDRAW', requestId: 'bk-k3', accountId: 'bk-a', amount: 10 },
      { kind: 'TRANSFER', requestId: 'bk-k3', accountId: 'bk-a', toAccountId: 'bk-b', amount: 10 },
      { kind: 'DEPOSIT', requestId: 'bk-k4', accountId: 'bk-b', amount: 10 },
    ]);
    expect(results.map((result) => [result.__typename, result.field ?? null])).toEqual([
      ['LinkedMoveFailed', null],
      ['IdempotencyKeyReused', 'operation'],
      ['LinkedMoveFailed', null],
    ]);
    expect([await balance('bk-a'), await balance('bk-b')]).toEqual([1_300, 0]);
  });

  it('not atomic: the first use applies, the second is refused IdempotencyKeyReused; the same move twice applies once', async () => {
    const results = await submit(false, [
      { kind: 'DEPOSIT', requestId: 'bk-k5', accountId: 'bk-b', amount: 7 },
      { kind: 'DEPOSIT', requestId: 'bk-k5', accountId: 'bk-b', amount: 8 },
      { kind: 'DEPOSIT', requestId: 'bk-k6', accountId: 'bk-b', amount: 5 },
      { kind: 'DEPOSIT', requestId: 'bk-k6', accountId: 'bk-b', amount: 5 },
    ]);
    expect(results.map((result) => [result.__typename, result.field ?? null])).toEqual([
      ['DepositSuccess', null],
      ['IdempotencyKeyReused', 'amount'],
      ['DepositSuccess', null],
      ['DuplicateReplayed', null],
    ]);
    expect(await balance('bk-b')).toBe(12);
  });
});
