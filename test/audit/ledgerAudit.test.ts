// The ledger audit reports what a direct database write broke: each corruption below shows up as
// exactly one mismatch naming its account (or entry, or request) with the expected and actual
// values, and a clean ledger shows none. Runs through the service, the GraphQL API (roles), and
// the leased loop (incremental runs pick up a changed account; a request for a run is queued to
// the lease holder, which runs it).
import { Long, type Db } from 'mongodb';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import {
  AUDIT_LEASE_NAME,
  auditState,
  createAuditTelemetry,
  ensureAuditIndexes,
  LedgerAudit,
  MismatchKind,
} from '../../src/audit/index.ts';
import { Registry } from 'prom-client';
import { collectionNames, ensureLedgerIndexes } from '../../src/ledger/index.ts';
import { ensureWorkItemIndexes, workItems } from '../../src/work/index.ts';
import { startTestApp } from '../support/app.ts';
import { connectTestDb, type TestDb } from '../support/mongo.ts';
import { fundedAccount, ledgerOn, metricValue, upsertingWriter } from '../payouts/support/payouts.ts';
import { waitFor } from '../support/waiting.ts';

const silent = pino({ level: 'silent' });
const fast = { settleMs: 0, recheckDelayMs: 10, tickIntervalMs: 50 };

/** Accounts with deposits, withdrawals (each with its payout, as the projection would make) and a transfer. */
async function healthyLedger(db: Db, prefix: string): Promise<void> {
  const ledger = ledgerOn(db);
  for (const name of ['a', 'b', 'c']) await fundedAccount(ledger, `${prefix}-${name}`);
  for (let i = 0; i < 3; i++)
    expect(
      (await ledger.withdraw({ accountId: `${prefix}-a`, amount: 10 + i, requestId: `${prefix}-w${i}` })).kind,
    ).toBe('withdrawSuccess');
  expect(
    (
      await ledger.transfer({
        fromAccountId: `${prefix}-b`,
        toAccountId: `${prefix}-c`,
        amount: 500,
        requestId: `${prefix}-t`,
      })
    ).kind,
  ).toBe('transferSuccess');
  const write = upsertingWriter(db);
  const withdrawals = await db
    .collection(collectionNames.entries)
    .find({ kind: 'withdrawal', accountId: `${prefix}-a` })
    .toArray();
  for (const entry of withdrawals) {
    await write({
      entryId: String(entry._id),
      payload: {
        entryId: String(entry._id),
        requestId: entry['requestId'],
        accountId: entry['accountId'],
        currency: 'EUR',
        amount: Number(entry['amount']),
      },
    });
  }
}

