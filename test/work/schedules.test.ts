// Flow 8 and W8 in one process: scheduleWork's answers (a name is a key), the firing step driven
// at chosen instants of a daylight-saving day, and firers stopped across periods (catchUp each
// way). Firers are ScheduleFirer loops as every API process runs them, with a short lease; periods
// are seconds (6-field crons), and every instant compared is the database clock's.
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firesBetween } from '../../src/work/cron.ts';
import { scheduledItemKey } from '../../src/work/scheduleFirer.ts';
import { ensureScheduleIndexes, type ScheduleDoc } from '../../src/work/scheduleModel.ts';
import type { WorkService } from '../../src/work/index.ts';
import { openWorkHarness, type WorkHarness } from './support/harness.ts';

const silent = pino({ level: 'silent' });

async function dbNow(h: WorkHarness): Promise<Date> {
  const [doc] = await h.db.db
    .aggregate<{ now: Date }>([{ $documents: [{}] }, { $project: { now: '$$NOW' } }])
    .toArray();
  return doc!.now;
}

async function itemKeysOf(h: WorkHarness, name: string): Promise<string[]> {
  const items = await h.db.db
    .collection('workItems')
    .find({ idempotencyKey: { $regex: `^schedule:${name}:` } }, { projection: { idempotencyKey: 1 } })
    .toArray();
  return items.map((item) => item['idempotencyKey'] as string).sort();
}

function scheduleDoc(h: WorkHarness, name: string): Promise<ScheduleDoc | null> {
  return h.db.db.collection<ScheduleDoc>('work_schedules').findOne({ _id: name });
}

describe('scheduleWork: the name is the key', () => {
  let h: WorkHarness;
  beforeAll(async () => {
    h = await openWorkHarness('schedules_api');
    await ensureScheduleIndexes(h.db.db);
  });
  afterAll(async () => h.close());

  const input = {
    name: 'nightly',
    kind: 'RECON',
    cron: '0 2 * * *',
    timeZone: 'Europe/Paris',
    payload: { report: 'daily' },
    catchUp: 'LATEST' as const,
  };

  it('stores a schedule, replays the same fields, refuses other fields, and names what is wrong with a cron or a zone', async () => {
    const made = await h.service.schedule(input);
    if (made.kind !== 'scheduleWorkSuccess') throw new Error(made.kind);
    expect(made.schedule.nextFireAt).toEqual(
      firesBetween('0 2 * * *', 'Europe/Paris', made.schedule.createdAt, new Date(8.64e15), 1)[0],
    );
    expect(await h.service.schedule(input)).toMatchObject({
      kind: 'duplicateReplayed',
      requestId: 'nightly',
      original: { kind: 'scheduleWorkSuccess', schedule: { _id: 'nightly' } },
    });
    expect(await h.service.schedule({ ...input, cron: '0 3 * * *' })).toMatchObject({
      kind: 'idempotencyKeyReused',
      field: 'cron',
    });
    expect(await h.service.schedule({ ...input, payload: { report: 'weekly' } })).toMatchObject({
      kind: 'idempotencyKeyReused',
      field: 'payload',
    });
    expect(await h.service.schedule({ ...input, name: 'bad', cron: '61 * * * *' })).toMatchObject({
      kind: 'invalidSchedule',
      detail: expect.stringContaining('61'),
    });
    expect(await h.service.schedule({ ...input, name: 'bad', cron: '* * * *' })).toMatchObject({
      kind: 'invalidSchedule',
      detail: expect.stringContaining('4 fields'),
    });
    expect(await h.service.schedule({ ...input, name: 'bad', timeZone: 'Mars/Olympus' })).toMatchObject({
      kind: 'invalidSchedule',
      detail: expect.stringContaining('IANA'),
    });
    expect(await scheduleDoc(h, 'bad')).toBeNull();
    expect((await h.service.schedules(10)).map((s) => s._id)).toEqual(['nightly']);
    expect(await h.service.unschedule({ name: 'nightly' })).toMatchObject({
      kind: 'unscheduleWorkSuccess',
      schedule: { _id: 'nightly' },
    });
    expect(await h.service.unschedule({ name: 'nightly' })).toEqual({ kind: 'scheduleNotFound', name: 'nightly' });
  });
});

