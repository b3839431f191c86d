import type { Collection } from 'mongodb';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { Logger } from 'pino';
import { createLeaseJobTelemetry, type LeaseJobTelemetry } from '../db/leaseJob.ts';
import type { TransactionRetryReason } from '../db/mongoErrors.ts';
import type { HoldDoc } from './holdModel.ts';
import type { RequestDoc } from './model.ts';

// Metrics and logs of the ledger. Every answer is counted by operation and outcome, so replays,
// key reuse, overdraft attempts and unknown outcomes are all visible on /metrics.

/** Why a move's transaction ran again under the same key (the one error table's reasons). */
export type RetryReason = TransactionRetryReason;

/** What a committed transaction carried: a lone move, a group commit, or a submitMoves batch. */
export type TransactionKind = 'lone' | 'group' | 'batch';

/** One series of `ledger_outcomes_total`: how many times `op` answered `outcome` (a result's `kind`). */
export interface OutcomeCount {
  op: string;
  outcome: string;
  count: number;
}

export interface LedgerTelemetry {
  /** The hold sweeper's lease metrics (src/db/leaseJob.ts). */
  leaseJobs: LeaseJobTelemetry;
  outcome(op: string, outcome: string): void;
  /** Every series of `ledger_outcomes_total` on this registry: the answers counted since it was made. */
  outcomeCounts(): Promise<OutcomeCount[]>;
  /** A move's transaction failed transiently and runs again under the same key. */
  retried(reason: RetryReason): void;
  /** A money-move transaction committed, carrying `moves` decided moves (its commit reply may yet be lost). */
  committed(kind: TransactionKind, moves: number): void;
  /** The hold sweeper released `count` expired holds. */
  holdsExpired(count: number): void;
  /** Where the pending-request gauges read from on each scrape (the last service wins). */
  countPendingIn(requests: Collection<RequestDoc>): void;
  /** Where the hold gauges read from on each scrape (the last service wins). */
  countHoldsIn(holds: Collection<HoldDoc>): void;
}

/** How long a gauge's read of the database is reused by later scrapes. */
const GAUGE_READ_REUSE_MS = 5_000;

/** `read`, run at most once per `ms`: calls meanwhile (and while it runs) share its answer. */
function reusedFor<T>(ms: number, read: () => Promise<T>): () => Promise<T> {
  let last: { atMs: number; value: Promise<T> } | null = null;
  return () => {
    if (last === null || Date.now() - last.atMs >= ms) {
      const value = read();
      last = { atMs: Date.now(), value };
      // A failed read is not reused: the next scrape asks again.
      value.catch(() => {
        if (last?.value === value) last = null;
      });
    }
    return last.value;
  };
}

/** Re-uses a metric already on the registry, so that several app instances can share one. */
function counterOn(registry: Registry, name: string, help: string, labelNames: string[]): Counter {
  const existing = registry.getSingleMetric(name);
  if (existing instanceof Counter) return existing;
  return new Counter({ name, help, labelNames, registers: [registry] });
}

function gaugeOn(
  registry: Registry,
  name: string,
  help: string,
  collect: (gauge: Gauge) => Promise<void>,
  labelNames: string[] = [],
): void {
  if (registry.getSingleMetric(name)) return;
  new Gauge({
    name,
    help,
    labelNames,
    registers: [registry],
    async collect() {
      await collect(this);
    },
  });
}

/**
 * Holds by status as readers see them (a pending hold past its expiry counts as EXPIRED_UNRELEASED
 * until the sweeper releases it), and the oldest pending hold's age, on the database clock.
 * Returns where the holds are read from, set once the collection is known.
 */
