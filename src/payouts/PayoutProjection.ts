import { inSpan, linksTo } from '../observability/tracing.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Db, Document } from 'mongodb';
import { collectionNames } from '../ledger/index.ts';
import type { Logger } from '../observability/logger.ts';
import type { WorkService } from '../work/index.ts';
import { ChangeStreamLimits } from '../changeStreams/limits.ts';
import { ProjectionLimits } from './limits.ts';
import {
  BATCH_CHANGES_MAX,
  ResumableStream,
  StreamStart,
  type StreamSource,
} from '../changeStreams/resumableStream.ts';
import { asResumeToken, type ResumeToken } from '../changeStreams/resumeCursor.ts';
import type { StreamsTelemetry } from '../fanout/telemetry.ts';
import { catchUpPayouts, catchUpStart, type CatchUpDeps, type CatchUpLimits, type ReconcileReason } from './catchUp.ts';
import type { Lease } from '../db/lease.ts';
import { type HeldLease, holderOf, LeaseJob, type TurnEnd } from '../db/leaseJob.ts';
import { newProcessId } from '../db/processLiveness.ts';
import {
  type LeaseDoc,
  projectionLeases,
  renewProjectionLease,
  storeCatchUp,
  storeResumeToken,
  type CatchUpProgress,
} from './lease.ts';
import { oneByOne, payoutOfInsert, WITHDRAWAL_INSERTS, type PayoutsWriter, type PayoutWriter } from './payoutWriter.ts';
import { journalForWalk } from './withdrawalWalk.ts';
import { workItemsSink, type PayoutSink } from './sink.ts';

export const PAYOUT_LEASE_NAME = 'payoutProjection';

export interface PayoutProjectionOptions {
  /** Names this process in the lease document: the app's process id (src/app/createApp.ts); a new one by default. */
  holder?: string;
  leaseDurationMs?: number;
  leaseRenewIntervalMs?: number;
  leaseAcquireIntervalMs?: number;
  /** ProjectionLimits.batchGatherMs by default. */
  batchGatherMs?: number;
  /** Bounds of the catch-up walk (ProjectionLimits by default). */
  catchUp?: Partial<CatchUpLimits>;
}

/** What the projection is built from (src/app/createApp.ts): the app's one work service and the change streams' telemetry (src/fanout/telemetry.ts). */
export interface PayoutProjectionDeps {
  db: Db;
  logger: Logger;
  telemetry: StreamsTelemetry;
  work: WorkService;
  /** Where payouts go (PAYOUT_QUEUE); work items through `work` by default. */
  sink?: PayoutSink;
}

/** The app's payout projection: payouts handed to its sink, work items (the upsert on `payout:<entryId>`) by default. */
export function createPayoutProjection(
  deps: PayoutProjectionDeps,
  options: PayoutProjectionOptions = {},
): PayoutProjection {
  const sink = deps.sink ?? workItemsSink(deps.work);
  return new PayoutProjection(
    { ...deps, sink, writePayout: sink.writePayout, writePayouts: sink.writePayouts },
    options,
  );
}

type Ended = 'stopped' | 'leaseLost';

/** Where the holder stands: its stream position, the watermark, and a catch-up that is due or under way. */
interface Position {
  position: ResumeToken | null;
  reconcile: ReconcileReason | null;
  watermark: Date | null;
  catchUp: CatchUpProgress | null;
}

/** What /readyz and the metrics show of the projection. It never gives up: `retrying` backs off and tries again. */
export interface ProjectionStatus {
  state: 'starting' | 'projecting' | 'standby' | 'retrying' | 'stopped';
  consecutiveFailures: number;
  lastError: string | null;
}

const PROJECTION_STATES = ['starting', 'projecting', 'standby', 'retrying', 'stopped'] as const;

/**
 * Turns every applied withdrawal into exactly one payout (P1): a PAYOUT work item, or a BullMQ job
 * with PAYOUT_QUEUE=bullmq (its sink, src/payouts/sink.ts). One process at a time
 * holds the lease; it reads the entries' change stream from its stored token (S3), hands the
 * payouts of the events at hand to the sink (work items: the work service's upsert on the unique
 * `payout:<entryId>` key, one bulk write), then stores the last event's token under its lease
 * version: at-least-once, and a replay is a no-op. When history is
 * lost, or there is no token yet, it opens a stream from now first, then catches up by an indexed
 * walk from its watermark less a margin (src/payouts/catchUp.ts), saving the walk's
 * progress under the lease so that a new holder resumes it, then reads the stream (S4): nothing
 * committed before or after the gap is missed. The stream's lifecycle (open, reopen with backoff,
 * history loss) is a ResumableStream's; the lease decides where it reopens and when to give up.
 */
