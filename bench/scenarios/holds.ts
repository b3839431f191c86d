// Holds: authorize then capture (part of the hold, the rest released) through the API at c=32, one
// operation being the pair; and the sweeper's cost per 10,000 expired holds, seeded in bulk in a
// database of its own (untimed: pending holds already past their expiry, their amounts in the
// accounts' `held`), then released by sweeper passes as the leased loop runs them.
import { Long, type Db } from 'mongodb';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import {
  collectionNames,
  createLedgerService,
  createLedgerTelemetry,
  ensureLedgerIndexes,
} from '../../src/ledger/index.ts';
import { HoldLimits } from '../../src/ledger/limits.ts';
import { outcomeLabel, sized } from '../context.ts';
import { AUTHORIZE_HOLD, CAPTURE_HOLD } from '../documents.ts';
import { fundAccounts } from '../fundAccounts.ts';
import { measure } from '../measure.ts';
import { atLeastOpsPerSecond, type Measured, type Target } from '../measured.ts';
import type { Scenario } from '../scenario.ts';

const PAIR_NAME = 'hold-authorize-capture-c32';
const CONCURRENCY = 32;
const ACCOUNTS = { full: 64, quick: 16 };
const OPS = { full: 2_000, quick: 32 };
const HOLD_MINOR = 10;
const CAPTURE_MINOR = 7;
const DURATION_MAX_MS = 60_000;
/** A card checkout's two phases: well below the payout peak, above transfers (two writes each). */
const TARGET_PAIRS_PER_SECOND = 100;

export const holdPairScenario: Scenario = {
  name: PAIR_NAME,
  describe: (mode) =>
    `${sized(mode, OPS)} authorize+capture pairs at c=${CONCURRENCY} over ${sized(mode, ACCOUNTS)} accounts`,
  async run(context) {
    const opsMax = sized(context.mode, OPS);
    const accounts = sized(context.mode, ACCOUNTS);
    const ids = await fundAccounts(context, PAIR_NAME, accounts, opsMax * HOLD_MINOR);
    const measured = await measure({
      name: PAIR_NAME,
      target: atLeastOpsPerSecond(
        TARGET_PAIRS_PER_SECOND,
        `≥ ${TARGET_PAIRS_PER_SECOND} authorize+capture pairs/s at c=${CONCURRENCY}`,
      ),
      plan: { concurrency: CONCURRENCY, opsMax, durationMaxMs: DURATION_MAX_MS },
      expected: 'CaptureHoldSuccess',
      async operation(i) {
        const key = `${context.runId}-${PAIR_NAME}-${i}`;
        const authorized = await context.pool.post(context.keys.service, AUTHORIZE_HOLD, {
          input: { requestId: `${key}-a`, accountId: ids[i % accounts], amount: HOLD_MINOR, expiresInSeconds: 600 },
        });
        const holdId = (authorized as { data?: { authorizeHold?: { hold?: { id?: string } } } }).data?.authorizeHold
          ?.hold?.id;
        if (holdId === undefined) return { label: outcomeLabel(authorized, 'authorizeHold') };
        const captured = await context.pool.post(context.keys.service, CAPTURE_HOLD, {
          input: { requestId: `${key}-c`, holdId, amount: CAPTURE_MINOR },
        });
        return { label: outcomeLabel(captured, 'captureHold') };
      },
    });
    // Every capture is a withdrawal of CAPTURE_MINOR: the bench's book checks the money afterwards.
    context.book.withdrawnMinor += measured.ops * CAPTURE_MINOR;
    return [measured];
  },
};

const SWEEP_NAME = 'hold-sweeper-10k';
const EXPIRED_HOLDS = { full: 10_000, quick: 100 };
const SWEEP_ACCOUNTS = 100;
const SECONDS_PER_10K_MAX = 30;

export const holdSweeperScenario: Scenario = {
  name: SWEEP_NAME,
  describe: (mode) =>
    `seed ${sized(mode, EXPIRED_HOLDS).toLocaleString('en')} expired holds (untimed), then sweep them all`,
  async run(context) {
    const db = context.db.client.db(`bench_holds_${context.runId}`);
    try {
      return [await sweep(db, sized(context.mode, EXPIRED_HOLDS))];
    } finally {
      await db.dropDatabase().catch(() => undefined);
    }
  },
};

async function sweep(db: Db, holds: number): Promise<Measured> {
  await ensureLedgerIndexes(db);
  await seedExpired(db, holds);
  const ledger = createLedgerService({
    db,
    telemetry: createLedgerTelemetry(new Registry(), pino({ level: 'error' })),
  });
  const startedMs = performance.now();
  const cpuBefore = process.cpuUsage();
  let released = 0;
  for (;;) {
    const pass = await ledger.sweepExpiredHolds(HoldLimits.sweepBatchMax);
    released += pass.expired;
    if (!pass.more) break;
  }
  const seconds = (performance.now() - startedMs) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const per10k = (seconds * 10_000) / holds;
  const cpuPer10k = ((cpu.user + cpu.system) / 1e6) * (10_000 / holds);
  const heldLeft = await db.collection(collectionNames.accounts).countDocuments({ held: { $ne: Long.fromNumber(0) } });
  const clean = released === holds && heldLeft === 0;
  const target: Target = {
    text: `≤ ${SECONDS_PER_10K_MAX} s per 10,000 expired holds, all released`,
    met: () => clean && per10k <= SECONDS_PER_10K_MAX,
  };
  return {
    name: SWEEP_NAME,
    ops: released,
    seconds,
    latenciesMs: new Float64Array(),
    errors: clean ? 0 : 1,
    target,
    note: `${per10k.toFixed(1)} s (CPU ${cpuPer10k.toFixed(1)} s) per 10,000 expired holds, ${heldLeft} accounts still holding`,
  };
}

/** Pending holds already past their expiry, spread over accounts whose `held` sums them. */
async function seedExpired(db: Db, holds: number): Promise<void> {
  const long = (n: number) => Long.fromNumber(n);
  const createdAt = new Date(Date.now() - 3_600_000);
  const expiresAt = new Date(Date.now() - 60_000);
  const perAccount = new Map<string, number>();
  const docs = Array.from({ length: holds }, (_, i) => {
    const accountId = `sweep-${i % SWEEP_ACCOUNTS}`;
    perAccount.set(accountId, (perAccount.get(accountId) ?? 0) + 1);
    return {
      _id: `hold_bench_${i}`,
      accountId,
      currency: 'EUR',
      amount: long(1),
      capturedAmount: long(0),
      status: 'PENDING',
      expiresAt,
      createdAt,
      authorizedBy: `sweep-auth-${i}`,
      resolvedBy: null,
      resolvedAt: null,
      capturedTo: null,
      change: null,
    };
  });
  for (let from = 0; from < docs.length; from += 1_000)
    await db
      .collection(collectionNames.holds)
      .insertMany(docs.slice(from, from + 1_000) as never[], { ordered: false });
  const accounts = [...perAccount].map(([id, count]) => ({
    _id: id,
    currency: 'EUR',
    balance: long(count),
    version: long(0),
    held: long(count),
    openedAt: createdAt,
  }));
  await db.collection(collectionNames.accounts).insertMany(accounts as never[], { ordered: false });
}
