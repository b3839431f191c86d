import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ChangeStream, Db, Document } from 'mongodb';
import { isChangeStreamHistoryLost } from '../../db/mongoErrors.ts';
import { collectionNames, createLedgerService, createLedgerTelemetry } from '../../ledger/index.ts';
import type { Logger } from '../../observability/logger.ts';
import { metricsRegistry } from '../../observability/metrics.ts';
import { createWorkService, createWorkTelemetry } from '../../work/index.ts';
import { InvalidatedError } from '../InvalidatedError.ts';
import { backoffMs, FeedLimits, ProjectionLimits } from '../limits.ts';
import { asResumeToken, type ResumeToken } from '../resumeCursor.ts';
import {
  changeStreamsOpen,
  payoutProjectionEventsTotal,
  payoutProjectionLagSeconds,
  payoutProjectionLeaseHeld,
  payoutProjectionState,
} from '../telemetry.ts';
import { acquireLease, projectionLeases, releaseLease, renewLease, storeResumeToken, type Lease } from './lease.ts';
import { payoutOfInsert, WITHDRAWAL_INSERTS, type PayoutWriter } from './payouts.ts';
import { reconcilePayouts, type ReconcileDeps, type ReconcileReason } from './reconcile.ts';

export const PAYOUT_LEASE_NAME = 'payoutProjection';

export interface PayoutProjectionOptions {
  /** Names this process in the lease document; random per start by default. */
  holder?: string;
  leaseDurationMs?: number;
  leaseRenewIntervalMs?: number;
  leaseAcquireIntervalMs?: number;
  /**
   * Test-only: replaces the upsert on `payout:<entryId>`, so a meta-test can prove P1 fails
   * without the unique key, and a fault test can crash between the payout and the token write.
   * Refused outside vitest.
   */
  payoutWriterForTest?: PayoutWriter;
}

type Ended = 'stopped' | 'leaseLost';

/** What /readyz and the metrics show of the projection. It never gives up: `retrying` backs off and tries again. */
export interface ProjectionStatus {
  state: 'starting' | 'projecting' | 'standby' | 'retrying' | 'stopped';
  consecutiveFailures: number;
  lastError: string | null;
}

const PROJECTION_STATES = ['starting', 'projecting', 'standby', 'retrying', 'stopped'] as const;

/**
 * Turns every applied withdrawal into exactly one PAYOUT work item (P1). One process at a time
 * holds the lease; it reads the entries' change stream from its stored token (S3), writes each
 * payout through the work service's upsert on the unique `payout:<entryId>` key, then stores the
 * event's token under its lease version: at-least-once, and a replay is a no-op. When history is
 * lost, or there is no token yet, it opens a stream from now first, then reconciles by an indexed
 * query, then reads the stream (S4): nothing committed before or after the gap is missed.
 */
