import { randomUUID } from 'node:crypto';
import { isDuplicateKey } from '../db/mongoErrors.ts';
import type { ReadOptions } from '../db/readOptions.ts';
import { checkCron, firesBetween, nextAfter } from './cron.ts';
import type { ScheduleWorkInput, UnscheduleWorkInput } from './inputs.ts';
import { ScheduleLimits, WorkLimits } from './limits.ts';
import type { ScheduleDoc } from './scheduleModel.ts';
import type { ScheduleResult, UnscheduleResult } from './results.ts';
import { sameJson } from './sameJson.ts';
import type { WorkDeps } from './workDeps.ts';

// scheduleWork, unscheduleWork and the `schedules` list (flow 8). The name is the key: the first
// scheduleWork of a name creates it (an upsert that leaves an existing one as it is), a replay
// with the same fields answers DuplicateReplayed, other fields IdempotencyKeyReused.

type ScheduleFields = Pick<ScheduleDoc, 'kind' | 'cron' | 'timeZone' | 'payload' | 'catchUp'>;

export async function scheduleWork(ctx: WorkDeps, input: ScheduleWorkInput): Promise<ScheduleResult> {
  const check = checkCron(input.cron, input.timeZone);
  if (!check.ok) return { kind: 'invalidSchedule', name: input.name, detail: check.detail };
  const wanted: ScheduleFields = {
    kind: input.kind,
    cron: input.cron,
    timeZone: input.timeZone,
    payload: input.payload ?? null,
    catchUp: input.catchUp,
  };
  const generation = randomUUID();
  const doc = await createIfMissing(ctx, input.name, wanted, generation);
  if (doc.generation === generation || doc.nextFireAt === null) {
    // The first period is the first after the creation instant (database clock). A crash before
    // this write leaves nextFireAt null, which the firer (or this replay) fills the same way.
    const nextFireAt = nextAfter(doc.cron, doc.timeZone, doc.firedThrough);
    await ctx.schedules.updateOne(
      { _id: doc._id, generation: doc.generation, nextFireAt: null },
      { $set: { nextFireAt } },
    );
    doc.nextFireAt = nextFireAt;
    if (doc.generation === generation) return { kind: 'scheduleWorkSuccess', schedule: doc };
  }
  const differing =
    doc.kind !== wanted.kind
      ? 'kind'
      : doc.cron !== wanted.cron
        ? 'cron'
        : doc.timeZone !== wanted.timeZone
          ? 'timeZone'
          : doc.catchUp !== wanted.catchUp
            ? 'catchUp'
            : !sameJson(doc.payload, wanted.payload)
              ? 'payload'
              : null;
  const replay = { requestId: input.name, firstSeenAt: doc.createdAt };
  if (differing !== null) {
    const first = differing === 'payload' ? 'another payload' : `${differing} ${JSON.stringify(doc[differing])}`;
    const detail = `schedule ${input.name} exists with ${first}: unscheduleWork it first, or use another name`;
    return { kind: 'idempotencyKeyReused', ...replay, field: differing, detail };
  }
  return { kind: 'duplicateReplayed', ...replay, original: { kind: 'scheduleWorkSuccess', schedule: doc } };
}

async function createIfMissing(
  ctx: WorkDeps,
  name: string,
  fields: ScheduleFields,
  generation: string,
): Promise<ScheduleDoc> {
  const fresh = {
    kind: { $literal: fields.kind },
    cron: { $literal: fields.cron },
    timeZone: { $literal: fields.timeZone },
    payload: { $literal: fields.payload },
    catchUp: { $literal: fields.catchUp },
    generation: { $literal: generation },
    // Periods are counted from the creation instant, by the database clock every process shares.
    createdAt: '$$NOW',
    firedThrough: '$$NOW',
    nextFireAt: null,
    lastFiredPeriod: null,
    lastFiredAt: null,
  };
  for (let attempt = 1; ; attempt++) {
    try {
      const doc = await ctx.schedules.findOneAndUpdate(
        { _id: name },
        [
          {
            $replaceWith: {
              $cond: {
                if: { $eq: [{ $type: '$generation' }, 'missing'] },
                then: { $mergeObjects: ['$$ROOT', fresh] },
                else: '$$ROOT',
              },
            },
          },
        ],
        { upsert: true, returnDocument: 'after', writeConcern: { w: 'majority' } },
      );
      if (doc === null) throw new Error(`upsert of schedule ${name} returned no document`);
      return doc;
    } catch (error) {
      // Two first scheduleWork calls of one name: the one that lost the insert reads the winner's.
      if (!isDuplicateKey(error) || attempt >= WorkLimits.upsertAttemptsMax) throw error;
    }
  }
}

export async function unscheduleWork(ctx: WorkDeps, input: UnscheduleWorkInput): Promise<UnscheduleResult> {
  // Items already fired stay; no period after this write fires (the firer's advance names the generation).
  const removed = await ctx.schedules.findOneAndDelete({ _id: input.name }, { writeConcern: { w: 'majority' } });
  return removed === null
    ? { kind: 'scheduleNotFound', name: input.name }
    : { kind: 'unscheduleWorkSuccess', schedule: removed };
}

export async function listSchedules(ctx: WorkDeps, first: number, options: ReadOptions = {}): Promise<ScheduleDoc[]> {
  return ctx.schedules
    .find({}, { session: options.session, hint: '_id_' })
    .sort({ _id: 1 })
    .limit(Math.min(first, ScheduleLimits.listMax))
    .toArray();
}

/** The next `count` fire times of a schedule (from its cursor: a period due but not yet fired comes first). */
export function nextFireTimes(
  schedule: Pick<ScheduleDoc, 'cron' | 'timeZone' | 'firedThrough'>,
  count: number,
): Date[] {
  return firesBetween(
    schedule.cron,
    schedule.timeZone,
    schedule.firedThrough,
    new Date(8.64e15),
    Math.min(count, ScheduleLimits.nextFireTimesMax),
  );
}
