import { setTimeout as sleep } from 'node:timers/promises';
import type { Collection, Document } from 'mongodb';
import type { Registry } from 'prom-client';
import type { Logger } from '../observability/logger.ts';
import { counterOn, gaugeOn } from '../observability/metrics.ts';
import { acquireLease, type Lease, type LeaseDoc, releaseLease, renewLease } from './lease.ts';

// The lease-job runner: every "one process at a time" job (the payout projection, the hold
// sweeper, the ledger audit, the schedule firer) runs its turns here, and only the turn differs.
//
//   const job = new LeaseJob(options, {
//     turn(held),   // runs under the lease: held.lease (its version is the fencing token every
//                   // write of the job filters on, heldBy), held.taken (the lease document as
//                   // taken: what the previous holder stored beside it; first turn only),
//                   // held.signal (aborted by stop()), held.renew(fields?) (extends the lease);
//                   // answers 'more' (again at once), 'idle' (again after the interval), 'lost'
//                   // or 'release' (the lease goes back; another process may take it at once)
//     tick?(),      // every interval, held or not (the audit's gauges)
//     standby?(),   // another process holds the lease
//     failed?(e),   // a turn, an acquisition or a renewal threw; the loop goes on after the interval
//   });
//   job.start(); … await job.stop();
//
// What the runner does, once for all of them:
//   1. every process runs the loop; the lease (src/db/lease.ts: the database's clock, a version
//      bumped by every acquisition) decides which one works;
//   2. the holder is this process's id (createApp's, the appName its client announces) and the
//      job's name, so a lease document says which process holds it;
//   3. the lease is renewed before every turn but the first after taking it; a renewal that
//      matches nothing means another process took it over, and the turn does not run;
//   4. metrics per job: lease_job_held (1 while this process holds it), lease_job_events_total
//      by event (acquired, lost, released, failed);
//   5. stop() aborts the signal every wait of the loop and of a turn listens to, releases the
//      lease, and returns within `stopGraceMs` whatever a turn still waits on: a turn that ignores
//      the signal is left to end on its own (its fenced writes no longer land once the lease is
//      taken over), and its lease to expire.

export type TurnEnd = 'more' | 'idle' | 'lost' | 'release';

export interface HeldLease<Doc extends LeaseDoc = LeaseDoc> {
  lease: Lease;
  /** The lease document as this process took it: set on the first turn after each acquisition, else null. */
  taken: Doc | null;
  /** Aborted by stop(). */
  signal: AbortSignal;
  /** Extends the lease, storing `fields` beside it; false when it is no longer ours. */
  renew(fields?: Document): Promise<boolean>;
}

export interface LeaseWork<Doc extends LeaseDoc = LeaseDoc> {
  turn(held: HeldLease<Doc>): Promise<TurnEnd>;
  tick?(): Promise<void>;
  standby?(): void;
  failed?(error: unknown): void;
}

export interface LeaseJobOptions<Doc extends LeaseDoc = LeaseDoc> {
  /** The job's name: the lease document's _id and the metrics' `job` label. */
  name: string;
  leases: Collection<Doc>;
  /** Who this process is in the lease document: `holderOf(processId, name)`, from createApp's process id. */
  holder: string;
  leaseDurationMs: number;
  /** The pause after an idle turn, and between attempts to take the lease. */
  intervalMs: number;
  /** How long stop() waits for a turn that does not heed the signal. */
  stopGraceMs?: number;
  logger: Logger;
  telemetry: LeaseJobTelemetry;
}

/** A turn that ignores its signal holds stop() at most this long (well inside SHUTDOWN_GRACE_MS's default of 10 s). */
export const LEASE_JOB_STOP_GRACE_MS = 5_000;

export class LeaseJob<Doc extends LeaseDoc = LeaseDoc> {
  readonly #options: LeaseJobOptions<Doc>;
  readonly #work: LeaseWork<Doc>;
  readonly #stop = new AbortController();
  #loop: Promise<void> | null = null;

