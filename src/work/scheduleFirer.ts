import type { Collection, Db } from 'mongodb';
import type { Logger } from 'pino';
import { leaseCollection, type LeaseDoc } from '../db/lease.ts';
import { LeaseJob } from '../db/leaseJob.ts';
import { firesBefore, firesBetween, nextAfter } from './cron.ts';
import { upsertWorkItem } from './createItem.ts';
import { ScheduleLimits, WorkLimits } from './limits.ts';
import { KeyNamespace, namespacedKey } from './model.ts';
import { CatchUp, WORK_SCHEDULE_LEASES_COLLECTION, type ScheduleDoc } from './scheduleModel.ts';
import type { WorkDeps } from './workDeps.ts';

// W8: each period of a schedule yields exactly one work item, whichever process fires it. The
// item of a period is created through createWorkItem's upsert on the unique key
// `schedule:<name>:<period start ISO>`, so two firers (a holder taken over while it still ran, or a
// pass repeated after a crash) find the item there and change nothing. The schedule's cursor moves
// only after its items exist, by a write conditional on the cursor read: a firer that dies between
// the two leaves the cursor behind, and the next pass fires the same periods again (no-ops), late
// but never skipped.
//
// Which periods were missed "while no process ran" is judged on the database clock too: every
// process's firer loop, holder or not, records each tick (`aliveAt`). A process that has ticked
// before has run ever since, stalled or not, so only a process's first tick can find an outage:
// when the last tick of any process is older than `outageAfterMs`, none ran in between, and a new
// span starts (`upSince`). Periods before `upSince` that no pass fired follow the schedule's
// catchUp; periods from `upSince` on always fire, however late.

export const SCHEDULE_FIRER_LEASE = 'work:scheduleFirer';
const LIVENESS_ID = 'work:scheduleFirer:liveness';

interface LivenessDoc extends LeaseDoc {
  aliveAt: Date;
  upSince: Date;
}

export interface FireClock {
  /** The database clock at this pass. */
  now: Date;
  /** Since when firer passes have followed each other without an outage (database clock). */
  upSince: Date;
}

export interface FirePass {
  /** Items this pass created (a period whose item existed already counts as not created). */
  created: number;
  /** Periods handled: fired (created or found) or skipped by catchUp. */
  periods: number;
  /** The pass stopped at a bound: run the next at once. */
  more: boolean;
}

/**
 * Records a tick of a process's firer loop on the database clock and answers that clock and the
 * span's start: one write (`$$NOW`, so every process agrees), an upsert the first time. Only the
 * process's first tick may start a new span.
 */
export async function markFirerAlive(
  leases: Collection<LivenessDoc>,
  outageAfterMs: number,
  firstTick: boolean,
): Promise<FireClock> {
  const recent = { $gte: [{ $ifNull: ['$aliveAt', new Date(0)] }, { $subtract: ['$$NOW', outageAfterMs] }] };
  const doc = await leases.findOneAndUpdate(
    { _id: LIVENESS_ID },
    [
      {
        $set: {
          upSince: firstTick ? { $cond: [recent, '$upSince', '$$NOW'] } : { $ifNull: ['$upSince', '$$NOW'] },
          aliveAt: { $max: [{ $ifNull: ['$aliveAt', new Date(0)] }, '$$NOW'] },
        },
      },
    ],
    { upsert: true, returnDocument: 'after' },
  );
  if (doc === null) throw new Error('the schedule firer liveness upsert returned no document');
  return { now: doc.aliveAt, upSince: doc.upSince };
}

/** The firing step: every due period of every schedule, as of `clock` (the database clock). */
export async function fireDueSchedules(ctx: WorkDeps, clock: FireClock): Promise<FirePass> {
  const due = await ctx.schedules
    .find({ $or: [{ nextFireAt: { $lte: clock.now } }, { nextFireAt: null }] }, { hint: 'nextFireAt' })
    .sort({ nextFireAt: 1 })
    .limit(ScheduleLimits.schedulesPerPassMax)
    .toArray();
  const pass: FirePass = { created: 0, periods: 0, more: due.length === ScheduleLimits.schedulesPerPassMax };
  for (const schedule of due) {
    const one = await fireSchedule(ctx, schedule, clock);
    pass.created += one.created;
    pass.periods += one.periods;
    pass.more ||= one.more;
  }
  return pass;
}