export class PayoutProjection {
  readonly #leases;
  readonly #holder: string;
  readonly #durations;
  readonly #deps: Omit<ReconcileDeps, 'stillHolding'>;
  readonly #stop = new AbortController();
  #stream: ChangeStream | null = null;
  #loop: Promise<void> = Promise.resolve();
  #status: ProjectionStatus = { state: 'starting', consecutiveFailures: 0, lastError: null };

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    options: PayoutProjectionOptions = {},
  ) {
    if (options.payoutWriterForTest !== undefined && process.env['VITEST'] !== 'true') {
      throw new Error('payoutWriterForTest is for the test suite only');
    }
    this.#leases = projectionLeases(db);
    this.#holder = options.holder ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
    this.#durations = {
      leaseMs: options.leaseDurationMs ?? ProjectionLimits.leaseDurationMs,
      renewMs: options.leaseRenewIntervalMs ?? ProjectionLimits.leaseRenewIntervalMs,
      acquireMs: options.leaseAcquireIntervalMs ?? ProjectionLimits.leaseAcquireIntervalMs,
    };
    const work = createWorkService({ db, telemetry: createWorkTelemetry(metricsRegistry, logger) });
    const ledger = createLedgerService({ db, telemetry: createLedgerTelemetry(metricsRegistry, logger) });
    this.#deps = { ledger, work, writePayout: options.payoutWriterForTest ?? work.createPayout, logger };
  }

  get holder(): string {
    return this.#holder;
  }

  get status(): ProjectionStatus {
    return { ...this.#status };
  }

  #setState(state: ProjectionStatus['state'], error?: unknown): void {
    const failing = error !== undefined;
    this.#status = {
      state,
      consecutiveFailures: failing ? this.#status.consecutiveFailures + 1 : 0,
      lastError: failing ? (error instanceof Error ? error.message : String(error)) : null,
    };
    for (const each of PROJECTION_STATES) payoutProjectionState.set({ state: each }, each === state ? 1 : 0);
  }

  start(): void {
    this.#loop = this.#run();
  }

  /** Stops projecting and hands the lease back so another process takes over at once. */
  async stop(): Promise<void> {
    this.#stop.abort();
    await this.#closeStream();
    await this.#loop;
    this.#setState('stopped');
  }

  get #stopped(): boolean {
    return this.#stop.signal.aborted;
  }

  async #run(): Promise<void> {
    while (!this.#stopped) {
      const acquired = await acquireLease(this.#leases, PAYOUT_LEASE_NAME, this.#holder, this.#durations.leaseMs).catch((error: unknown) => {
        this.logger.warn({ err: error }, 'payout projection: taking the lease failed');
        this.#setState('retrying', error);
        return undefined;
      });
      if (acquired) await this.#hold(acquired.lease, acquired.resumeToken);
      else if (acquired === null) this.#setState('standby');
      await this.#pause(this.#durations.acquireMs);
    }
  }

  async #hold(lease: Lease, storedToken: ResumeToken | null): Promise<void> {
    this.logger.info({ holder: lease.holder, version: lease.version }, 'payout projection: lease taken');
    payoutProjectionLeaseHeld.set(1);
    try {
      const ended = await this.#projectWhileHolding(lease, storedToken);
      this.logger.info({ holder: lease.holder, version: lease.version, ended }, 'payout projection: stopped projecting');
    } finally {
      payoutProjectionLeaseHeld.set(0);
      await releaseLease(this.#leases, lease).catch(() => undefined);
    }
  }

  async #projectWhileHolding(lease: Lease, storedToken: ResumeToken | null): Promise<Ended | 'failing'> {
    const at: { position: ResumeToken | null; reconcile: ReconcileReason | null } = {
      position: storedToken,
      reconcile: storedToken ? null : 'NO_CHECKPOINT',
    };
    for (let failures = 1; failures <= ProjectionLimits.streamFailuresMax; failures++) {
      const positionBefore = at.position;
      try {
        return await this.#project(lease, at);
      } catch (error) {
        if (this.#stopped) return 'stopped';
        if (at.position !== positionBefore) failures = 1; // progress was made: count afresh
        if (isChangeStreamHistoryLost(error)) at.reconcile = 'HISTORY_LOST';
        else if (error instanceof InvalidatedError) at.reconcile = 'INVALIDATED';
        this.#setState('retrying', error);
        this.logger.warn({ err: error, failures }, 'payout projection: stream failed; reopening');
        await this.#closeStream();
        await this.#pause(backoffMs(failures, FeedLimits.reopenBackoffBaseMs, FeedLimits.reopenBackoffMaxMs));
      }
    }
    this.logger.error({ failuresMax: ProjectionLimits.streamFailuresMax }, 'payout projection: giving the lease up after repeated failures');
    return 'failing';
  }

  // One stream's life: open (from the position, or from now plus a reconciliation), then handle
  // events one by one, storing the position after each under the lease.
  async #project(lease: Lease, at: { position: ResumeToken | null; reconcile: ReconcileReason | null }): Promise<Ended> {
    const reconcile = at.reconcile;
    const stream = this.#openStream(reconcile ? null : at.position);
    try {
      return await this.#read(lease, stream, at, reconcile);
    } finally {
      await this.#closeStream();
    }
  }

  async #read(
    lease: Lease,
    stream: ChangeStream,
    at: { position: ResumeToken | null; reconcile: ReconcileReason | null },
    reconcile: ReconcileReason | null,
  ): Promise<Ended> {
    const stillHolding = () => renewLease(this.#leases, lease, this.#durations.leaseMs);
    let change: Document | null = await stream.tryNext();
    this.#setState('projecting');
    if (reconcile) {
      // The stream is established before the walk, so whatever the walk misses, it reads.
      const startToken = asResumeToken(stream.resumeToken);
      if ((await reconcilePayouts({ ...this.#deps, stillHolding }, reconcile)) === null) return 'leaseLost';
      if (!(await storeResumeToken(this.#leases, lease, startToken))) return 'leaseLost';
      at.position = startToken;
      at.reconcile = null;
    }
    let renewedAtMs = Date.now();
    while (!this.#stopped) {
      if (change) {
        await this.#handle(change);
        const token = asResumeToken(change['_id']);
        if (!(await storeResumeToken(this.#leases, lease, token))) return 'leaseLost';
        at.position = token;
      } else if (stream.closed) {
        if (this.#stopped) break;
        throw new InvalidatedError();
      }
      if (Date.now() - renewedAtMs >= this.#durations.renewMs) {
        // Renewing also stores the idle position, so a quiet projection's token stays in the oplog window.
        const token = asResumeToken(stream.resumeToken);
        if (!(await renewLease(this.#leases, lease, this.#durations.leaseMs, token))) return 'leaseLost';
        at.position = token;
        renewedAtMs = Date.now();
      }
      change = await stream.tryNext();
    }
    return 'stopped';
  }

  async #handle(change: Document): Promise<void> {
    const { created } = await this.#deps.writePayout(payoutOfInsert(change));
    payoutProjectionEventsTotal.inc({ outcome: created ? 'created' : 'replayed' });
    const wallTime = change['wallTime'];
    if (wallTime instanceof Date) payoutProjectionLagSeconds.set(Math.max(0, Date.now() - wallTime.getTime()) / 1000);
  }

  #openStream(resumeAfter: ResumeToken | null): ChangeStream {
    this.#stream = this.db.collection(collectionNames.entries).watch(WITHDRAWAL_INSERTS, {
      maxAwaitTimeMS: FeedLimits.awaitTimeMs,
      ...(resumeAfter ? { resumeAfter } : {}),
    });
    changeStreamsOpen.inc({ collection: collectionNames.entries, purpose: 'projection' });
    return this.#stream;
  }

  async #closeStream(): Promise<void> {
    const stream = this.#stream;
    this.#stream = null;
    if (!stream) return;
    changeStreamsOpen.dec({ collection: collectionNames.entries, purpose: 'projection' });
    await stream.close().catch(() => undefined);
  }

  async #pause(ms: number): Promise<void> {
    await sleep(ms, undefined, { signal: this.#stop.signal }).catch(() => undefined);
  }
}
