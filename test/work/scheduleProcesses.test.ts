// @module-tag processes
// W8 across processes: three API processes (src/main.ts, as `npm start` runs it) on one database,
// one schedule firing every second. The process holding the firer's lease is SIGKILLed mid-run;
// another takes the lease over once it expires (database clock) and fires the periods the dead
// one left, late. Every period from the schedule's creation to the last one fired has exactly one
// item, under `schedule:<name>:<period start ISO>`: none skipped, none twice. Then every process
// is killed across several periods and one is started again: the periods missed while none ran
// follow each schedule's catchUp (LATEST, ALL, NONE), and every period since the restart fires.
import { randomBytes } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppProcess, type AppProcess } from '../support/app.ts';
import { testMongoUri } from '../support/mongo.ts';
import { firesBetween } from '../../src/work/cron.ts';
import { scheduledItemKey, SCHEDULE_FIRER_LEASE } from '../../src/work/scheduleFirer.ts';
import { ScheduleLimits } from '../../src/work/limits.ts';

const START_TIMEOUT_MS = 60_000;
const CRON = '* * * * * *';

async function dbNow(db: Db): Promise<Date> {
  const [doc] = await db.aggregate<{ now: Date }>([{ $documents: [{}] }, { $project: { now: '$$NOW' } }]).toArray();
  return doc!.now;
}

