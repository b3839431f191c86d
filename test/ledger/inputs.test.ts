import { describe, expect, it } from 'vitest';
import {
  depositInput,
  entriesPageInput,
  openAccountInput,
  submitMovesInput,
  transferInput,
} from '../../src/ledger/index.ts';

// Bad input never reaches the database: the schemas refuse it with a message naming the field.

const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((issue) => issue.message) ?? [];

describe('ledger inputs', () => {
  it('accepts integer minor units up to 2^53-1', () => {
    expect(depositInput.safeParse({ accountId: 'a', amount: Number.MAX_SAFE_INTEGER, requestId: 'r' }).success).toBe(
      true,
    );
  });

  it.each([
    [0, 'amount must be positive'],
    [-5, 'amount must be positive'],
    [1.5, 'amount must be an integer number of minor units'],
    [2 ** 53, 'amount must be at most 2^53-1'],
  ])('refuses amount %s', (amount, message) => {
    expect(messages(depositInput.safeParse({ accountId: 'a', amount, requestId: 'r' }))).toContain(message);
  });

  it('refuses empty, overlong and unprintable ids', () => {
    expect(messages(depositInput.safeParse({ accountId: '', amount: 1, requestId: 'r' }))).toContain(
      'accountId must not be empty',
    );
    expect(messages(depositInput.safeParse({ accountId: 'a', amount: 1, requestId: 'x'.repeat(129) }))).toContain(
      'requestId must be at most 128 characters',
    );
    expect(messages(depositInput.safeParse({ accountId: 'a b', amount: 1, requestId: 'r' }))).toContain(
      'accountId must be printable ASCII without spaces',
    );
  });

  it('refuses currencies that are not 3-letter codes', () => {
    for (const currency of ['eur', 'EURO', 'E1R', '']) {
      expect(openAccountInput.safeParse({ accountId: 'a', currency }).success).toBe(false);
    }
  });

  it('refuses a transfer to the same account', () => {
    const result = transferInput.safeParse({ fromAccountId: 'a', toAccountId: 'a', amount: 1, requestId: 'r' });
    expect(messages(result)).toContain('fromAccountId and toAccountId must differ');
  });

  it('bounds page sizes and refuses foreign cursors', () => {
    expect(entriesPageInput.parse({ accountId: 'a' }).first).toBe(20);
    expect(messages(entriesPageInput.safeParse({ accountId: 'a', first: 101 }))).toContain('first must be at most 100');
    const accountCursor = Buffer.from('account:a').toString('base64url');
    expect(messages(entriesPageInput.safeParse({ accountId: 'a', after: accountCursor }))).toContain(
      'after is not a cursor of this list',
    );
  });

  it('refuses a batch move that names toAccountId without being a transfer, a transfer without one or to itself, and an empty batch', () => {
    const batch = (move: Record<string, unknown>) =>
      messages(
        submitMovesInput.safeParse({ atomic: false, moves: [{ requestId: 'r', accountId: 'a', amount: 1, ...move }] }),
      );
    expect(batch({ kind: 'deposit', toAccountId: 'b' })).toContain('toAccountId is only for a transfer');
    expect(batch({ kind: 'withdraw', toAccountId: 'b' })).toContain('toAccountId is only for a transfer');
    expect(batch({ kind: 'transfer' })).not.toEqual([]);
    expect(batch({ kind: 'transfer', toAccountId: 'a' })).toContain('accountId and toAccountId must differ');
    expect(batch({ kind: 'withdraw', amount: 0 })).toContain('amount must be positive');
    expect(batch({ kind: 'withdraw' })).toEqual([]);
    expect(messages(submitMovesInput.safeParse({ atomic: true, moves: [] }))).toContain(
      'moves must hold at least one move',
    );
  });
});