describe('ledger audit', () => {
  let test: TestDb;
  beforeAll(async () => {
    test = await connectTestDb('audit_ledger');
    await ensureLedgerIndexes(test.db);
    await ensureWorkItemIndexes(test.db);
    await ensureAuditIndexes(test.db);
  });
  afterAll(async () => {
    await test?.close();
  });

  it('finds nothing on a healthy ledger, then reports each direct corruption with its account, expected and actual', async () => {
    const db = test.db;
    await healthyLedger(db, 'x');
    const registry = new Registry();
    const audit = new LedgerAudit(db, silent, fast, createAuditTelemetry(registry));
    const clean = await audit.runNow();
    expect(clean).toMatchObject({
      kind: 'finished',
      run: { scope: 'full', accountsChecked: 3, mismatchCount: 0, mismatches: [] },
    });

    const accounts = db.collection(collectionNames.accounts);
    const entries = db.collection(collectionNames.entries);
    // 1 000 000 000 funded, 33 withdrawn: 999 999 967. Seven minor units appear from nowhere.
    await accounts.updateOne({ _id: 'x-a' as never }, { $inc: { balance: Long.fromNumber(7) } });
    // The credit leg of the transfer disappears: c's journal no longer explains its balance.
    await entries.deleteOne({ kind: 'transferIn', requestId: 'x-t' });
    // A payout item is lost.
    const withdrawal = await entries.findOne({ kind: 'withdrawal', requestId: 'x-w1' });
    await workItems(db).deleteOne({ 'payload.entryId': withdrawal!._id });
    // A request left pending for an hour.
    await db
      .collection(collectionNames.requests)
      .insertOne({
        _id: 'ledger:x-stuck' as never,
        requestId: 'x-stuck',
        status: 'pending',
        firstSeenAt: new Date(Date.now() - 3_600_000),
      });
    // An account driven below zero, its journal made to agree: only the sign is wrong.
    await db
      .collection(collectionNames.accounts)
      .insertOne({
        _id: 'x-neg' as never,
        currency: 'EUR',
        balance: Long.fromNumber(-5),
        version: Long.fromNumber(1),
        openedAt: new Date(),
      });
    await entries.insertOne({
      _id: 'x-neg-w:debit' as never,
      requestId: 'x-neg-w',
      accountId: 'x-neg',
      currency: 'EUR',
      kind: 'withdrawal',
      amount: Long.fromNumber(5),
      balanceAfter: Long.fromNumber(-5),
      versionAfter: Long.fromNumber(1),
      counterpartyAccountId: null,
      createdAt: new Date(Date.now() - 3_600_000),
    });
    await workItems(db).insertOne({ idempotencyKey: 'payout:x-neg-w:debit', kind: 'PAYOUT' } as never);

    const before = await metricValue(registry, 'ledger_audit_runs_total', { scope: 'full', outcome: 'complete' });
    const result = await audit.runNow();
    expect(result.kind).toBe('finished');
    const run = result.kind === 'finished' ? result.run : undefined;
    const byKind = (kind: string) => run!.mismatches.filter((m) => m.kind === kind);
    expect(byKind(MismatchKind.BALANCE)).toEqual(
      expect.arrayContaining([
        { kind: 'BALANCE', accountId: 'x-a', subject: 'x-a', expected: 999_999_967, actual: 999_999_974 },
        { kind: 'BALANCE', accountId: 'x-c', subject: 'x-c', expected: 1_000_000_000, actual: 1_000_000_500 },
      ]),
    );
    expect(byKind(MismatchKind.BALANCE)).toHaveLength(2);
    expect(byKind(MismatchKind.NEGATIVE_BALANCE)).toEqual([
      { kind: 'NEGATIVE_BALANCE', accountId: 'x-neg', subject: 'x-neg', expected: 0, actual: -5 },
    ]);
    expect(byKind(MismatchKind.TRANSFER_UNBALANCED)).toEqual([
      expect.objectContaining({ accountId: 'x-b', expected: 500, actual: 0 }),
    ]);
    expect(byKind(MismatchKind.PAYOUT_MISSING)).toEqual([
      { kind: 'PAYOUT_MISSING', accountId: 'x-a', subject: withdrawal!._id, expected: 1, actual: 0 },
    ]);
    expect(byKind(MismatchKind.REQUEST_UNDECIDED)).toEqual([
      expect.objectContaining({ accountId: null, subject: 'x-stuck' }),
    ]);
    expect(run!.mismatchCount).toBe(6);
    expect(await metricValue(registry, 'ledger_audit_runs_total', { scope: 'full', outcome: 'complete' })).toBe(
      before + 1,
    );
    expect(await metricValue(registry, 'ledger_audit_mismatches', { scope: 'full', kind: 'BALANCE' })).toBe(2);
  });

  it("reports no mismatch while moves commit during the run (a disagreement is re-read up to the balance's own version)", async () => {
    const own = await connectTestDb('audit_concurrent');
    onTestFinished(() => own.close());
    const db = own.db;
    await ensureLedgerIndexes(db);
    await ensureWorkItemIndexes(db);
    await ensureAuditIndexes(db);
    const ledger = ledgerOn(db);
    const accounts = Array.from({ length: 8 }, (_, i) => `busy-${i}`);
    for (const id of accounts) await fundedAccount(ledger, id);
    const audit = new LedgerAudit(db, silent, { ...fast, settleMs: 3_600_000 }, createAuditTelemetry(new Registry()));
    let moving = true;
    const movers = accounts.map(async (accountId, m) => {
      for (let i = 0; moving; i++) await ledger.deposit({ accountId, amount: 1, requestId: `busy-${m}-${i}` });
    });
    try {
      for (let run = 0; run < 20; run++) {
        const result = await audit.runNow();
        expect(result.kind === 'finished' ? result.run.mismatches : result).toEqual([]);
      }
    } finally {
      moving = false;
      await Promise.all(movers);
    }
  });

  it('runs incrementally in its leased loop, and a requested run is queued to the holder, which runs it', async () => {
    const own = await connectTestDb('audit_loop');
    onTestFinished(() => own.close());
    const db = own.db;
    await ensureLedgerIndexes(db);
    await ensureWorkItemIndexes(db);
    await ensureAuditIndexes(db);
    await healthyLedger(db, 'y');
    const holder = new LedgerAudit(
      db,
      silent,
      { ...fast, holder: 'loop', incrementalPeriodMs: 100, incrementalMarginMs: 0, fullPeriodMs: 3_600_000 },
      createAuditTelemetry(new Registry()),
    );
    holder.start();
    onTestFinished(() => holder.stop());
    const runs = db.collection('ledger_audit_runs');
    await waitFor(async () => (await runs.countDocuments({ scope: 'full' })) === 1 || undefined, 'the first full run');

    // A corrupted balance on an account with a new entry: the next incremental run sees it.
    const ledger = ledgerOn(db);
    await db
      .collection(collectionNames.accounts)
      .updateOne({ _id: 'y-b' as never }, { $inc: { balance: Long.fromNumber(-3) } });
    expect((await ledger.deposit({ accountId: 'y-b', amount: 1, requestId: 'y-d' })).kind).toBe('depositSuccess');
    const found = await waitFor(
      async () => (await runs.findOne({ scope: 'incremental', mismatchCount: { $gt: 0 } })) ?? undefined,
      'an incremental run to report y-b',
    );
    expect(found['mismatches']).toEqual([
      { kind: 'BALANCE', accountId: 'y-b', subject: 'y-b', expected: 999_999_501, actual: 999_999_498 },
    ]);
    // Only the account with a new entry was checked (no margin here; in production it re-reads 5 minutes).
    expect(found['accountsChecked']).toBe(1);

    // Another process asks for a run while the loop holds the lease: queued, then run by the holder.
    const other = new LedgerAudit(db, silent, { ...fast, holder: 'other' }, createAuditTelemetry(new Registry()));
    const asked = await other.runNow();
    expect(asked.kind).toBe('queued');
    await waitFor(
      async () => (await runs.countDocuments({ scope: 'full' })) === 2 || undefined,
      'the requested full run',
    );
    await waitFor(
      async () => (await auditState(db).findOne({ _id: AUDIT_LEASE_NAME }))?.requestedAt === null || undefined,
      'the request to be cleared',
    );
  });

  it('serves ledgerAudit to dashboard and ops, and runLedgerAudit to admin only', async () => {
    const app = await startTestApp({
      startupTasks: (tasks) => tasks.filter((task) => task.name !== 'audit: ledger audit'),
    });
    onTestFinished(() => app.close());
    await ensureAuditIndexes(app.db);
    await fundedAccount(ledgerOn(app.db), 'g-a');
    await app.db
      .collection(collectionNames.accounts)
      .updateOne({ _id: 'g-a' as never }, { $inc: { balance: Long.fromNumber(11) } });

    const RUN =
      'mutation { runLedgerAudit { __typename ... on LedgerAuditFinished { audit { accountsChecked mismatchCount } } } }';
    for (const role of ['dashboard', 'ops', 'worker', 'service'] as const) {
      expect((await app.gql(RUN, {}, { key: role })).errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    }
    const ran = await app.gql(RUN, {}, { key: 'admin' });
    expect(ran.data?.runLedgerAudit).toMatchObject({ __typename: 'LedgerAuditFinished', audit: { mismatchCount: 1 } });

    const READ = '{ ledgerAudit { lastRunAt accountsChecked mismatches { accountId kind expected actual } } }';
    for (const role of ['dashboard', 'ops', 'admin'] as const) {
      const read = await app.gql(READ, {}, { key: role });
      expect(read.errors).toBeUndefined();
      expect(read.data?.ledgerAudit.mismatches).toEqual([
        { accountId: 'g-a', kind: 'BALANCE', expected: 1_000_000_000, actual: 1_000_000_011 },
      ]);
    }
    expect((await app.gql(READ, {}, { key: 'worker' })).errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });
});