describe('W8: one item per period across three API processes, the firing one SIGKILLed', () => {
  let apis: AppProcess[] = [];
  let client: MongoClient;
  let db: Db;
  const dbName = `test_scheduleProcesses_${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    apis = await Promise.all(
      [0, 1, 2].map(() =>
        startAppProcess({
          mongoUri: testMongoUri(),
          dbName,
          env: { RATE_LIMITS: 'off' },
          startTimeoutMs: START_TIMEOUT_MS,
        }),
      ),
    );
    client = new MongoClient(testMongoUri());
    db = client.db(dbName);
  }, START_TIMEOUT_MS * 2);
  afterAll(async () => {
    await Promise.all(apis.map((api) => api.stop()));
    await db?.dropDatabase().catch(() => undefined);
    await client?.close();
  });

  const holderPid = async () => {
    const lease = await db.collection('work_schedule_leases').findOne({ _id: SCHEDULE_FIRER_LEASE as never });
    // holderOf(processId, job): `<pid>-<random>/<job>` (src/db/leaseJob.ts, src/db/processLiveness.ts).
    return Number(String(lease?.['holder'] ?? '').split('-')[0]);
  };
  const lastFired = async () =>
    ((await db.collection('work_schedules').findOne({ _id: 'tick' as never }))?.['lastFiredPeriod'] as Date | null) ??
    null;

  it("fires every period once, the dead holder's periods late", async () => {
    const made = await apis[0]!.gql(
      `mutation ($input: ScheduleWorkInput!) { scheduleWork(input: $input) { __typename ... on ScheduleWorkSuccess { schedule { name createdAt nextFireTimes } } } }`,
      {
        input: { name: 'tick', kind: 'TICK', cron: CRON, timeZone: 'UTC', payload: { from: 'test' }, catchUp: 'NONE' },
      },
      { key: 'service' },
    );
    expect(made.data?.scheduleWork.__typename).toBe('ScheduleWorkSuccess');
    const createdAt = new Date(made.data.scheduleWork.schedule.createdAt);
    await expect
      .poll(() => db.collection('workItems').countDocuments({ kind: 'TICK' }), { timeout: 20_000, interval: 100 })
      .toBeGreaterThanOrEqual(3);
    const pid = await holderPid();
    const victim = apis.find((api) => api.pid === pid);
    expect(victim, `the lease holder ${pid} is one of ours`).toBeDefined();
    victim!.main.child.kill('SIGKILL');
    const killedAt = await dbNow(db);
    // Another process takes the lease over once it expires, and fires on past the kill.
    await expect
      .poll(async () => ((await lastFired())?.getTime() ?? 0) - killedAt.getTime(), { timeout: 30_000, interval: 200 })
      .toBeGreaterThan(ScheduleLimits.firerLeaseMs + 2_000);
    expect(await holderPid()).not.toBe(pid);
    const gone = await apis
      .find((api) => api !== victim)!
      .gql(`mutation { unscheduleWork(input: { name: "tick" }) { __typename } }`, {}, { key: 'service' });
    expect(gone.data?.unscheduleWork.__typename).toBe('UnscheduleWorkSuccess');

    const items = await db
      .collection('workItems')
      .find({ kind: 'TICK' }, { projection: { idempotencyKey: 1, createdAt: 1, payload: 1 } })
      .toArray();
    const periodOf = (key: string) => new Date(key.slice('schedule:tick:'.length));
    const last = new Date(Math.max(...items.map((item) => periodOf(item['idempotencyKey']).getTime())));
    const expected = firesBetween(CRON, 'UTC', createdAt, last, 1_000).map((period) =>
      scheduledItemKey('tick', period),
    );
    expect(items.map((item) => item['idempotencyKey']).sort()).toEqual(expected);
    expect(items.every((item) => JSON.stringify(item['payload']) === '{"from":"test"}')).toBe(true);
    // The periods while the lease was held by the dead process were fired late, by the new holder.
    const lateMs = items.map(
      (item) => (item['createdAt'] as Date).getTime() - periodOf(item['idempotencyKey']).getTime(),
    );
    expect(Math.max(...lateMs)).toBeGreaterThan(2_000);
  }, 120_000);

  it('follows catchUp for the periods missed while no process ran', async () => {
    const modes = ['LATEST', 'ALL', 'NONE'] as const;
    const live = apis.filter((api) => api.main.child.exitCode === null && api.main.child.signalCode === null);
    for (const mode of modes) {
      const made = await live[0]!.gql(
        `mutation ($input: ScheduleWorkInput!) { scheduleWork(input: $input) { __typename } }`,
        { input: { name: `down-${mode}`, kind: 'DOWN', cron: CRON, catchUp: mode } },
        { key: 'service' },
      );
      expect(made.data?.scheduleWork.__typename).toBe('ScheduleWorkSuccess');
    }
    const scheduleOf = (name: string) => db.collection('work_schedules').findOne({ _id: name as never });
    await expect
      .poll(async () => ((await scheduleOf('down-NONE'))?.['lastFiredPeriod'] as Date | null) !== null, {
        timeout: 20_000,
        interval: 100,
      })
      .toBe(true);
    for (const api of live) api.main.child.kill('SIGKILL');
    const stoppedAt = await dbNow(db);
    // Down across at least five periods, past the 3 s with no process ticking, by the database clock.
    await expect
      .poll(async () => (await dbNow(db)).getTime() - stoppedAt.getTime(), { timeout: 20_000, interval: 200 })
      .toBeGreaterThan(ScheduleLimits.outageAfterMs + 2_500);
    const cursors = new Map(
      await Promise.all(
        modes.map(async (mode) => [mode, (await scheduleOf(`down-${mode}`))!['firedThrough'] as Date] as const),
      ),
    );
    apis.push(
      await startAppProcess({
        mongoUri: testMongoUri(),
        dbName,
        env: { RATE_LIMITS: 'off' },
        startTimeoutMs: START_TIMEOUT_MS,
      }),
    );
    const liveness = () =>
      db.collection('work_schedule_leases').findOne({ _id: 'work:scheduleFirer:liveness' as never });
    await expect
      .poll(async () => ((await liveness())?.['upSince'] as Date).getTime() > stoppedAt.getTime(), {
        timeout: START_TIMEOUT_MS,
        interval: 200,
      })
      .toBe(true);
    const upSince = (await liveness())!['upSince'] as Date;
    await expect
      .poll(async () => ((await scheduleOf('down-NONE'))!['lastFiredPeriod'] as Date).getTime() - upSince.getTime(), {
        timeout: 20_000,
        interval: 200,
      })
      .toBeGreaterThan(2_000);
    for (const mode of modes) {
      const name = `down-${mode}`;
      const schedule = (await scheduleOf(name))!;
      const keys = (
        await db
          .collection('workItems')
          .find({ idempotencyKey: { $regex: `^schedule:${name}:` } })
          .toArray()
      )
        .map((item) => item['idempotencyKey'] as string)
        .sort();
      const missed = firesBetween(CRON, 'UTC', cursors.get(mode)!, new Date(upSince.getTime() - 1), 1_000);
      expect(missed.length).toBeGreaterThanOrEqual(5);
      const expectedMissed = mode === 'ALL' ? missed : mode === 'LATEST' ? missed.slice(-1) : [];
      const beforeStop = firesBetween(CRON, 'UTC', schedule['createdAt'] as Date, cursors.get(mode)!, 1_000);
      const since = firesBetween(CRON, 'UTC', new Date(upSince.getTime() - 1), schedule['firedThrough'] as Date, 1_000);
      expect(keys, mode).toEqual(
        [...beforeStop, ...expectedMissed, ...since].map((period) => scheduledItemKey(name, period)).sort(),
      );
    }
  }, 120_000);
});
