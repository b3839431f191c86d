// The dashboards' work-item queries: `workItems` filtered by status, kind, creation range and
// client key (creation order, cursor pages, capped totalCount), `workItemByKey`, `payoutFor`, and
// `workQueueStats` from index walks alone: the commands it sends are finds and counts, never an
// aggregation, and every one names its index (refused when that index is dropped).
import { Registry } from 'prom-client';
import { pino } from 'pino';
import { ObjectId, type CommandStartedEvent } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkService, createWorkTelemetry, ensureWorkItemIndexes } from '../../src/work/index.ts';
import { ReadIndex } from '../../src/work/queries.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { connectTestDb, type TestDb } from '../support/mongo.ts';
import { deposit, openAccount, withdraw } from '../support/callers.ts';
import { claimAndComplete, createItem } from '../fanout/support/streamsTest.ts';
import { databaseClockPasses, waitFor } from '../support/waiting.ts';

const ITEMS = `query ($status: WorkItemStatus, $kind: String, $createdFrom: DateTime, $createdTo: DateTime, $key: String, $first: Int!, $after: String) {
  workItems(status: $status, kind: $kind, createdFrom: $createdFrom, createdTo: $createdTo, key: $key, first: $first, after: $after) {
    items { id kind status idempotencyKey } endCursor hasNextPage totalCount totalCountCapped
  }
}`;

describe('dashboard work-item queries', () => {
  let app: TestApp;
  const ids: Record<string, string> = {};
  let middle: string;
  beforeAll(async () => {
    app = await startTestApp({ env: { SEED_DEMO: '0' } });
    ids['a1'] = await createItem(app, 'dq-a', 'dq-a1');
    ids['b1'] = await createItem(app, 'dq-b', 'dq-b1');
    // The range bound sits just after b1's own stamp (the query bounds createdAt exactly; its _id
    // bound has seconds of slack), and the next items are created once the database clock, which
    // stamps createdAt ($$NOW), has passed it.
    const b1 = await app.db.collection<{ createdAt: Date }>('workItems').findOne({ _id: new ObjectId(ids['b1']) });
    const bound = new Date(b1!.createdAt.getTime() + 1);
    await databaseClockPasses(app.db, bound);
    middle = bound.toISOString();
    ids['a2'] = await createItem(app, 'dq-a', 'dq-a2');
    ids['a3'] = await createItem(app, 'dq-a', 'dq-a3');
    await claimAndComplete(app, ids['a2']!, 'dq-worker');
  });
  afterAll(async () => {
    await app?.close();
  });

  const items = async (variables: Record<string, unknown>) => {
    const res = await app.gql(ITEMS, { first: 100, ...variables }, { key: 'dashboard' });
    expect(res.errors).toBeUndefined();
    return res.data.workItems as {
      items: Array<{ id: string; kind: string; status: string }>;
      endCursor: string | null;
      hasNextPage: boolean;
      totalCount: number;
      totalCountCapped: boolean;
    };
  };

  it('filters by status, kind, creation range and key, oldest first, with a count', async () => {
    expect((await items({ kind: 'dq-a' })).items.map((item) => item.id)).toEqual([ids['a1'], ids['a2'], ids['a3']]);
    expect(await items({ kind: 'dq-a', status: 'PENDING' })).toMatchObject({
      items: [{ id: ids['a1'] }, { id: ids['a3'] }],
      totalCount: 2,
      totalCountCapped: false,
    });
    expect((await items({ status: 'DONE' })).items.map((item) => item.id)).toEqual([ids['a2']]);
    expect((await items({ createdTo: middle })).items.map((item) => item.id)).toEqual([ids['a1'], ids['b1']]);
    expect((await items({ createdFrom: middle, kind: 'dq-a' })).items.map((item) => item.id)).toEqual([
      ids['a2'],
      ids['a3'],
    ]);
    expect((await items({ key: 'dq-b1' })).items.map((item) => item.id)).toEqual([ids['b1']]);
    expect((await items({ key: 'dq-b1', kind: 'dq-a' })).items).toEqual([]);
    const first = await items({ first: 2 });
    const rest = await items({ first: 100, after: first.endCursor });
    expect([...first.items, ...rest.items].map((item) => item.id)).toEqual([
      ids['a1'],
      ids['b1'],
      ids['a2'],
      ids['a3'],
    ]);
    expect(first).toMatchObject({ hasNextPage: true, totalCount: 4 });
  });

  it('finds an item by its client key, and a withdrawal’s payout', async () => {
    const byKey = await app.gql(
      `{ workItemByKey(idempotencyKey: "dq-a3") { id idempotencyKey } }`,
      {},
      { key: 'dashboard' },
    );
    expect(byKey.data.workItemByKey).toEqual({ id: ids['a3'], idempotencyKey: 'client:dq-a3' });
    expect(
      (await app.gql(`{ workItemByKey(idempotencyKey: "nope") { id } }`, {}, { key: 'dashboard' })).data.workItemByKey,
    ).toBeNull();

    await openAccount(app, 'dq-acct');
    await deposit(app, 'dq-acct', 100, 'dq-fund');
    expect(await withdraw(app, 'dq-acct', 40, 'dq-payout')).toBe('WithdrawSuccess');
    const entryId = (await app.gql(`{ ledgerEntry(requestId: "dq-payout") { id } }`, {}, { key: 'dashboard' })).data
      .ledgerEntry.id as string;
    const payout = await waitFor(
      async () =>
        (
          await app.gql(
            `query ($e: ID!) { payoutFor(entryId: $e) { kind status idempotencyKey } }`,
            { e: entryId },
            { key: 'dashboard' },
          )
        ).data.payoutFor ?? undefined, // null until the projection made it: waitFor waits on undefined
      'the payout item',
    );
    expect(payout).toEqual({ kind: 'PAYOUT', status: 'PENDING', idempotencyKey: `payout:${entryId}` });
  });

  it('reports the queue per status and kind', async () => {
    const stats = (
      await app.gql(
        `{ workQueueStats { counts { status kind count capped } oldestPendingAgeSeconds conflictsSinceStart } }`,
        {},
        { key: 'dashboard' },
      )
    ).data.workQueueStats;
    const mine = stats.counts.filter((count: { kind: string }) => count.kind.startsWith('dq-'));
    expect(mine).toEqual([
      { status: 'DONE', kind: 'dq-a', count: 1, capped: false },
      { status: 'PENDING', kind: 'dq-a', count: 2, capped: false },
      { status: 'PENDING', kind: 'dq-b', count: 1, capped: false },
    ]);
    expect(stats.oldestPendingAgeSeconds).toBeGreaterThan(0);
  });
});