export class PayoutProjection {
  readonly #leases;
  readonly #holder: string;
  readonly #durations;
  readonly #deps: Omit<CatchUpDeps, 'saveProgress'>;
  readonly #telemetry: StreamsTelemetry;
  readonly #stop = new AbortController();
  readonly #source: StreamSource;
  readonly #writePayouts: PayoutsWriter;
  readonly #sink: PayoutSink;
  readonly #job: LeaseJob<LeaseDoc>;
  #status: ProjectionStatus = { state: 'starting', consecutiveFailures: 0, lastError: null };
  #running = false;
  private readonly logger: Logger;

  /**
   * Production builds it through `createPayoutProjection`; only src/testing hands in another
   * `writePayout` (a meta-test without the unique key, a crash between payout and token write).
   */
  constructor(
    deps: PayoutProjectionDeps & { writePayout: PayoutWriter; writePayouts?: PayoutsWriter },
    options: PayoutProjectionOptions = {},
  ) {
    const { db, logger } = deps;
    this.#sink = deps.sink ?? workItemsSink(deps.work);
    this.logger = logger;
    this.#leases = projectionLeases(db);
    this.#holder = options.holder ?? holderOf(newProcessId(), PAYOUT_LEASE_NAME);
    this.#durations = {
      leaseMs: options.leaseDurationMs ?? ProjectionLimits.leaseDurationMs,
      renewMs: options.leaseRenewIntervalMs ?? ProjectionLimits.leaseRenewIntervalMs,
      acquireMs: options.leaseAcquireIntervalMs ?? ProjectionLimits.leaseAcquireIntervalMs,
      gatherMs: options.batchGatherMs ?? ProjectionLimits.batchGatherMs,
    };
    this.#telemetry = deps.telemetry;
    this.#writePayouts = deps.writePayouts ?? oneByOne(deps.writePayout);
    const openLabels = { collection: collectionNames.entries, purpose: 'projection' };
    this.#source = {
      collection: db.collection(collectionNames.entries),
      pipeline: WITHDRAWAL_INSERTS,
      awaitTimeMs: ChangeStreamLimits.awaitTimeMs,
      countOpen: (delta) => this.#telemetry.changeStreamsOpen.inc(openLabels, delta),
    };
    const limits: CatchUpLimits = {
      batchMax: options.catchUp?.batchMax ?? ProjectionLimits.catchUpBatchMax,
      pagesPerSliceMax: options.catchUp?.pagesPerSliceMax ?? ProjectionLimits.catchUpPagesPerSliceMax,
      pauseMs: options.catchUp?.pauseMs ?? ProjectionLimits.catchUpPauseMs,
    };
    this.#deps = {
      entries: journalForWalk(db),
      sink: this.#sink,
      writePayout: deps.writePayout,
      limits,
      signal: this.#stop.signal,
      logger,
      telemetry: this.#telemetry,
    };
    this.#job = new LeaseJob<LeaseDoc>(
      {
        name: PAYOUT_LEASE_NAME,
        leases: this.#leases,
        holder: this.#holder,
        leaseDurationMs: this.#durations.leaseMs,
        intervalMs: this.#durations.acquireMs,
        logger,
        telemetry: this.#telemetry.leaseJobs,
      },
      {
        turn: (held) => this.#turn(held),
        standby: () => this.#setState('standby'),
        failed: (error) => this.#setState('retrying', error),
      },
    );
  }

  /** Where the payouts go (the start-up task starts and closes it; /readyz and the console show it). */
  get sink(): PayoutSink {
    return this.#sink;
  }

  get holder(): string {
    return this.#holder;
  }

  get status(): ProjectionStatus {
    return { ...this.#status };
  }

  /** Between start() and stop(): /readyz reports the status only of a projection this process runs. */
  get running(): boolean {
    return this.#running;
  }

  #setState(state: ProjectionStatus['state'], error?: unknown): void {
    const failing = error !== undefined;
    this.#status = {
      state,
      consecutiveFailures: failing ? this.#status.consecutiveFailures + 1 : 0,
      lastError: failing ? (error instanceof Error ? error.message : String(error)) : null,
    };
    for (const each of PROJECTION_STATES)
      this.#telemetry.payoutProjectionState.set({ state: each }, each === state ? 1 : 0);
  }

  start(): void {
    this.#running = true;
    this.#job.start();
  }

  /** Stops projecting and hands the lease back so another process takes over at once. */
  async stop(): Promise<void> {
    this.#running = false;
    this.#stop.abort(); // also stops the stream the holder follows
    await this.#job.stop();
    this.#setState('stopped');
  }

  get #stopped(): boolean {
    return this.#stop.signal.aborted;
  }

  /**
   * One turn of the lease job: projects from where the lease document says until the lease is
   * lost, the stream keeps failing, or a stop; then the lease goes back (the runner releases it).
   */
  async #turn({ lease, taken }: HeldLease<LeaseDoc>): Promise<TurnEnd> {
    const resumeToken = taken?.resumeToken ?? null;
    const catchUp = taken?.catchUp ?? null;
    const reconcile: ReconcileReason | null = catchUp
      ? (catchUp.reason as ReconcileReason)
      : resumeToken
        ? null
        : 'NO_CHECKPOINT';
    this.logger.info({ holder: lease.holder, version: lease.version }, 'payout projection: lease taken');
    this.#telemetry.payoutProjectionLeaseHeld.set(1);
    try {
      const ended = await this.#projectWhileHolding(lease, {
        position: resumeToken,
        reconcile,
        watermark: taken?.watermark ?? null,
        catchUp,
      });
      this.logger.info(
        { holder: lease.holder, version: lease.version, ended },
        'payout projection: stopped projecting',
      );
      return ended === 'leaseLost' ? 'lost' : 'release';
    } finally {
      this.#telemetry.payoutProjectionLeaseHeld.set(0);
    }
  }

  // Follows the entries' stream while the lease holds. Each open starts from the position, from
  // now plus a catch-up, or from the start of a catch-up under way; the events at hand are handled
  // together, the position stored after them under the lease. After `streamFailuresMax` failures in a row
  // without progress, the lease goes back so that another process may do better.
  async #projectWhileHolding(lease: Lease, at: Position): Promise<Ended | 'failing'> {
    let ended: Ended | 'failing' = 'stopped';
    const end = (why: Ended | 'failing') => {
      ended = why;
      return 'end' as const;
    };
    let failures = 0;
    let positionBefore = at.position;
    let renewedAtMs = Date.now();
    const stream = new ResumableStream(
      this.#source,
      {
        opened: async ({ token }) => {
          this.#setState('projecting');
          if (at.catchUp || at.reconcile) {
            const caughtUp = await this.#catchUp(lease, token, at);
            if (caughtUp) return end(caughtUp);
          }
          renewedAtMs = Date.now();
        },
        // The events at hand in one write of their payouts and one store of the position (two
        // commands per batch, not per withdrawal); a replay after a failure is a no-op per payout.
        batch: async (changes) => {
          // The position after `change`, stored under the lease; false when the lease is gone.
          const storeAfter = async (change: Document) => {
            const token = asResumeToken(change['_id']);
            // The watermark: the stamp of the last withdrawal handled. Anything committed after it
            // was stamped after it less the margin, which is where a catch-up starts.
            const createdAt = (change['fullDocument'] as { createdAt?: unknown } | undefined)?.createdAt;
            if (
              !(await storeResumeToken(this.#leases, lease, token, createdAt instanceof Date ? createdAt : undefined))
            )
              return false;
            at.position = token;
            return true;
          };
          await this.#handle(changes);
          if (!(await storeAfter(changes[changes.length - 1]!))) return end('leaseLost');
          // Stored: let the next withdrawals gather rather than read them one by one. A full batch
          // means more are waiting already; a stop cuts the pause short.
          if (changes.length < BATCH_CHANGES_MAX) await this.#pause(this.#durations.gatherMs);
        },
        polled: async (token) => {
          if (Date.now() - renewedAtMs < this.#durations.renewMs) return;
          // Renewing also stores the idle position, so a quiet projection's token stays in the oplog window.
          if (!(await renewProjectionLease(this.#leases, lease, this.#durations.leaseMs, token)))
            return end('leaseLost');
          at.position = token;
          renewedAtMs = Date.now();
        },
        failed: ({ kind, error }) => {
          failures = at.position !== positionBefore ? 1 : failures + 1; // progress was made: count afresh
          positionBefore = at.position;
          if (kind === 'historyLost') {
            // Also when resuming a catch-up whose start fell out of the oplog: start it afresh from the watermark.
            at.reconcile = 'HISTORY_LOST';
            at.catchUp = null;
          } else if (kind === 'invalidated') at.reconcile = 'INVALIDATED';
          this.#setState('retrying', error);
          this.logger.warn({ err: error, failures }, 'payout projection: stream failed; reopening');
          if (failures < ProjectionLimits.streamFailuresMax) return startOf(at);
          this.logger.error(
            { failuresMax: ProjectionLimits.streamFailuresMax },
            'payout projection: giving the lease up after repeated failures',
          );
          return end('failing');
        },
      },
      { signal: this.#stop.signal },
    );
    await stream.run(startOf(at));
    return ended;
  }

  // The stream is established before the walk, so whatever the walk misses, it reads. The walk's
  // progress is saved under the lease first (with the stream's start), so a holder that dies
  // halfway leaves the next one a place to resume from.
  async #catchUp(lease: Lease, streamStart: ResumeToken, at: Position): Promise<Ended | null> {
    const durationMs = this.#durations.leaseMs;
    let progress = at.catchUp;
    if (progress) {
      this.#telemetry.payoutCatchUpResumedTotal.inc();
      this.logger.info({ after: progress.after, from: progress.from }, 'payout catch-up: resuming saved progress');
    } else {
      const reason = at.reconcile ?? 'NO_CHECKPOINT';
      progress = {
        reason,
        startToken: streamStart,
        after: null,
        from: catchUpStart(at.watermark, ProjectionLimits.catchUpMarginMs),
      };
      if (!(await storeCatchUp(this.#leases, lease, durationMs, progress))) return 'leaseLost';
      at.catchUp = progress;
    }
    const saveProgress = async (saved: CatchUpProgress) => {
      if (!(await storeCatchUp(this.#leases, lease, durationMs, saved))) return false;
      at.catchUp = { ...saved };
      return true;
    };
    if ((await catchUpPayouts({ ...this.#deps, saveProgress }, progress)) === null)
      return this.#stopped ? 'stopped' : 'leaseLost';
    if (!(await storeCatchUp(this.#leases, lease, durationMs, null, progress.startToken))) return 'leaseLost';
    at.position = progress.startToken;
    at.catchUp = null;
    at.reconcile = null;
    return null;
  }

  async #handle(changes: Document[]): Promise<void> {
    const payouts = changes.map(payoutOfInsert);
    // One span per batch, linked to each withdrawal's trace; its upsert is the span's child.
    const links = payouts.flatMap((payout) => linksTo(payout.traceparent, 'withdrawal'));
    const { created } = await inSpan(
      'payout.project',
      { links, attributes: { 'payout.batch.size': payouts.length } },
      () => this.#writePayouts(payouts),
    );
    if (created > 0) this.#telemetry.payoutProjectionEventsTotal.inc({ outcome: 'created' }, created);
    if (changes.length > created)
      this.#telemetry.payoutProjectionEventsTotal.inc({ outcome: 'replayed' }, changes.length - created);
    const wallTime = changes[changes.length - 1]!['wallTime'];
    if (wallTime instanceof Date)
      this.#telemetry.payoutProjectionLagSeconds.set(Math.max(0, Date.now() - wallTime.getTime()) / 1000);
  }

  async #pause(ms: number): Promise<void> {
    await sleep(ms, undefined, { signal: this.#stop.signal }).catch(() => undefined);
  }
}

/** Where the holder's stream opens: the start of a catch-up under way, now when one is due, else its position. */
function startOf(at: Position): StreamStart {
  if (at.catchUp) return StreamStart.after(at.catchUp.startToken);
  return at.reconcile ? StreamStart.now : StreamStart.after(at.position);
}
