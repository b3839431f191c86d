import type { Collection, Db, IndexDescription } from 'mongodb';

// Schedules (flow 8, W8): a schedule is data, one document per name in `work_schedules`, so
// changing one needs no deploy. Its cursor (`firedThrough`) says up to which instant of the
// database clock its periods are handled (fired, or skipped by its catchUp); the firer moves it
// only forward, by a write conditional on the value it read (scheduleFirer.ts).

export const WORK_SCHEDULES_COLLECTION = 'work_schedules';
/** The firer's lease (src/db/lease.ts) and its liveness record live here. */
export const WORK_SCHEDULE_LEASES_COLLECTION = 'work_schedule_leases';

export const CatchUp = Object.freeze({ LATEST: 'LATEST', ALL: 'ALL', NONE: 'NONE' } as const);
export type CatchUp = (typeof CatchUp)[keyof typeof CatchUp];

export interface ScheduleDoc {
  /** The schedule's name: its key. */
  _id: string;
  kind: string;
  cron: string;
  timeZone: string;
  payload: unknown;
  catchUp: CatchUp;
  createdAt: Date;
  /** Random per creation: a firer's write names it, so a schedule removed and made again is never moved by a pass that read the old one. */
  generation: string;
  /** Every period at or before this instant is handled. Starts at the creation instant. */
  firedThrough: Date;
  /** The first period after `firedThrough`; null only between the creation's two writes (the firer computes it then). */
  nextFireAt: Date | null;
  /** The last period that made an item, and when (database clock); null before the first. */
  lastFiredPeriod: Date | null;
  lastFiredAt: Date | null;
}

export const SCHEDULE_INDEXES: IndexDescription[] = [
  // The firer's one read per pass: the schedules whose next period is due, soonest first.
  { key: { nextFireAt: 1 }, name: 'nextFireAt' },
];

export function schedules(db: Db): Collection<ScheduleDoc> {
  return db.collection<ScheduleDoc>(WORK_SCHEDULES_COLLECTION, { readPreference: 'primary' });
}

export async function ensureScheduleIndexes(db: Db): Promise<void> {
  await schedules(db).createIndexes(SCHEDULE_INDEXES);
}
