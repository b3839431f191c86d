// W8 across processes: three API processes (src/main.ts, as `npm start` runs it) on one database,
// one schedule firing every second. The process holding the firer's lease is SIGKILLed mid-run;
// another takes the lease over once it expires (database clock) and fires the periods the dead
// one left, late. Every period from the schedule's creation to the last one fired has exactly one
// item, under `schedule:<name>:<period start ISO>`: none skipped, none twice.
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
    apis = await Promise.all([0, 1, 2].map(() => startAppProcess({ mongoUri: testMongoUri(), dbName, env: { RATE_LIMITS: 'off' }, startTimeoutMs: START_TIMEOUT_MS })));
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
    return Number(String(lease?.['holder'] ?? '').split(':')[1]);
  };
  const lastFired = async () => ((await db.collection('work_schedules').findOne({ _id: 'tick' as never }))?.['lastFiredPeriod'] as Date | null) ?? null;

  it('fires every period once, the dead holder\'s periods late', async () => {
    const made = await apis[0]!.gql(
      `mutation ($input: ScheduleWorkInput!) { scheduleWork(input: $input) { __typename ... on ScheduleWorkSuccess { schedule { name createdAt nextFireTimes } } } }`,
      { input: { name: 'tick', kind: 'TICK', cron: CRON, timeZone: 'UTC', payload: { from: 'test' }, catchUp: 'NONE' } },
      { key: 'service' },
    );
    expect(made.data?.scheduleWork.__typename).toBe('ScheduleWorkSuccess');
    const createdAt = new Date(made.data.scheduleWork.schedule.createdAt);
    await expect.poll(() => db.collection('workItems').countDocuments({ kind: 'TICK' }), { timeout: 20_000, interval: 100 }).toBeGreaterThanOrEqual(3);
    const pid = await holderPid();
    const victim = apis.find((api) => api.pid === pid);
    expect(victim, `the lease holder ${pid} is one of ours`).toBeDefined();
    victim!.main.child.kill('SIGKILL');
    const killedAt = await dbNow(db);
    // Another process takes the lease over once it expires, and fires on past the kill.
    await expect.poll(async () => ((await lastFired())?.getTime() ?? 0) - killedAt.getTime(), { timeout: 30_000, interval: 200 }).toBeGreaterThan(ScheduleLimits.firerLeaseMs + 2_000);
    expect(await holderPid()).not.toBe(pid);
    const gone = await apis.find((api) => api !== victim)!.gql(`mutation { unscheduleWork(input: { name: "tick" }) { __typename } }`, {}, { key: 'service' });
    expect(gone.data?.unscheduleWork.__typename).toBe('UnscheduleWorkSuccess');

    const items = await db.collection('workItems').find({ kind: 'TICK' }, { projection: { idempotencyKey: 1, createdAt: 1, payload: 1 } }).toArray();
    const periodOf = (key: string) => new Date(key.slice('schedule:tick:'.length));
    const last = new Date(Math.max(...items.map((item) => periodOf(item['idempotencyKey']).getTime())));
    const expected = firesBetween(CRON, 'UTC', createdAt, last, 1_000).map((period) => scheduledItemKey('tick', period));
    expect(items.map((item) => item['idempotencyKey']).sort()).toEqual(expected);
    expect(items.every((item) => JSON.stringify(item['payload']) === '{"from":"test"}')).toBe(true);
    // The periods while the lease was held by the dead process were fired late, by the new holder.
    const lateMs = items.map((item) => (item['createdAt'] as Date).getTime() - periodOf(item['idempotencyKey']).getTime());
    expect(Math.max(...lateMs)).toBeGreaterThan(2_000);
  }, 120_000);
});
