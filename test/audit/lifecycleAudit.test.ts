// The audit's life-cycle checks: L1 (a move's reversals never take back more than it moved, and
// its record's reversedAmount equals its reversals' entries) and L2 (a closed account holds
// nothing). A ledger with reversals of deposits and transfers and a close shows nothing, and the
// balances of reversed and closed accounts add up; each direct corruption is one mismatch.
import { Long } from 'mongodb';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuditTelemetry, ensureAuditIndexes, LedgerAudit, MismatchKind } from '../../src/audit/index.ts';
import { collectionNames, ensureLedgerIndexes } from '../../src/ledger/index.ts';
import { ensureWorkItemIndexes } from '../../src/work/index.ts';
import { fundedAccount, ledgerOn } from '../payouts/support/payouts.ts';
import { connectTestDb, type TestDb } from '../support/mongo.ts';

const silent = pino({ level: 'silent' });
const fast = { settleMs: 0, recheckDelayMs: 10, tickIntervalMs: 50 };

describe('ledger audit: the life cycle', () => {
  let test: TestDb;
  beforeAll(async () => {
    test = await connectTestDb('audit_lifecycle');
    await ensureLedgerIndexes(test.db);
    await ensureWorkItemIndexes(test.db);
    await ensureAuditIndexes(test.db);
  });
  afterAll(async () => {
    await test?.close();
  });

  it('finds nothing after reversals and a close, then reports a reversal past its original and a closed account holding money', async () => {
    const db = test.db;
    const ledger = ledgerOn(db);
    await fundedAccount(ledger, 'la');
    await fundedAccount(ledger, 'lb');
    expect((await ledger.deposit({ requestId: 'la-dep', accountId: 'la', amount: 500 })).kind).toBe('depositSuccess');
    expect(
      (await ledger.transfer({ requestId: 'la-tr', fromAccountId: 'la', toAccountId: 'lb', amount: 300 })).kind,
    ).toBe('transferSuccess');
    expect((await ledger.reverseMove({ requestId: 'la-rev1', originalRequestId: 'la-dep', amount: 200 })).kind).toBe(
      'reverseMoveSuccess',
    );
    expect((await ledger.reverseMove({ requestId: 'la-rev2', originalRequestId: 'la-tr', amount: null })).kind).toBe(
      'reverseMoveSuccess',
    );
    expect((await ledger.openAccount({ accountId: 'lc', currency: 'EUR' })).kind).toBe('openAccountSuccess');
    expect((await ledger.deposit({ requestId: 'lc-dep', accountId: 'lc', amount: 40 })).kind).toBe('depositSuccess');
    expect((await ledger.closeAccount({ requestId: 'lc-close', accountId: 'lc', transferBalanceTo: 'lb' })).kind).toBe(
      'closeAccountSuccess',
    );
    const audit = new LedgerAudit(db, silent, fast, createAuditTelemetry(new Registry()));
    expect(await audit.runNow()).toMatchObject({ kind: 'finished', run: { mismatchCount: 0 } });

    // la-dep's record claims more reversed than it moved; lc, closed, holds 9.
    await db
      .collection(collectionNames.requests)
      .updateOne({ _id: 'ledger:la-dep' as never }, { $set: { reversedAmount: Long.fromNumber(600) } });
    await db
      .collection(collectionNames.accounts)
      .updateOne({ _id: 'lc' as never }, { $set: { balance: Long.fromNumber(9) } });

    const result = await audit.runNow();
    const run = result.kind === 'finished' ? result.run : undefined;
    expect(run?.mismatches).toEqual(
      expect.arrayContaining([
        {
          kind: MismatchKind.REVERSAL_EXCEEDS_ORIGINAL,
          accountId: null,
          subject: 'la-dep',
          expected: 500,
          actual: 600,
        },
        { kind: MismatchKind.CLOSED_NOT_EMPTY, accountId: 'lc', subject: 'lc', expected: 0, actual: 9 },
      ]),
    );
    // lc's balance no longer matches its journal either (BALANCE): the same corruption, seen twice.
    expect(run?.mismatches.map((mismatch) => mismatch.kind).sort()).toEqual([
      MismatchKind.BALANCE,
      MismatchKind.CLOSED_NOT_EMPTY,
      MismatchKind.REVERSAL_EXCEEDS_ORIGINAL,
    ]);
  });
});
