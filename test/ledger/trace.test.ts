import { Long } from 'mongodb';
import { describe, expect, it } from 'vitest';
import type { AccountDoc } from '../../src/ledger/index.ts';
import { findInTrace } from '../../src/ledger/trace.ts';

// The trace on an account is how a replay tells "applied, reply lost" from "never applied", and
// how it recovers the balance right after the decision.

const account: AccountDoc = {
  _id: 'a',
  currency: 'EUR',
  balance: Long.fromNumber(65),
  version: Long.fromNumber(7),
  openedAt: new Date(0),
  trace: [
    { r: 'ledger:dep', d: Long.fromNumber(100) },
    { r: 'ledger:big', d: Long.fromNumber(0) },
    { r: 'ledger:w1', d: Long.fromNumber(-30) },
    { r: 'ledger:w2', d: Long.fromNumber(-5) },
  ],
};

describe('findInTrace', () => {
  it('rebuilds balance and version after an applied record from the records after it', () => {
    expect(findInTrace(account, 'ledger:w1')).toEqual({ kind: 'applied', delta: -30, balanceAfter: 70, versionAfter: 6 });
    expect(findInTrace(account, 'ledger:w2')).toEqual({ kind: 'applied', delta: -5, balanceAfter: 65, versionAfter: 7 });
  });

  it('reads a zero change as a rejection with the balance it saw', () => {
    expect(findInTrace(account, 'ledger:big')).toEqual({ kind: 'rejected', balance: 100, versionAfter: 5 });
  });

  it('says nothing about a key it does not hold', () => {
    expect(findInTrace(account, 'ledger:other')).toBeNull();
  });
});
