// @module-tag processes
// W9: groups within a kind. A group's limit (WORK_GROUP_LIMITS) holds across two API processes
// (src/main.ts, as `npm start` runs it), and the same scenario run on two services whose group
// places are counted in memory (the mutant) exceeds it; claims take turns across the groups with
// waiting items, so ten items of a small group are not stuck behind a thousand of a big one.
import { randomBytes } from 'node:crypto';
import { MongoClient, ObjectId, type Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppProcess, type AppProcess } from '../support/app.ts';
import { testMongoUri } from '../support/mongo.ts';
import { openWorkHarness, type WorkHarness } from './support/harness.ts';
import { inMemoryGroupLimit } from './support/inMemoryGroupLimit.ts';
import { setGroupLimits } from '../../src/work/groupLimits.ts';

const LIMIT = 2;
const GROUPS = ['merchant-a', 'merchant-b'];
const ITEMS_PER_GROUP = 10;
const START_TIMEOUT_MS = 60_000;

/** What a worker needs of an API: claim a batch, complete one item. */
interface Claimer {
  claimMany(workerId: string, max: number): Promise<{ id: string; version: number; group: string }[]>;
  complete(id: string, workerId: string, version: number): Promise<string>;
}

function liveRunning(db: Db, kind: string, group: string): Promise<number> {
  return db
    .collection('workItems')
    .countDocuments({ kind, group, status: 'PROCESSING', $expr: { $gt: ['$leaseExpiresAt', '$$NOW'] } });
}

/**
 * Four workers over the claimers drain the kind in rounds: in each, all four claim batches of two
 * at once (racing across the processes), then, while every one holds what it got, the items of
 * each group PROCESSING with a live lease are counted in the database, then all complete. Returns
 * the largest count seen.
 */
async function drainSampling(claimers: Claimer[], db: Db, kind: string): Promise<{ maxSeen: number; done: number }> {
  const total = GROUPS.length * ITEMS_PER_GROUP;
  let done = 0;
  let maxSeen = 0;
  const workers = [0, 1, 2, 3].map((i) => ({ api: claimers[i % claimers.length]!, workerId: `w${i}` }));
  for (let round = 0; done < total && round < 100; round++) {
    const held = await Promise.all(
      workers.map(async ({ api, workerId }) => ({ api, workerId, items: await api.claimMany(workerId, 2) })),
    );
    for (const group of GROUPS) maxSeen = Math.max(maxSeen, await liveRunning(db, kind, group));
    await Promise.all(
      held.flatMap(({ api, workerId, items }) =>
        items.map(async (item) => {
          expect(await api.complete(item.id, workerId, item.version)).toBe('completeSuccess');
          done++;
        }),
      ),
    );
  }
  return { maxSeen, done };
}

