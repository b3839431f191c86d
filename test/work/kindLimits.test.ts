// @module-tag processes
// W5 across processes: two API processes (src/main.ts, as `npm start` runs it) both configured
// with WORK_KIND_LIMITS=LIMITED=3, four workers claiming in batches through both. Each worker's
// "work" is to count, in the database, the LIMITED items PROCESSING with a live lease: that count
// must never pass 3, and must reach 3 (else the test could not fail). With the limit checked in
// memory per process instead of in the claim's write, two processes run up to 6 at once.
import { randomBytes } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppProcess, type AppProcess } from '../support/app.ts';
import { testMongoUri } from '../support/mongo.ts';
import { openWorkHarness, type WorkHarness } from './support/harness.ts';
import { setKindLimits } from '../../src/work/kindLimits.ts';
import { parseWorkKindLimits } from '../../src/config.ts';

const LIMIT = 3;
const ITEMS = 12;
const START_TIMEOUT_MS = 60_000;

const CREATE = `mutation ($input: CreateWorkItemInput!) { createWorkItem(input: $input) { __typename } }`;
const CLAIM_MANY = `mutation ($input: ClaimWorkItemsInput!) { claimWorkItems(input: $input) { __typename
  ... on ClaimWorkItemsSuccess { items { id version } conflicts } } }`;
const COMPLETE = `mutation ($input: CompleteWorkItemInput!) { completeWorkItem(input: $input) { __typename } }`;

async function data(
  api: AppProcess,
  query: string,
  variables: Record<string, unknown>,
  key: 'service' | 'worker',
): Promise<any> {
  const body = await api.gql(query, variables, { key });
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data;
}

function liveRunning(db: Db, kind: string): Promise<number> {
  return db
    .collection('workItems')
    .countDocuments({ kind, status: 'PROCESSING', $expr: { $gt: ['$leaseExpiresAt', '$$NOW'] } });
}

