import { ObjectId, type Db } from 'mongodb';
import { acquireLease, heldBy, releaseLease, renewLeaseReadingNow, type Lease } from '../db/lease.ts';
import { holderOf, LeaseJob } from '../db/leaseJob.ts';
import { newProcessId } from '../db/processLiveness.ts';
import type { Logger } from '../observability/logger.ts';
import { auditReaders } from './checks.ts';
import { AuditLimits } from './limits.ts';
import {
  AUDIT_LEASE_NAME,
  auditRuns,
  auditState,
  MismatchKind,
  type AuditRunDoc,
  type AuditScope,
  type AuditStateDoc,
} from './model.ts';
import { runAudit, type RunLimits, type RunPlan } from './run.ts';
import type { AuditTelemetry } from './telemetry.ts';

export interface LedgerAuditOptions {
  holder?: string;
  leaseDurationMs?: number;
  tickIntervalMs?: number;
  incrementalPeriodMs?: number;
  fullPeriodMs?: number;
  settleMs?: number;
  incrementalMarginMs?: number;
  recheckDelayMs?: number;
  pageSizeMax?: number;
  pendingRequestMaxMs?: number;
}

export type RunNowResult = { kind: 'finished'; run: AuditRunDoc } | { kind: 'queued'; requestedAt: Date };

const KINDS = Object.values(MismatchKind);

/**
 * The continuous ledger audit. Every process runs the loop on the lease-job runner
 * (src/db/leaseJob.ts); the one holding the audit lease (database clock) runs what is due: an incremental run over the accounts and
 * entries stamped since the last one, and a full sweep on a slower period or when an operator
 * asks. Each finished run is recorded in `ledger_audit_runs`; every process shows the latest
 * ones in its metrics. It only reads the ledger's and the work items' collections.
 */
export class LedgerAudit {
  readonly #db: Db;
  readonly #logger: Logger;
  readonly #telemetry: AuditTelemetry;
  readonly #holder: string;
  readonly #settings;
  readonly #job: LeaseJob<AuditStateDoc>;
  /** One run at a time in this process (the loop's or an operator's). */
  #running: Promise<unknown> = Promise.resolve();