describe("W9: a group's limit holds across API processes; counted in memory it does not", () => {
  let apis: AppProcess[] = [];
  let client: MongoClient;
  let db: Db;
  const dbName = `test_groups_${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    const env = { WORK_GROUP_LIMITS: `GRP=${LIMIT}`, RATE_LIMITS: 'off' };
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

  const gqlClaimer = (api: AppProcess): Claimer => ({
    async claimMany(workerId, max) {
      const body = await api.gql(
        `mutation ($input: ClaimWorkItemsInput!) { claimWorkItems(input: $input) { __typename ... on ClaimWorkItemsSuccess { items { id version group } } } }`,
        { input: { kinds: ['GRP'], workerId, max, leaseSeconds: 30 } },
        { key: 'worker' },
      );
      if (body.errors) throw new Error(JSON.stringify(body.errors));
      return body.data.claimWorkItems.__typename === 'ClaimWorkItemsSuccess' ? body.data.claimWorkItems.items : [];
    },
    async complete(id, workerId, version) {
      const body = await api.gql(
        `mutation ($input: CompleteWorkItemInput!) { completeWorkItem(input: $input) { __typename } }`,
        { input: { id, workerId, version, outcome: 'DONE' } },
        { key: 'worker' },
      );
      if (body.errors) throw new Error(JSON.stringify(body.errors));
      return body.data.completeWorkItem.__typename === 'CompleteSuccess'
        ? 'completeSuccess'
        : body.data.completeWorkItem.__typename;
    },
  });

  it(`never runs more than ${LIMIT} items of a group at once, with four workers on two processes`, async () => {
    for (const group of GROUPS) {
      for (let i = 0; i < ITEMS_PER_GROUP; i++) {
        const body = await apis[i % 2]!.gql(
          `mutation ($input: CreateWorkItemInput!) { createWorkItem(input: $input) { __typename ... on CreateWorkItemSuccess { item { group } } } }`,
          { input: { kind: 'GRP', idempotencyKey: `${group}-${i}`, group } },
          { key: 'service' },
        );
        expect(body.data?.createWorkItem).toEqual({ __typename: 'CreateWorkItemSuccess', item: { group } });
      }
    }
    const stats = await apis[0]!.gql(
      `{ workQueueStats { groups { kind group waiting running limit } } }`,
      {},
      { key: 'dashboard' },
    );
    expect(stats.data.workQueueStats.groups).toEqual(
      GROUPS.map((group) => ({ kind: 'GRP', group, waiting: ITEMS_PER_GROUP, running: 0, limit: LIMIT })),
    );
    const { maxSeen, done } = await drainSampling(apis.map(gqlClaimer), db, 'GRP');
    expect(done).toBe(GROUPS.length * ITEMS_PER_GROUP);
    expect(maxSeen).toBeLessThanOrEqual(LIMIT);
    // The limit was reached: the workers did run a group's items side by side.
    expect(maxSeen).toBe(LIMIT);
    // Every place was given back by its completion.
    for (const doc of await db.collection('work_group_places').find({}).toArray()) expect(doc['running']).toEqual([]);
  }, 90_000);

  it("the same scenario with the limit counted in each process's memory runs more than the limit (the mutant is caught)", async () => {
    const h: WorkHarness = await openWorkHarness('groups_mutant');
    try {
      await setGroupLimits(h.db.db, { GRP: LIMIT });
      for (const group of GROUPS) {
        for (let i = 0; i < ITEMS_PER_GROUP; i++)
          await h.service.create({
            kind: 'GRP',
            payload: null,
            idempotencyKey: `${group}-${i}`,
            maxAttempts: 3,
            group,
          });
      }
      const mutants = await h.services(2, {}, inMemoryGroupLimit);
      const claimers = mutants.map(
        (service): Claimer => ({
          async claimMany(workerId, max) {
            const result = await service.claimMany({ kinds: ['GRP'], workerId, max, leaseSeconds: 30 });
            return result.kind === 'claimWorkItemsSuccess'
              ? result.items.map((item) => ({ id: item._id.toHexString(), version: item.version, group: item.group! }))
              : [];
          },
          async complete(id, workerId, version) {
            return (
              await service.complete({ id: ObjectId.createFromHexString(id), workerId, version, outcome: 'DONE' })
            ).kind;
          },
        }),
      );
      const { maxSeen } = await drainSampling(claimers, h.db.db, 'GRP');
      expect(maxSeen).toBeGreaterThan(LIMIT);
    } finally {
      await h.close();
    }
  }, 60_000);
});

describe('W9: claims take turns across groups', () => {
  let h: WorkHarness;
  beforeAll(async () => {
    h = await openWorkHarness('groups_fair');
  });
  afterAll(async () => h.close());

  async function createMany(kind: string, group: string, count: number): Promise<void> {
    for (let from = 0; from < count; from += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, count - from) }, (_, i) =>
          h.service.create({
            kind,
            payload: null,
            idempotencyKey: `${kind}-${group}-${from + i}`,
            maxAttempts: 3,
            group,
          }),
        ),
      );
    }
  }

  for (const max of [1, 16, 'claimWorkItem'] as const) {
    it(`claims all 10 of a small group before the 50th of a group of 1,000 that was there first (${max === 'claimWorkItem' ? 'one claimWorkItem at a time' : `batches of ${max}`})`, async () => {
      const kind = `FAIR${max}`;
      await createMany(kind, 'big', 1_000);
      await createMany(kind, 'small', 10);
      const order: string[] = [];
      while (order.filter((g) => g === 'small').length < 10 && order.length < 1_010) {
        if (max === 'claimWorkItem') {
          const one = await h.service.claim({ kinds: [kind], workerId: 'w', leaseSeconds: 60 });
          if (one.kind !== 'claimSuccess') throw new Error(one.kind);
          order.push(one.item.group!);
          continue;
        }
        const result = await h.service.claimMany({ kinds: [kind], workerId: 'w', max, leaseSeconds: 60 });
        if (result.kind !== 'claimWorkItemsSuccess') throw new Error(result.kind);
        order.push(...result.items.map((item) => item.group!));
      }
      const bigBeforeLastSmall = order.slice(0, order.lastIndexOf('small')).filter((g) => g === 'big').length;
      expect(order.filter((g) => g === 'small')).toHaveLength(10);
      expect(bigBeforeLastSmall).toBeLessThan(49);
    }, 120_000);
  }

  it('leaves callers without groups as they were: oldest first within a kind', async () => {
    for (let i = 0; i < 5; i++)
      await h.service.create({ kind: 'PLAIN', payload: null, idempotencyKey: `plain-${i}`, maxAttempts: 3 });
    const claimed = await h.service.claimMany({ kinds: ['PLAIN'], workerId: 'w', max: 4, leaseSeconds: 60 });
    if (claimed.kind !== 'claimWorkItemsSuccess') throw new Error(claimed.kind);
    expect(claimed.items.map((item) => item.idempotencyKey)).toEqual([0, 1, 2, 3].map((i) => `client:plain-${i}`));
    expect(claimed.items.every((item) => item.group === undefined)).toBe(true);
    expect(await h.service.claim({ kinds: ['PLAIN'], workerId: 'w', leaseSeconds: 60 })).toMatchObject({
      kind: 'claimSuccess',
      item: { idempotencyKey: 'client:plain-4' },
    });
  });

  it('a replay with another group is IdempotencyKeyReused', async () => {
    await h.service.create({ kind: 'G', payload: null, idempotencyKey: 'g-1', maxAttempts: 3, group: 'one' });
    expect(
      await h.service.create({ kind: 'G', payload: null, idempotencyKey: 'g-1', maxAttempts: 3, group: 'one' }),
    ).toMatchObject({ kind: 'duplicateReplayed' });
    expect(
      await h.service.create({ kind: 'G', payload: null, idempotencyKey: 'g-1', maxAttempts: 3, group: 'two' }),
    ).toMatchObject({ kind: 'idempotencyKeyReused', field: 'group' });
  });
});