  constructor(options: LeaseJobOptions<Doc>, work: LeaseWork<Doc>) {
    this.#options = options;
    this.#work = work;
  }

  /** Who this process is in the lease document. */
  get holder(): string {
    return this.#options.holder;
  }

  get stopped(): boolean {
    return this.#stop.signal.aborted;
  }

  start(): void {
    this.#loop ??= this.#run();
  }

  /** Stops the loop, hands the lease back, and returns within the stop grace whatever a turn waits on. */
  async stop(): Promise<void> {
    this.#stop.abort();
    if (this.#loop === null) return;
    const graceMs = this.#options.stopGraceMs ?? LEASE_JOB_STOP_GRACE_MS;
    const late = sleep(graceMs, 'late' as const, { ref: false });
    if ((await Promise.race([this.#loop.then(() => 'ended' as const), late])) === 'late') {
      this.#options.logger.warn(
        { job: this.#options.name, graceMs },
        'lease job: a turn did not stop within the grace; its lease will expire',
      );
    }
  }

  async #run(): Promise<void> {
    const { name, leases, leaseDurationMs, intervalMs, telemetry, logger } = this.#options;
    const signal = this.#stop.signal;
    const holder = this.holder;
    let lease: Lease | null = null;
    let taken: Doc | null = null;
    const drop = (event: 'lost' | 'released') => {
      telemetry.event(name, event);
      telemetry.held(name, false);
      lease = null;
    };
    while (!signal.aborted) {
      let pause = true;
      try {
        if (lease === null) {
          const acquired = await acquireLease(leases, name, holder, leaseDurationMs);
          if (acquired) {
            ({ lease, doc: taken } = acquired);
            telemetry.event(name, 'acquired');
            telemetry.held(name, true);
            logger.info({ job: name, holder, version: acquired.lease.version }, 'lease job: lease taken');
          } else this.#work.standby?.();
        } else if (!(await renewLease(leases, lease, leaseDurationMs))) drop('lost');
        const held: Lease | null = lease;
        if (held !== null && !signal.aborted) {
          const renew = (fields: Document = {}) => renewLease(leases, held, leaseDurationMs, fields);
          const end = await this.#work.turn({ lease: held, taken, signal, renew });
          taken = null;
          if (end === 'more') pause = false;
          else if (end === 'lost') drop('lost');
          else if (end === 'release') {
            await releaseLease(leases, held).catch(() => undefined);
            drop('released');
          }
        }
        await this.#work.tick?.();
      } catch (error) {
        telemetry.event(name, 'failed');
        this.#work.failed?.(error);
        logger.warn({ job: name, err: error }, 'lease job: turn failed; trying again after the interval');
      }
      if (pause) await sleep(intervalMs, undefined, { signal }).catch(() => undefined);
    }
    const last: Lease | null = lease;
    if (last !== null) {
      await releaseLease(leases, last).catch(() => undefined);
      drop('released');
    }
  }
}

/** The holder of a job's lease: the process, then the job. */
export function holderOf(processId: string, job: string): string {
  return `${processId}/${job}`;
}

export interface LeaseJobTelemetry {
  held(job: string, held: boolean): void;
  event(job: string, event: 'acquired' | 'lost' | 'released' | 'failed'): void;
}

/** The lease jobs' metrics on `registry` (the same two metrics whichever feature asks first). */
export function createLeaseJobTelemetry(registry: Registry): LeaseJobTelemetry {
  const held = gaugeOn(registry, {
    name: 'lease_job_held',
    help: 'Whether this process holds the lease of a one-at-a-time job (1) or not (0).',
    labelNames: ['job'],
  });
  const events = counterOn(registry, {
    name: 'lease_job_events_total',
    help: 'Lease job events in this process: the lease acquired, lost to another process, released, or a turn failed.',
    labelNames: ['job', 'event'],
  });
  return {
    held: (job, isHeld) => held.set({ job }, isHeld ? 1 : 0),
    event: (job, event) => events.inc({ job, event }),
  };
}