function holdGaugesOn(registry: Registry): { holds: Collection<HoldDoc> | null } {
  const holdSource: { holds: Collection<HoldDoc> | null } = { holds: null };
  // A `$group` over every hold: /metrics needs no key, so however often it is scraped the group
  // runs at most once per GAUGE_READ_REUSE_MS in a process, scrapes meanwhile sharing it (issue 41).
  const holdStatuses = reusedFor(GAUGE_READ_REUSE_MS, async () => {
    if (!holdSource.holds) return [];
    return holdSource.holds
      .aggregate<{ _id: string; count: number; oldest: Date | null; nowMs: number }>([
        {
          $group: {
            _id: {
              $cond: [
                { $and: [{ $eq: ['$status', 'PENDING'] }, { $lte: ['$expiresAt', '$$NOW'] }] },
                'EXPIRED_UNRELEASED',
                '$status',
              ],
            },
            count: { $sum: 1 },
            oldest: { $min: '$createdAt' },
          },
        },
        { $set: { ageMs: { $subtract: ['$$NOW', '$oldest'] } } },
      ])
      .toArray();
  });
  gaugeOn(
    registry,
    'ledger_holds',
    'Holds by status (EXPIRED_UNRELEASED: pending past expiresAt, not yet released by the sweeper).',
    async (gauge) => {
      gauge.reset();
      for (const row of await holdStatuses()) gauge.set({ status: row._id }, row.count);
    },
    ['status'],
  );
  gaugeOn(
    registry,
    'ledger_hold_oldest_pending_age_seconds',
    'Age of the oldest pending hold, on the database clock (0 when none).',
    async (gauge) => {
      const pendingRow = (await holdStatuses()).find((row) => row._id === 'PENDING') as { ageMs?: number } | undefined;
      gauge.set((pendingRow?.ageMs ?? 0) / 1_000);
    },
  );
  return holdSource;
}

export function createLedgerTelemetry(registry: Registry, logger: Logger): LedgerTelemetry {
  const outcomes = counterOn(
    registry,
    'ledger_outcomes_total',
    'Ledger mutation answers, by operation and result member.',
    ['op', 'outcome'],
  );
  const retries = counterOn(
    registry,
    'ledger_transaction_retries_total',
    'Money-move transactions run again under the same key, by reason (writeConflict: another move held the account or key).',
    ['reason'],
  );
  // Moves per transaction = moves ÷ transactions, by kind: how much group commit shares.
  const transactions = counterOn(
    registry,
    'ledger_transactions_total',
    'Money-move transactions committed, by kind (lone, group, batch).',
    ['kind'],
  );
  const transactionMoves = counterOn(
    registry,
    'ledger_transaction_moves_total',
    'Moves decided in committed money-move transactions, by kind.',
    ['kind'],
  );
  const expiredHolds = counterOn(
    registry,
    'ledger_holds_expired_total',
    'Holds the sweeper released past their expiry (database clock).',
    [],
  );
  const log = logger.child({ component: 'ledger' });
  const source: { requests: Collection<RequestDoc> | null } = { requests: null };
  // A move inserts its request already decided, in its transaction, so both gauges stay 0: they
  // are computed from the database on each scrape (on its clock, $$NOW) to show it, not assumed.
  const pending = async () => {
    if (!source.requests) return { count: 0, oldestAgeMs: 0 };
    const [row] = await source.requests
      .aggregate<{ count: number; oldestAgeMs: number }>([
        { $match: { status: 'pending' } },
        { $group: { _id: null, count: { $sum: 1 }, oldest: { $min: '$firstSeenAt' } } },
        { $project: { _id: 0, count: 1, oldestAgeMs: { $subtract: ['$$NOW', '$oldest'] } } },
      ])
      .toArray();
    return row ?? { count: 0, oldestAgeMs: 0 };
  };
  gaugeOn(
    registry,
    'ledger_requests_pending',
    'Ledger requests not yet decided (0 by design: a request is written decided).',
    async (gauge) => {
      gauge.set((await pending()).count);
    },
  );
  gaugeOn(
    registry,
    'ledger_request_oldest_pending_age_seconds',
    'Age of the oldest undecided ledger request, on the database clock (0 when none).',
    async (gauge) => {
      gauge.set((await pending()).oldestAgeMs / 1_000);
    },
  );
  const holdSource = holdGaugesOn(registry);
  return {
    leaseJobs: createLeaseJobTelemetry(registry),
    countHoldsIn(holds) {
      holdSource.holds = holds;
    },
    outcome: (op, outcome) => outcomes.inc({ op, outcome }),
    async outcomeCounts() {
      const { values } = await outcomes.get();
      return values.map((value) => ({
        op: String(value.labels['op']),
        outcome: String(value.labels['outcome']),
        count: value.value,
      }));
    },
    retried(reason) {
      retries.inc({ reason });
      if (reason !== 'writeConflict') log.warn({ reason }, 'ledger move retried under the same key');
    },
    committed(kind, moves) {
      transactions.inc({ kind });
      transactionMoves.inc({ kind }, moves);
    },
    holdsExpired(count) {
      expiredHolds.inc(count);
    },
    countPendingIn(requests) {
      source.requests = requests;
    },
  };
}
