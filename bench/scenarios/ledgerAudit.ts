// The ledger audit's cost: a full run over 10,000 accounts of 10 entries each (4 deposits,
// 4 withdrawals with their payouts, one transfer out and one in), seeded consistent in bulk in a
// database of its own (untimed), then audited once as `runLedgerAudit` does. The line reports
// the run's time per 10,000 accounts; it must find no mismatch.
import { Long, type Db } from 'mongodb';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { createAuditTelemetry, ensureAuditIndexes, LedgerAudit } from '../../src/audit/index.ts';
import { collectionNames, ensureLedgerIndexes } from '../../src/ledger/index.ts';
import { ensureWorkItemIndexes, workItems } from '../../src/work/index.ts';
import { sized } from '../context.ts';
import type { Measured, Target } from '../measured.ts';
import type { Scenario } from '../scenario.ts';

const NAME = 'ledger-audit-full';
const ACCOUNTS = { full: 10_000, quick: 50 };
const SEED_BATCH_ACCOUNTS = 1_000;
const SECONDS_PER_10K_ACCOUNTS_MAX = 60;

export const ledgerAuditScenario: Scenario = {
  name: NAME,
  describe: (mode) =>
    `seed ${sized(mode, ACCOUNTS).toLocaleString('en')} accounts with 10 entries each (untimed), then one full audit`,
  async run(context) {
    const db = context.db.client.db(`bench_audit_${context.runId}`);
    try {
      return [await measure(db, sized(context.mode, ACCOUNTS))];
    } finally {
      await db.dropDatabase().catch(() => undefined);
    }
  },
};

async function measure(db: Db, accounts: number): Promise<Measured> {
  await ensureLedgerIndexes(db);
  await ensureWorkItemIndexes(db);
  await ensureAuditIndexes(db);
  await seed(db, accounts);
  const audit = new LedgerAudit(
    db,
    pino({ level: 'error' }),
    { recheckDelayMs: 0 },
    createAuditTelemetry(new Registry()),
  );
  const startedMs = performance.now();
  const cpuBefore = process.cpuUsage();
  const result = await audit.runNow();
  const seconds = (performance.now() - startedMs) / 1000;
  // CPU of this process (the API's code and, on the emulator, the database's), steadier than wall time on a shared machine.
  const cpu = process.cpuUsage(cpuBefore);
  const cpuPer10k = ((cpu.user + cpu.system) / 1e6) * (10_000 / accounts);
  const run = result.kind === 'finished' ? result.run : null;
  const clean = run !== null && run.mismatchCount === 0 && run.accountsChecked === accounts;
  const per10k = (seconds * 10_000) / accounts;
  const target: Target = {
    text: `full audit ≤ ${SECONDS_PER_10K_ACCOUNTS_MAX} s per 10,000 accounts, no mismatch`,
    met: () => clean && per10k <= SECONDS_PER_10K_ACCOUNTS_MAX,
  };
  return {
    name: NAME,
    ops: run?.accountsChecked ?? 0,
    seconds,
    latenciesMs: new Float64Array(),
    errors: clean ? 0 : 1,
    target,
    note: `${per10k.toFixed(1)} s (CPU ${cpuPer10k.toFixed(1)} s) per 10,000 accounts, ${run?.entriesChecked ?? 0} legs checked, mismatches ${run?.mismatchCount ?? 'n/a'}`,
  };
}

async function seed(db: Db, accounts: number): Promise<void> {
  const long = (n: number) => Long.fromNumber(n);
  const createdAt = new Date(Date.now() - 10 * 60_000);
  for (let from = 0; from < accounts; from += SEED_BATCH_ACCOUNTS) {
    const accountDocs = [];
    const entries: Record<string, unknown>[] = [];
    const items = [];
    for (let i = from; i < Math.min(accounts, from + SEED_BATCH_ACCOUNTS); i++) {
      const id = `audit-${i}`;
      let version = 0;
      let balance = 0;
      const entry = (key: string, kind: string, amount: number, counterparty: string | null, requestId = key) => {
        balance += kind === 'deposit' || kind === 'transferIn' ? amount : -amount;
        version++;
        const leg = kind === 'transferIn' ? 'credit' : kind === 'deposit' ? 'credit' : 'debit';
        const entryId = `${requestId}:${leg}`;
        entries.push({
          _id: entryId,
          requestId,
          accountId: id,
          currency: 'EUR',
          kind,
          amount: long(amount),
          balanceAfter: long(balance),
          versionAfter: long(version),
          counterpartyAccountId: counterparty,
          createdAt,
        });
        return entryId;
      };
      for (let d = 0; d < 4; d++) entry(`${id}-d${d}`, 'deposit', 1_000, null);
      for (let w = 0; w < 4; w++) {
        const entryId = entry(`${id}-w${w}`, 'withdrawal', 100, null);
        items.push({
          idempotencyKey: `payout:${entryId}`,
          kind: 'PAYOUT',
          payload: { entryId },
          status: 'PENDING',
          version: 1,
          availableAt: createdAt,
          createdAt,
          updatedAt: createdAt,
        });
      }
      entry(`${id}-t`, 'transferOut', 50, `audit-${(i + 1) % accounts}`);
      entry(`audit-${(i + accounts - 1) % accounts}-t`, 'transferIn', 50, `audit-${(i + accounts - 1) % accounts}`);
      accountDocs.push({
        _id: id,
        currency: 'EUR',
        balance: long(balance),
        version: long(version),
        openedAt: createdAt,
      });
    }
    await db.collection(collectionNames.accounts).insertMany(accountDocs as never[], { ordered: false });
    await db.collection(collectionNames.entries).insertMany(entries as never[], { ordered: false });
    await workItems(db).insertMany(items as never[], { ordered: false });
  }
}
