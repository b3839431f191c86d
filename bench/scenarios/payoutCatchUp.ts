// The payout projection's catch-up after change-stream history is lost, at scale: a journal of
// 1,000,000 withdrawal entries, of which the last 1,000 have no payout (the stream lost them), in
// a database of its own. The entries and the 999,000 payouts are seeded in bulk straight into the
// database (untimed); then the catch-up runs as the projection runs it (under the lease, saving
// its progress after each page) from the watermark of the last payout made. Measured: the time,
// the entries walked (the 1,000 plus the 5-minute margin's worth at the seeded rate of 200
// withdrawals/s, the back office's peak), and the heap it grew by.
import { Long, type Db } from 'mongodb';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { catchUpPayouts, catchUpStart } from '../../src/payouts/catchUp.ts';
import { acquireProjectionLease, projectionLeases, storeCatchUp } from '../../src/payouts/lease.ts';
import { ensureWalkIndexes, journalForWalk } from '../../src/payouts/withdrawalWalk.ts';
import { ProjectionLimits } from '../../src/payouts/limits.ts';
import { createStreamsTelemetry } from '../../src/fanout/telemetry.ts';
import { collectionNames } from '../../src/ledger/index.ts';
import { createWorkService, createWorkTelemetry, ensureWorkItemIndexes, workItems } from '../../src/work/index.ts';
import { sized } from '../context.ts';
import type { Measured, Target } from '../measured.ts';
import type { Scenario } from '../scenario.ts';

const NAME = 'payout-catch-up';
const ENTRIES = { full: 1_000_000, quick: 1_000 };
const MISSING = { full: 1_000, quick: 100 };
/** 200 withdrawals/s, the peak the other scenarios target. */
const ENTRY_SPACING_MS = 5;
const SEED_BATCH = 10_000;
const CATCH_UP_MAX_SECONDS = 30;
const HEAP_GROWTH_MB_MAX = 128;

export const payoutCatchUpScenario: Scenario = {
  name: NAME,
  describe: (mode) =>
    `seed ${sized(mode, ENTRIES).toLocaleString('en')} withdrawal entries and their payouts but the last ${sized(mode, MISSING).toLocaleString('en')} (untimed), then catch up from the watermark`,
  async run(context) {
    const db = context.db.client.db(`bench_catchup_${context.runId}`);
    try {
      return [await measure(db, sized(context.mode, ENTRIES), sized(context.mode, MISSING))];
    } finally {
      await db.dropDatabase().catch(() => undefined);
    }
  },
};

async function measure(db: Db, entries: number, missing: number): Promise<Measured> {
  await ensureWalkIndexes(db);
  await ensureWorkItemIndexes(db);
  const seedStartMs = Date.now();
  const start = Date.now() - entries * ENTRY_SPACING_MS - 60_000;
  const entryAt = (i: number) => new Date(start + i * ENTRY_SPACING_MS);
  const entryId = (i: number) => `catchup-${String(i).padStart(7, '0')}:debit`;
  await seed(db, entries, missing, entryAt, entryId);
  const seedSeconds = (Date.now() - seedStartMs) / 1000;

  const leases = projectionLeases(db);
  const acquired = await acquireProjectionLease(leases, 'payoutProjection', 'bench', 60_000);
  if (!acquired) throw new Error('catch-up bench: the lease of a fresh database is held');
  const watermark = entryAt(entries - missing - 1);
  const logger = pino({ level: 'error' });
  const work = createWorkService({ db, telemetry: createWorkTelemetry(new Registry(), logger) });
  let walked = 0;
  let heapPeak = 0;
  global.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const sampler = setInterval(() => (heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed)), 50);
  const startedMs = performance.now();
  const cpuBefore = process.cpuUsage();
  const created = await catchUpPayouts(
    {
      entries: journalForWalk(db),
      sink: work,
      writePayout: work.createPayout,
      saveProgress: async (progress) => {
        walked = progress.after ? Number(progress.after.id.slice('catchup-'.length, -':debit'.length)) + 1 : walked;
        return storeCatchUp(leases, acquired.lease, 60_000, progress);
      },
      limits: {
        batchMax: ProjectionLimits.catchUpBatchMax,
        pagesPerSliceMax: ProjectionLimits.catchUpPagesPerSliceMax,
        pauseMs: ProjectionLimits.catchUpPauseMs,
      },
      signal: new AbortController().signal,
      logger,
      telemetry: createStreamsTelemetry(new Registry()),
    },
    {
      reason: 'HISTORY_LOST',
      startToken: { _data: 'bench' },
      after: null,
      from: catchUpStart(watermark, ProjectionLimits.catchUpMarginMs),
    },
  );
  const seconds = (performance.now() - startedMs) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  clearInterval(sampler);
  const heapGrowthMb = Math.max(0, heapPeak - heapBefore) / 2 ** 20;
  const firstWalked = Math.max(
    0,
    Math.ceil((watermark.getTime() - ProjectionLimits.catchUpMarginMs - start) / ENTRY_SPACING_MS),
  );
  const payouts = await workItems(db).countDocuments({ kind: 'PAYOUT' });
  const complete = created === missing && payouts === entries;
  const target: Target = {
    text: `${entries.toLocaleString('en')} entries, ${missing.toLocaleString('en')} missing: all made, ≤ ${CATCH_UP_MAX_SECONDS} s, heap ≤ +${HEAP_GROWTH_MB_MAX} MB`,
    met: () => complete && seconds <= CATCH_UP_MAX_SECONDS && heapGrowthMb <= HEAP_GROWTH_MB_MAX,
  };
  return {
    name: NAME,
    ops: created ?? 0,
    seconds,
    latenciesMs: new Float64Array(),
    errors: complete ? 0 : 1,
    target,
    note: `CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s, walked ${(walked - firstWalked).toLocaleString('en')} of ${entries.toLocaleString('en')} entries, heap +${heapGrowthMb.toFixed(0)} MB, payouts ${payouts.toLocaleString('en')}, seeded in ${seedSeconds.toFixed(0)} s`,
  };
}

/** Bulk inserts: every entry, and a payout (as the work service shapes it) for all but the last `missing`. */
async function seed(
  db: Db,
  entries: number,
  missing: number,
  entryAt: (i: number) => Date,
  entryId: (i: number) => string,
): Promise<void> {
  const zero = Long.fromNumber(0);
  for (let from = 0; from < entries; from += SEED_BATCH) {
    const to = Math.min(entries, from + SEED_BATCH);
    const docs = [];
    const items = [];
    for (let i = from; i < to; i++) {
      const id = entryId(i);
      const createdAt = entryAt(i);
      docs.push({
        _id: id,
        requestId: `catchup-${i}`,
        accountId: `catchup-acct-${i % 1_000}`,
        currency: 'EUR',
        kind: 'withdrawal',
        amount: Long.fromNumber(1 + (i % 100)),
        balanceAfter: zero,
        versionAfter: Long.fromNumber(i + 1),
        counterpartyAccountId: null,
        createdAt,
      });
      if (i < entries - missing) {
        // The fields the work items' indexes and the catch-up's lookup read; the rest of a real
        // item (history, lease fields) only costs the seeding memory.
        items.push({
          idempotencyKey: `payout:${id}`,
          kind: 'PAYOUT',
          payload: { entryId: id },
          status: 'PENDING',
          version: 1,
          availableAt: createdAt,
          createdAt,
        });
      }
    }
    await db.collection(collectionNames.entries).insertMany(docs as never[], { ordered: false });
    if (items.length > 0) await workItems(db).insertMany(items as never[], { ordered: false });
  }
}