describe('workQueueStats cost', () => {
  let test: TestDb;
  const commands: CommandStartedEvent[] = [];
  beforeAll(async () => {
    test = await connectTestDb('dashboard_work_stats', { monitorCommands: true });
    await ensureWorkItemIndexes(test.db);
    test.client.on('commandStarted', (event) => commands.push(event));
  });
  afterAll(async () => {
    await test?.close();
  });

  it('sends only index-hinted finds and counts (no aggregation), and is refused without its index', async () => {
    const work = createWorkService({
      db: test.db,
      telemetry: createWorkTelemetry(new Registry(), pino({ level: 'silent' })),
    });
    for (const kind of ['k1', 'k2', 'k3'])
      for (let i = 0; i < 3; i++)
        await work.create({ kind, idempotencyKey: `${kind}-${i}`, payload: null, maxAttempts: 1 });
    commands.length = 0;
    const stats = await work.stats();
    expect(stats.counts).toEqual(
      ['k1', 'k2', 'k3'].map((kind) => ({ status: 'PENDING', kind, count: 3, capped: false })),
    );
    const sent = commands.filter((event) => event.commandName !== 'endSessions');
    expect(new Set(sent.map((event) => event.commandName))).toEqual(new Set(['find', 'count']));
    // One seek per kind plus the end of the kinds, the oldest pending item, the kinds' limits, the
    // kinds' group limits, and per kind one seek for its groups of PENDING and of PROCESSING items
    // (none here); one count per (kind, status), and per kind its waiting, delayed and running items.
    expect(sent.filter((event) => event.commandName === 'find')).toHaveLength(3 + 1 + 1 + 1 + 1 + 3 * 2);
    expect(sent.filter((event) => event.commandName === 'count')).toHaveLength(3 * 4 + 3 * 3);
    expect(sent.every((event) => typeof event.command['hint'] === 'string')).toBe(true);

    await test.db.collection('workItems').dropIndex(ReadIndex.kindStatus);
    await expect(work.stats()).rejects.toMatchObject({ codeName: 'BadValue' });
  });
});