  /**
   * Built once per app by src/app/createApp.ts, which hands in the telemetry on the registry it
   * serves (a bench or a test hands in one on a registry of its own): registries are made by the
   * composition root only.
   */
  constructor(db: Db, logger: Logger, options: LedgerAuditOptions, telemetry: AuditTelemetry) {
    this.#db = db;
    this.#logger = logger;
    this.#telemetry = telemetry;
    this.#holder = options.holder ?? holderOf(newProcessId(), AUDIT_LEASE_NAME);
    this.#settings = {
      leaseDurationMs: options.leaseDurationMs ?? AuditLimits.leaseDurationMs,
      tickIntervalMs: options.tickIntervalMs ?? AuditLimits.tickIntervalMs,
      incrementalPeriodMs: options.incrementalPeriodMs ?? AuditLimits.incrementalPeriodMs,
      fullPeriodMs: options.fullPeriodMs ?? AuditLimits.fullPeriodMs,
      settleMs: options.settleMs ?? AuditLimits.settleMs,
      incrementalMarginMs: options.incrementalMarginMs ?? AuditLimits.incrementalMarginMs,
      limits: {
        pageSizeMax: options.pageSizeMax ?? AuditLimits.pageSizeMax,
        recheckDelayMs: options.recheckDelayMs ?? AuditLimits.recheckDelayMs,
        pendingRequestMaxMs: options.pendingRequestMaxMs ?? AuditLimits.pendingRequestMaxMs,
        mismatchesStoredMax: AuditLimits.mismatchesStoredMax,
      } satisfies RunLimits,
    };
    this.#job = new LeaseJob<AuditStateDoc>(
      {
        name: AUDIT_LEASE_NAME,
        leases: auditState(db),
        holder: this.#holder,
        leaseDurationMs: this.#settings.leaseDurationMs,
        intervalMs: this.#settings.tickIntervalMs,
        logger,
        telemetry: telemetry.leaseJobs,
      },
      {
        turn: ({ lease, signal }) => this.#turn(lease, signal),
        // Every process shows the latest runs, holder or not.
        tick: () => this.refreshMetrics(),
      },
    );
  }

  start(): void {
    this.#job.start();
  }

  /** Stops the loop within the lease job's grace: a run under way ends at its next page. */
  async stop(): Promise<void> {
    await this.#job.stop();
  }

  /** The latest finished run (of either scope), or null before the first. */
  async latest(): Promise<AuditRunDoc | null> {
    return auditRuns(this.#db).find({}).sort({ finishedAt: -1 }).limit(1).next();
  }

  /**
   * Asks for a full run now. When no process holds the lease, this one takes it, runs, and
   * returns the run; otherwise the holder runs it at its next tick and this returns `queued`.
   */
  async runNow(): Promise<RunNowResult> {
    const state = auditState(this.#db);
    const requested = await state.findOneAndUpdate({ _id: AUDIT_LEASE_NAME }, [{ $set: { requestedAt: '$$NOW' } }], {
      upsert: true,
      returnDocument: 'after',
    });
    const requestedAt = requested?.requestedAt as Date;
    const acquired = await acquireLease(state, AUDIT_LEASE_NAME, `${this.#holder}:now`, this.#settings.leaseDurationMs);
    if (!acquired) return { kind: 'queued', requestedAt };
    try {
      const run = await this.#exclusive(() => this.#runDue(acquired.lease, 'full'));
      // Lost the lease halfway: the request stays set, so the new holder runs it.
      return run ? { kind: 'finished', run } : { kind: 'queued', requestedAt };
    } finally {
      await releaseLease(state, acquired.lease).catch(() => undefined);
    }
  }

  /** Sets this process's gauges from the latest complete run of each scope. */
  async refreshMetrics(): Promise<void> {
    for (const scope of ['incremental', 'full'] as const) {
      const run = await auditRuns(this.#db).find({ scope }).sort({ finishedAt: -1 }).limit(1).next();
      if (run) this.#telemetry.showLatestRun(scope, run.finishedAt, run.mismatchCounts ?? {}, KINDS);
    }
  }

  /** One turn under the lease: the run that is due, if any. */
  async #turn(lease: Lease, signal: AbortSignal): Promise<'idle' | 'lost'> {
    const due = await this.#due(lease);
    if (due === 'lost') return 'lost';
    if (due !== null && (await this.#exclusive(() => this.#runDue(lease, due, signal))) === null) return 'lost';
    return 'idle';
  }

  async #exclusive<T>(work: () => Promise<T>): Promise<T> {
    const previous = this.#running;
    const next = previous.catch(() => undefined).then(work);
    this.#running = next.catch(() => undefined);
    return next;
  }

  /** Which run is due by the database clock (an operator's request or the full period first); 'lost' when the lease is gone. */
  async #due(lease: Lease): Promise<AuditScope | null | 'lost'> {
    const state = auditState(this.#db);
    const now = await renewLeaseReadingNow(state, lease, this.#settings.leaseDurationMs);
    if (now === null) return 'lost';
    const doc = await state.findOne({ _id: AUDIT_LEASE_NAME });
    if (!doc) return 'lost';
    if (doc.requestedAt || !doc.nextFullAt || doc.nextFullAt <= now) return 'full';
    if (!doc.nextIncrementalAt || doc.nextIncrementalAt <= now) return 'incremental';
    return null;
  }

  /** Runs one audit under `lease`; records and returns it, or null when the lease was lost. */
  async #runDue(lease: Lease, scope: AuditScope, signal?: AbortSignal): Promise<AuditRunDoc | null> {
    const state = auditState(this.#db);
    const { leaseDurationMs, settleMs, limits } = this.#settings;
    const now = await renewLeaseReadingNow(state, lease, leaseDurationMs);
    if (now === null) return null;
    const doc = await state.findOne({ _id: AUDIT_LEASE_NAME });
    const cursor = doc?.incrementalCursor ?? null;
    const plan: RunPlan = {
      scope,
      now,
      from:
        scope === 'full' || cursor === null ? null : new Date(cursor.getTime() - this.#settings.incrementalMarginMs),
      until: new Date(now.getTime() - settleMs),
    };
    const startedMs = Date.now();
    this.#logger.info({ scope, from: plan.from, until: plan.until }, 'ledger audit: run started');
    let findings;
    try {
      findings = await runAudit(
        {
          readers: auditReaders(this.#db),
          limits,
          stillHolding: async () =>
            !signal?.aborted && (await renewLeaseReadingNow(state, lease, leaseDurationMs)) !== null,
        },
        plan,
      );
    } catch (error) {
      this.#telemetry.runsTotal.inc({ scope, outcome: 'failed' });
      throw error;
    }
    if (findings === null) {
      this.#telemetry.runsTotal.inc({ scope, outcome: 'abandoned' });
      this.#logger.warn({ scope }, 'ledger audit: lease lost during the run; its findings are dropped');
      return null;
    }
    // The schedule moves on only under the lease; the request is cleared only if it came before this run.
    const scheduled = await state.updateOne(heldBy(lease), [
      {
        $set: {
          incrementalCursor: { $literal: plan.until },
          nextIncrementalAt: { $add: ['$$NOW', this.#settings.incrementalPeriodMs] },
          ...(scope === 'full'
            ? {
                nextFullAt: { $add: ['$$NOW', this.#settings.fullPeriodMs] },
                requestedAt: { $cond: [{ $lte: ['$requestedAt', { $literal: now }] }, null, '$requestedAt'] },
              }
            : {}),
        },
      },
    ]);
    if (scheduled.matchedCount !== 1) {
      this.#telemetry.runsTotal.inc({ scope, outcome: 'abandoned' });
      return null;
    }
    const run: AuditRunDoc = {
      _id: new ObjectId(),
      scope,
      startedAt: now,
      finishedAt: new Date(now.getTime() + (Date.now() - startedMs)),
      ...findings,
    };
    await auditRuns(this.#db).insertOne(run);
    await this.#prune();
    this.#telemetry.runsTotal.inc({ scope, outcome: 'complete' });
    this.#telemetry.runDurationSeconds.observe({ scope }, (Date.now() - startedMs) / 1000);
    this.#telemetry.showLatestRun(scope, run.finishedAt, run.mismatchCounts, KINDS);
    const log =
      findings.mismatchCount > 0 ? this.#logger.error.bind(this.#logger) : this.#logger.info.bind(this.#logger);
    log(
      {
        scope,
        accountsChecked: findings.accountsChecked,
        entriesChecked: findings.entriesChecked,
        mismatchCount: findings.mismatchCount,
        mismatches: findings.mismatches.slice(0, 10),
      },
      'ledger audit: run finished',
    );
    return run;
  }

  async #prune(): Promise<void> {
    const runs = auditRuns(this.#db);
    const oldest = await runs
      .find({}, { projection: { finishedAt: 1 } })
      .sort({ finishedAt: -1 })
      .skip(AuditLimits.runsKeptMax)
      .limit(1)
      .next();
    if (oldest) await runs.deleteMany({ finishedAt: { $lte: oldest.finishedAt } });
  }
}