describe('the firing step on a daylight-saving day (America/New_York, cron-parser 5.10.7)', () => {
  let h: WorkHarness;
  beforeAll(async () => {
    h = await openWorkHarness('schedules_dst');
    await ensureScheduleIndexes(h.db.db);
  });
  afterAll(async () => h.close());

  /** A schedule whose cursor starts at `from`, fired by passes every `stepMs` up to `to`. */
  async function fireThroughDay(
    service: WorkService,
    name: string,
    cron: string,
    from: Date,
    to: Date,
    stepMs: number,
  ): Promise<string[]> {
    const made = await service.schedule({
      name,
      kind: 'DST',
      cron,
      timeZone: 'America/New_York',
      payload: null,
      catchUp: 'LATEST',
    });
    expect(made.kind).toBe('scheduleWorkSuccess');
    // The day is in the past of the database clock: the cursor is moved back to it by hand.
    await h.db.db
      .collection<ScheduleDoc>('work_schedules')
      .updateOne({ _id: name }, { $set: { firedThrough: from, nextFireAt: null } });
    for (let at = from.getTime() + stepMs; at < to.getTime() + stepMs; at += stepMs) {
      await service.fireDue({ now: new Date(Math.min(at, to.getTime())), upSince: from });
    }
    return itemKeysOf(h, name);
  }

  it('spring forward: 23 hourly items, 02:30 fires at 03:30 EDT; each once', async () => {
    const from = new Date('2026-03-08T05:00:00Z'); // 00:00 EST
    const to = new Date('2026-03-09T04:00:00Z'); // 00:00 EDT the next day
    const hourly = await fireThroughDay(h.service, 'spring-hourly', '0 * * * *', from, to, 20 * 60_000);
    expect(hourly).toHaveLength(23);
    expect(hourly).toEqual(
      firesBetween('0 * * * *', 'America/New_York', from, to, 100)
        .map((p) => scheduledItemKey('spring-hourly', p))
        .sort(),
    );
    const daily = await fireThroughDay(
      h.service,
      'spring-0230',
      '30 2 * * *',
      new Date('2026-03-07T05:00:00Z'),
      new Date('2026-03-10T04:00:00Z'),
      45 * 60_000,
    );
    expect(daily).toEqual(
      ['2026-03-07T07:30:00.000Z', '2026-03-08T07:30:00.000Z', '2026-03-09T06:30:00.000Z'].map(
        (iso) => `schedule:spring-0230:${iso}`,
      ),
    );
  });

  it('fall back: 25 hourly items, 01:30 fires once (its first instant, EDT)', async () => {
    const from = new Date('2026-11-01T04:00:00Z'); // 00:00 EDT
    const to = new Date('2026-11-02T05:00:00Z'); // 00:00 EST the next day
    const hourly = await fireThroughDay(h.service, 'fall-hourly', '0 * * * *', from, to, 7 * 60_000);
    expect(hourly).toHaveLength(25);
    expect(hourly).toEqual(
      firesBetween('0 * * * *', 'America/New_York', from, to, 100)
        .map((p) => scheduledItemKey('fall-hourly', p))
        .sort(),
    );
    const daily = await fireThroughDay(
      h.service,
      'fall-0130',
      '30 1 * * *',
      new Date('2026-10-31T04:00:00Z'),
      new Date('2026-11-03T05:00:00Z'),
      10 * 60_000,
    );
    expect(daily).toEqual(
      ['2026-10-31T05:30:00.000Z', '2026-11-01T05:30:00.000Z', '2026-11-02T06:30:00.000Z'].map(
        (iso) => `schedule:fall-0130:${iso}`,
      ),
    );
  });
});

