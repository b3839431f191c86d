// The audit's hold checks (H1): `held` equals the sum of the account's pending holds, and
// `balance - held` is not negative. A healthy ledger with holds in every status shows nothing;
// each direct corruption shows up as one mismatch naming its account, expected and actual.
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

describe('ledger audit: holds', () => {
  let test: TestDb;
  beforeAll(async () => {
    test = await connectTestDb('audit_holds');
    await ensureLedgerIndexes(test.db);
    await ensureWorkItemIndexes(test.db);
    await ensureAuditIndexes(test.db);
  });
  afterAll(async () => {
    await test?.close();
  });

  it('finds nothing with pending, voided and expired holds, then reports a held amount that disagrees and an available balance below zero', async () => {
    const db = test.db;
    const ledger = ledgerOn(db);
    await fundedAccount(ledger, 'ha');
    await fundedAccount(ledger, 'hb');
    const held = await ledger.authorizeHold({ requestId: 'ha-1', accountId: 'ha', amount: 100, expiresInSeconds: 600 });
    const voided = await ledger.authorizeHold({
      requestId: 'ha-2',
      accountId: 'ha',
      amount: 50,
      expiresInSeconds: 600,
    });
    if (held.kind !== 'authorizeHoldSuccess' || voided.kind !== 'authorizeHoldSuccess') throw new Error('setup');
    expect((await ledger.voidHold({ requestId: 'ha-3', holdId: voided.hold.id })).kind).toBe('voidHoldSuccess');
    expect(
      (await ledger.authorizeHold({ requestId: 'hb-1', accountId: 'hb', amount: 10, expiresInSeconds: 600 })).kind,
    ).toBe('authorizeHoldSuccess');
    const audit = new LedgerAudit(db, silent, fast, createAuditTelemetry(new Registry()));
    expect(await audit.runNow()).toMatchObject({ kind: 'finished', run: { mismatchCount: 0 } });

    const accounts = db.collection(collectionNames.accounts);
    // ha holds 7 more than its pending holds.
    await accounts.updateOne({ _id: 'ha' as never }, { $inc: { held: Long.fromNumber(7) } });
    // hb's pending hold grows past its balance, and its `held` with it: only available is wrong.
    const balance = Number((await accounts.findOne({ _id: 'hb' as never }))!['balance']);
    await db
      .collection(collectionNames.holds)
      .updateOne({ accountId: 'hb' }, { $set: { amount: Long.fromNumber(balance + 5) } });
    await accounts.updateOne({ _id: 'hb' as never }, { $set: { held: Long.fromNumber(balance + 5) } });

    const result = await audit.runNow();
    const run = result.kind === 'finished' ? result.run : undefined;
    expect(run?.mismatches).toHaveLength(2);
    expect(run?.mismatches).toEqual(
      expect.arrayContaining([
        { kind: MismatchKind.HELD, accountId: 'ha', subject: 'ha', expected: 100, actual: 107 },
        { kind: MismatchKind.NEGATIVE_AVAILABLE, accountId: 'hb', subject: 'hb', expected: 0, actual: -5 },
      ]),
    );
  });
});