describe("W5: a kind's concurrency limit holds across API processes", () => {
  let apis: AppProcess[] = [];
  let client: MongoClient;
  let db: Db;
  const dbName = `test_kindLimits_${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    const env = { WORK_KIND_LIMITS: `LIMITED=${LIMIT}`, RATE_LIMITS: 'off' };
    apis = await Promise.all(
      [0, 1].map(() => startAppProcess({ mongoUri: testMongoUri(), dbName, env, startTimeoutMs: START_TIMEOUT_MS })),
    );
    client = new MongoClient(testMongoUri());
    db = client.db(dbName);
  }, START_TIMEOUT_MS * 2);
  afterAll(async () => {
    await Promise.all(apis.map((api) => api.stop()));
    await db?.dropDatabase().catch(() => undefined);
    await client?.close();
  });

  it(`never has more than ${LIMIT} LIMITED items running, with four workers on two processes`, async () => {
    for (let i = 0; i < ITEMS; i++) {
      expect(
        (await data(apis[i % 2]!, CREATE, { input: { kind: 'LIMITED', idempotencyKey: `l-${i}` } }, 'service'))
          .createWorkItem.__typename,
      ).toBe('CreateWorkItemSuccess');
    }
    const samples: number[] = [];
    let done = 0;
    const worker = async (api: AppProcess, workerId: string) => {
      for (let idle = 0; done < ITEMS && idle < 200; ) {
        const answer = (
          await data(api, CLAIM_MANY, { input: { kinds: ['LIMITED'], workerId, max: 2, leaseSeconds: 30 } }, 'worker')
        ).claimWorkItems;
        const items: { id: string; version: number }[] =
          answer.__typename === 'ClaimWorkItemsSuccess' ? answer.items : [];
        if (items.length === 0) idle++;
        await Promise.all(
          items.map(async (item) => {
            samples.push(await liveRunning(db, 'LIMITED'));
            const completed = await data(
              api,
              COMPLETE,
              { input: { id: item.id, workerId, version: item.version, outcome: 'DONE' } },
              'worker',
            );
            expect(completed.completeWorkItem.__typename).toBe('CompleteSuccess');
            done++;
          }),
        );
      }
    };
    await Promise.all([0, 1, 2, 3].map((i) => worker(apis[i % 2]!, `w${i}`)));
    expect(done).toBe(ITEMS);
    expect(Math.max(...samples)).toBeLessThanOrEqual(LIMIT);
    // The limit was reached: the workers did run items side by side.
    expect(Math.max(...samples)).toBe(LIMIT);
    expect(await db.collection('workItems').countDocuments({ kind: 'LIMITED', status: 'DONE' })).toBe(ITEMS);
    // Every place was given back by its completion.
    expect((await db.collection('workKindLimits').findOne({ _id: 'LIMITED' as never }))?.['running']).toEqual([]);
  }, 60_000);
});

describe('W5 in one process: places taken by every claim path, given back by completion and by lease expiry', () => {
  let h: WorkHarness;
  beforeAll(async () => {
    h = await openWorkHarness('kindLimits');
    await setKindLimits(h.db.db, { ONE: 1 });
  });
  afterAll(async () => {
    await h.close();
  });

  it('lets one ONE item run at a time, through claimWorkItem and claimWorkItems, until completion frees the place', async () => {
    for (let i = 0; i < 3; i++)
      await h.service.create({ kind: 'ONE', payload: null, idempotencyKey: `one-${i}`, maxAttempts: 3 });
    const first = await h.service.claimMany({ kinds: ['ONE'], workerId: 'a', max: 3, leaseSeconds: 30 });
    if (first.kind !== 'claimWorkItemsSuccess') throw new Error(first.kind);
    expect(first.items).toHaveLength(1);
    expect((await h.service.claimMany({ kinds: ['ONE'], workerId: 'b', max: 3, leaseSeconds: 30 })).kind).toBe(
      'nothingToClaim',
    );
    expect((await h.service.claim({ workerId: 'b', kinds: ['ONE'], leaseSeconds: 30 })).kind).toBe('nothingToClaim');
    expect((await h.service.claim({ workerId: 'b', leaseSeconds: 30 })).kind).toBe('nothingToClaim');
    const [held] = first.items;
    const beat = await h.service.heartbeat({ id: held!._id, workerId: 'a', version: held!.version });
    if (beat.kind !== 'heartbeatSuccess') throw new Error(beat.kind);
    expect(beat.item.leaseExpiresAt!.getTime()).toBeGreaterThan(held!.leaseExpiresAt!.getTime());
    // The place's lease follows the item's, or a live item could lose its place to another claim.
    const place = await h.db.db.collection('workKindLimits').findOne({ _id: 'ONE' as never });
    expect(place?.['running']).toEqual([{ itemId: held!._id, leaseExpiresAt: beat.item.leaseExpiresAt }]);
    expect(
      (await h.service.complete({ id: held!._id, workerId: 'a', version: held!.version, outcome: 'DONE' })).kind,
    ).toBe('completeSuccess');
    expect(await h.service.claim({ workerId: 'b', kinds: ['ONE'], leaseSeconds: 1 })).toMatchObject({
      kind: 'claimSuccess',
      item: { kind: 'ONE', lockedBy: 'b' },
    });
  });

  it('workQueueStats shows waiting, delayed and running per kind, with the limit', async () => {
    await h.service.create({ kind: 'STATS', payload: null, idempotencyKey: 'stats-due', maxAttempts: 3 });
    await h.service.create({ kind: 'STATS', payload: null, idempotencyKey: 'stats-due-2', maxAttempts: 3 });
    await h.service.create({
      kind: 'STATS',
      payload: null,
      idempotencyKey: 'stats-later',
      maxAttempts: 3,
      runAt: new Date(Date.now() + 3_600_000),
    });
    expect((await h.service.claim({ workerId: 's', kinds: ['STATS'], leaseSeconds: 30 })).kind).toBe('claimSuccess');
    const stats = await h.service.stats();
    expect(stats.kinds.find((k) => k.kind === 'STATS')).toEqual({
      kind: 'STATS',
      waiting: 1,
      delayed: 1,
      running: 1,
      capped: false,
      limit: null,
    });
    expect(stats.kinds.find((k) => k.kind === 'ONE')).toMatchObject({ running: 1, limit: 1 });
  });

  it('frees the place of a worker that never comes back once its lease expires on the database clock', async () => {
    // b holds the one place with a 1 s lease (previous test) and never heartbeats.
    expect((await h.service.claimMany({ kinds: ['ONE'], workerId: 'c', max: 1, leaseSeconds: 30 })).kind).toBe(
      'nothingToClaim',
    );
    await expect
      .poll(async () => (await h.service.claimMany({ kinds: ['ONE'], workerId: 'c', max: 1, leaseSeconds: 30 })).kind, {
        timeout: 5_000,
        interval: 100,
      })
      .toBe('claimWorkItemsSuccess');
  });
});

describe('WORK_KIND_LIMITS', () => {
  it('reads KIND=limit pairs and refuses anything else, naming the entry', () => {
    expect(parseWorkKindLimits('PAYOUT=8, EMAIL=2')).toEqual({ ok: true, limits: { PAYOUT: 8, EMAIL: 2 } });
    expect(parseWorkKindLimits('')).toEqual({ ok: true, limits: {} });
    expect(parseWorkKindLimits('PAYOUT=0')).toMatchObject({ ok: false, error: expect.stringContaining('entry 1') });
    expect(parseWorkKindLimits('PAYOUT=2,bad kind=1')).toMatchObject({
      ok: false,
      error: expect.stringContaining('entry 2'),
    });
  });
});