describe('W8 in one process: firers stopped across periods follow catchUp; a live span never skips', () => {
  let h: WorkHarness;
  let services: WorkService[];
  const firerOptions = { logger: silent, leaseMs: 1_000, tickMs: 100, outageAfterMs: 1_500 };
  beforeAll(async () => {
    h = await openWorkHarness('schedules_catchup');
    await ensureScheduleIndexes(h.db.db);
    services = await h.services(2);
  });
  afterAll(async () => h.close());

  it('LATEST fires the latest missed period, ALL every one, NONE none; every period before and after fires once', async () => {
    const modes = ['LATEST', 'ALL', 'NONE'] as const;
    const firers = (label: string) =>
      services.map((service, i) => service.scheduleFirer({ ...firerOptions, holder: `${label}-${i}` }));
    // The firers run before the schedules exist, as in an API process: no period falls before them.
    const before = firers('before');
    before.forEach((firer) => firer.start());
    const liveness = () =>
      h.db.db.collection('work_schedule_leases').findOne({ _id: 'work:scheduleFirer:liveness' as never });
    await expect.poll(async () => (await liveness()) !== null, { timeout: 15_000, interval: 50 }).toBe(true);
    for (const mode of modes) {
      expect(
        (
          await h.service.schedule({
            name: `every-second-${mode}`,
            kind: 'TICK',
            cron: '* * * * * *',
            timeZone: 'UTC',
            payload: null,
            catchUp: mode,
          })
        ).kind,
      ).toBe('scheduleWorkSuccess');
    }
    await expect
      .poll(async () => (await itemKeysOf(h, 'every-second-NONE')).length, { timeout: 15_000, interval: 100 })
      .toBeGreaterThanOrEqual(2);
    await Promise.all(before.map((firer) => firer.stop()));
    const stoppedAt = await dbNow(h);
    const cursors = new Map(
      await Promise.all(
        modes.map(async (mode) => [mode, (await scheduleDoc(h, `every-second-${mode}`))!.firedThrough] as const),
      ),
    );
    // Down across at least four periods and past the outage bound, by the database clock.
    await expect
      .poll(async () => (await dbNow(h)).getTime() - stoppedAt.getTime(), { timeout: 15_000, interval: 100 })
      .toBeGreaterThan(4_200);
    const after = firers('after');
    after.forEach((firer) => firer.start());
    await expect
      .poll(async () => (await scheduleDoc(h, 'every-second-NONE'))!.lastFiredPeriod!.getTime() - stoppedAt.getTime(), {
        timeout: 15_000,
        interval: 100,
      })
      .toBeGreaterThan(6_500);
    await Promise.all(after.map((firer) => firer.stop()));
    const firstKey = (await itemKeysOf(h, 'every-second-NONE'))[0]!;
    expect(await h.service.byKey(firstKey)).toMatchObject({
      idempotencyKey: firstKey,
      kind: 'TICK',
      status: 'PENDING',
    });
    const upSince = (await liveness())!['upSince'] as Date;
    expect(upSince.getTime()).toBeGreaterThan(stoppedAt.getTime());
    for (const mode of modes) {
      const name = `every-second-${mode}`;
      const schedule = (await scheduleDoc(h, name))!;
      const keys = await itemKeysOf(h, name);
      const key = (p: Date) => scheduledItemKey(name, p);
      const missed = firesBetween('* * * * * *', 'UTC', cursors.get(mode)!, new Date(upSince.getTime() - 1), 100);
      expect(missed.length).toBeGreaterThanOrEqual(4);
      const expectedMissed = mode === 'ALL' ? missed : mode === 'LATEST' ? missed.slice(-1) : [];
      // Every period from creation to the stop, the missed ones as catchUp says, and every one since.
      const beforeStop = firesBetween('* * * * * *', 'UTC', schedule.createdAt, cursors.get(mode)!, 100);
      const since = firesBetween('* * * * * *', 'UTC', new Date(upSince.getTime() - 1), schedule.firedThrough, 100);
      expect(keys, mode).toEqual([...beforeStop, ...expectedMissed, ...since].map(key).sort());
    }
  }, 60_000);
});