/** Which periods of `schedule` this pass fires, oldest first, and how far its cursor then moves. */
export function periodsToFire(
  schedule: Pick<ScheduleDoc, 'cron' | 'timeZone' | 'catchUp' | 'firedThrough'>,
  clock: FireClock,
): { fire: Date[]; through: Date; more: boolean } {
  const { cron, timeZone, firedThrough } = schedule;
  const missedBound =
    schedule.catchUp === CatchUp.ALL ? ScheduleLimits.catchUpAllMax : schedule.catchUp === CatchUp.LATEST ? 1 : 0;
  // Missed while no process ran: after the cursor and before the span began; the newest ones.
  const missed =
    clock.upSince > firedThrough && missedBound > 0
      ? firesBefore(cron, timeZone, firedThrough, clock.upSince, missedBound).reverse()
      : [];
  // Periods of the current span: every one, late or not.
  const liveAfter = clock.upSince > firedThrough ? new Date(clock.upSince.getTime() - 1) : firedThrough;
  const room = ScheduleLimits.periodsPerPassMax;
  const live = firesBetween(cron, timeZone, liveAfter, clock.now, room + 1);
  const more = live.length > room;
  const fire = [...missed, ...live.slice(0, room)];
  // A capped pass stops at its last period; otherwise everything up to now is handled.
  return { fire, through: more ? live[room - 1]! : clock.now, more };
}

async function fireSchedule(ctx: WorkDeps, schedule: ScheduleDoc, clock: FireClock): Promise<FirePass> {
  const { fire, through, more } = periodsToFire(schedule, clock);
  let created = 0;
  for (const period of fire) {
    const { created: made } = await upsertWorkItem(ctx, {
      idempotencyKey: scheduledItemKey(schedule._id, period),
      kind: schedule.kind,
      payload: schedule.payload,
      maxAttempts: WorkLimits.maxAttemptsDefault,
      priority: 0,
      runAt: null,
      keepsCreateOutcome: false,
    });
    if (made) created += 1;
  }
  const last = fire.at(-1);
  // Conditional on the cursor read: a stale or concurrent firer that moved it first wins, and a
  // schedule removed (or removed and made again) meanwhile is left alone.
  await ctx.schedules.updateOne(
    { _id: schedule._id, generation: schedule.generation, firedThrough: schedule.firedThrough },
    [
      {
        $set: {
          firedThrough: { $literal: through },
          nextFireAt: { $literal: nextAfter(schedule.cron, schedule.timeZone, through) },
          ...(last === undefined ? {} : { lastFiredPeriod: { $literal: last }, lastFiredAt: '$$NOW' }),
        },
      },
    ],
  );
  return { created, periods: fire.length, more };
}

/** `schedule:<name>:<period start ISO>`: the one key of a period, whoever fires it. */
export function scheduledItemKey(name: string, period: Date): string {
  return namespacedKey(KeyNamespace.SCHEDULE, `${name}:${period.toISOString()}`);
}

export interface ScheduleFirerOptions {
  db: Db;
  work: WorkDeps;
  logger: Logger;
  /** Who this process is in the lease document: `holderOf(processId, SCHEDULE_FIRER_LEASE)`. */
  holder: string;
  leaseMs?: number;
  tickMs?: number;
  outageAfterMs?: number;
}

/**
 * The firer on the lease-job runner (src/db/leaseJob.ts): every process runs it, the one holding
 * the firer lease (database clock) fires, and a holder that dies is taken over within the lease
 * plus a tick, the new holder firing what it left. Every process, holder or not, records each
 * tick (`markFirerAlive`): the holder in its turn, the others in the runner's tick.
 */
export class ScheduleFirer {
  readonly #job: LeaseJob<LivenessDoc>;

  constructor(options: ScheduleFirerOptions) {
    const { db, work, logger, holder } = options;
    const outageAfterMs = options.outageAfterMs ?? ScheduleLimits.outageAfterMs;
    const leases = leaseCollection<LivenessDoc>(db, WORK_SCHEDULE_LEASES_COLLECTION);
    let markedInTurn = false;
    let ticked = false;
    const markAlive = async () => {
      const clock = await markFirerAlive(leases, outageAfterMs, !ticked);
      ticked = true;
      return clock;
    };
    this.#job = new LeaseJob<LivenessDoc>(
      {
        name: SCHEDULE_FIRER_LEASE,
        leases,
        holder,
        leaseDurationMs: options.leaseMs ?? ScheduleLimits.firerLeaseMs,
        intervalMs: options.tickMs ?? ScheduleLimits.firerTickMs,
        logger,
        telemetry: work.telemetry.leaseJobs,
      },
      {
        turn: async () => {
          markedInTurn = true;
          const pass = await fireDueSchedules(work, await markAlive());
          if (pass.created > 0)
            logger.info(
              { component: 'scheduleFirer', created: pass.created, periods: pass.periods },
              'scheduled items created',
            );
          return pass.more ? 'more' : 'idle';
        },
        // Held or not: a process that does not fire still says it runs, so that a dead holder's
        // periods are late, not missed. The holder's turn has said it already.
        tick: async () => {
          if (!markedInTurn) await markAlive();
          markedInTurn = false;
        },
      },
    );
  }

  start(): void {
    this.#job.start();
  }

  async stop(): Promise<void> {
    await this.#job.stop();
  }
}
