// @module-tag processes
// The payout catch-up scales and survives its holder: it starts from the watermark less the
// margin (never from zero when a checkpoint exists), and a projection process killed (SIGKILL)
// halfway through a catch-up leaves its progress under the lease, from which the next holder
// resumes: it walks only what remained, and every withdrawal still gets exactly one payout.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Long, type Db } from 'mongodb';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { collectionNames } from '../../src/ledger/index.ts';
import { catchUpPayouts, catchUpStart } from '../../src/payouts/catchUp.ts';
import { createPayoutProjection, PAYOUT_LEASE_NAME } from '../../src/payouts/PayoutProjection.ts';
import { projectionLeases, type CatchUpProgress } from '../../src/payouts/lease.ts';
import { ensureWalkIndexes, journalForWalk } from '../../src/payouts/withdrawalWalk.ts';
import { createWorkService, createWorkTelemetry, ensureWorkItemIndexes, workItems } from '../../src/work/index.ts';
import { connectTestDb, type TestDb } from '../support/mongo.ts';
import { expectExactlyOnePayoutEach, metricValue, payoutsPerWithdrawal, upsertingWriter } from './support/payouts.ts';
import { waitFor } from '../support/waiting.ts';
import { Registry } from 'prom-client';
import { createStreamsTelemetry } from '../../src/fanout/telemetry.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const silent = pino({ level: 'silent' });

/** `count` withdrawal entries written straight to the journal, stamped 1 ms apart from `start`. */
async function seedWithdrawals(db: Db, prefix: string, count: number, start: Date): Promise<string[]> {
  const zero = Long.fromNumber(0);
  const docs = Array.from({ length: count }, (_, i) => ({
    _id: `${prefix}-${String(i).padStart(6, '0')}:debit`,
    requestId: `${prefix}-${i}`,
    accountId: `${prefix}-acct`,
    currency: 'EUR',
    kind: 'withdrawal',
    amount: Long.fromNumber(i + 1),
    balanceAfter: zero,
    versionAfter: Long.fromNumber(i + 1),
    counterpartyAccountId: null,
    createdAt: new Date(start.getTime() + i),
  }));
  await db.collection(collectionNames.entries).insertMany(docs as never[]);
  return docs.map((doc) => doc._id);
}

describe('payout catch-up', () => {
  let test: TestDb;
  beforeAll(async () => {
    test = await connectTestDb('streams_catch_up');
    await ensureWalkIndexes(test.db);
    await ensureWorkItemIndexes(test.db);
  });
  afterAll(async () => {
    await test?.close();
  });

  it('starts at the watermark less the margin: older withdrawals are not walked, newer missing payouts are made', async () => {
    const db = test.db;
    const marginMs = 60_000;
    const watermark = new Date(Date.UTC(2026, 5, 1));
    // Old withdrawals (well before the margin) have no payouts on purpose: a walk from zero would make them.
    await seedWithdrawals(db, 'wm-old', 30, new Date(watermark.getTime() - 10 * marginMs));
    const recent = await seedWithdrawals(db, 'wm-new', 12, new Date(watermark.getTime() - marginMs / 2));
    const work = createWorkService({ db, telemetry: createWorkTelemetry(new Registry(), silent) });
    const saved: CatchUpProgress[] = [];
    const start: CatchUpProgress = {
      reason: 'HISTORY_LOST',
      startToken: { _data: '00' },
      after: null,
      from: catchUpStart(watermark, marginMs),
    };
    const created = await catchUpPayouts(
      {
        entries: journalForWalk(db),
        sink: work,
        writePayout: upsertingWriter(db),
        saveProgress: async (progress) => (saved.push(structuredClone(progress)), true),
        limits: { batchMax: 5, pagesPerSliceMax: 2, pauseMs: 1 },
        signal: new AbortController().signal,
        logger: silent,
        telemetry: createStreamsTelemetry(new Registry()),
      },
      start,
    );
    expect(created).toBe(12);
    const { payouts } = await payoutsPerWithdrawal(db);
    expect([...payouts.keys()].sort()).toEqual(recent);
    // Progress was saved after every page, ending at the last withdrawal walked.
    expect(saved).toHaveLength(3);
    expect(saved.at(-1)!.after).toMatchObject({ id: recent.at(-1) });
  });

  it('resumes from the progress a killed process saved, walking only what remained', async () => {
    const own = await connectTestDb('streams_catch_up_kill');
    onTestFinished(() => own.close());
    const db = own.db;
    await ensureWalkIndexes(db);
    await ensureWorkItemIndexes(db);
    const ids = await seedWithdrawals(db, 'kill', 400, new Date(Date.UTC(2026, 6, 1)));
    const leases = projectionLeases(db);
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/payouts/support/catchUpChild.ts'], {
      cwd: ROOT,
      env: {
        PATH: process.env['PATH'] ?? '',
        HOME: process.env['HOME'] ?? '',
        CATCH_UP_MONGO_URI: own.uri,
        CATCH_UP_DB_NAME: own.dbName,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      // No checkpoint: the child walks from the beginning, 10 withdrawals a page, pausing between pages.
      await waitFor(
        async () => {
          const doc = await leases.findOne({ _id: PAYOUT_LEASE_NAME });
          return doc?.holder === 'doomed-child' && doc.catchUp?.after && doc.catchUp.after.id >= ids[100]!
            ? doc
            : undefined;
        },
        'the child to be a quarter through its catch-up',
        60_000,
      );
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
    const left = await leases.findOne({ _id: PAYOUT_LEASE_NAME });
    const savedAfter = left!.catchUp!.after!;
    expect(left!.catchUp!.reason).toBe('NO_CHECKPOINT');
    const remaining = ids.filter((id) => id > savedAfter.id).length;
    expect(remaining).toBeGreaterThan(0);
    expect(remaining).toBeLessThan(300);

    const registry = new Registry();
    const next = createPayoutProjection(
      {
        db,
        logger: silent,
        telemetry: createStreamsTelemetry(registry),
        work: createWorkService({ db, telemetry: createWorkTelemetry(registry, silent) }),
      },
      { holder: 'successor', leaseAcquireIntervalMs: 100 },
    );
    next.start();
    try {
      const counts = await waitFor(
        async () => {
          const doc = await leases.findOne({ _id: PAYOUT_LEASE_NAME });
          if (doc?.holder !== 'successor' || doc.catchUp !== null) return undefined;
          const found = await payoutsPerWithdrawal(db);
          return ids.every((id) => found.payouts.has(id)) ? found : undefined;
        },
        'the successor to finish the catch-up',
        60_000,
      );
      expectExactlyOnePayoutEach(counts);
    } finally {
      await next.stop();
    }
    expect(await metricValue(registry, 'payout_catch_up_resumed_total')).toBe(1);
    // Only what was left after the saved position was walked.
    expect(await metricValue(registry, 'payout_catch_up_scanned_total')).toBe(remaining);
    expect(await workItems(db).countDocuments({ kind: 'PAYOUT', 'payload.entryId': { $in: ids } })).toBe(400);
  });
});
