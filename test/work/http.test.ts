import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/observability/logger.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { CLAIM_BY_ID, CREATE, callAs } from './support/workGql.ts';

// The work-item API end to end: W1 through 32 concurrent HTTP requests with the conflict count
// read from /metrics, the roles of docs/design.md, input validation, replays, stats and the
// correlated claim/complete log lines.

const logLines: Record<string, unknown>[] = [];
const logSink = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
    done();
  },
});

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ logger: createLogger({ level: 'info', destination: logSink }) });
});
afterAll(async () => {
  await app.close();
});

async function metricValue(name: string, labels: string): Promise<number> {
  const text = await (await fetch(app.url.replace('/graphql', '/metrics'))).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}}`));
  return line === undefined ? 0 : Number(line.split(' ').at(-1));
}

async function createItem(key: string, kind = 'HTTP_RACE'): Promise<string> {
  const data = await callAs(app, 'service')(CREATE, { input: { kind, payload: { key }, idempotencyKey: key } });
  expect(data.createWorkItem.__typename).toBe('CreateWorkItemSuccess');
  return data.createWorkItem.item.id;
}

describe('work items over HTTP', () => {
  it('W1: 32 concurrent HTTP claims of one item give one ClaimSuccess and 31 ConflictLost, counted on /metrics', async () => {
    const id = await createItem('http-w1');
    const conflictsBefore = await metricValue('claim_conflict_total', 'operation="claim",kind="HTTP_RACE"');
    const worker = callAs(app, 'worker');
    const answers = await Promise.all(
      Array.from({ length: 32 }, (_, i) => worker(CLAIM_BY_ID, { input: { id, workerId: `h${i}` } })),
    );
    const kinds = answers.map((a) => a.claimWorkItem.__typename);
    expect(kinds.filter((k) => k === 'ClaimSuccess')).toHaveLength(1);
    expect(kinds.filter((k) => k === 'ConflictLost')).toHaveLength(31);
    const winner = answers.find((a) => a.claimWorkItem.__typename === 'ClaimSuccess')!.claimWorkItem.item;
    for (const a of answers.filter((x) => x.claimWorkItem.__typename === 'ConflictLost')) {
      expect(a.claimWorkItem).toMatchObject({
        operation: 'claim',
        item: { status: 'PROCESSING', version: 2, lockedBy: winner.lockedBy },
      });
    }
    expect(await metricValue('claim_conflict_total', 'operation="claim",kind="HTTP_RACE"')).toBe(conflictsBefore + 31);
    expect(await metricValue('work_item_transitions_total', 'from="PENDING",to="PROCESSING"')).toBeGreaterThanOrEqual(
      1,
    );
  });

  it('logs each claim and completion with workItemId, readStatus, writeStatus, version and workerId', async () => {
    const id = await createItem('http-log', 'HTTP_LOG');
    const worker = callAs(app, 'worker');
    const claim = await worker(CLAIM_BY_ID, { input: { id, workerId: 'logger' } });
    await worker(`mutation ($input: CompleteWorkItemInput!) { completeWorkItem(input: $input) { __typename } }`, {
      input: { id, workerId: 'logger', version: claim.claimWorkItem.item.version, outcome: 'DONE', result: null },
    });
    const traced = logLines
      .filter((l) => l['workItemId'] === id)
      .map((l) => ({
        operation: l['operation'],
        readStatus: l['readStatus'],
        writeStatus: l['writeStatus'],
        version: l['version'],
        workerId: l['workerId'],
      }));
    expect(traced).toEqual([
      { operation: 'claim', readStatus: 'PENDING', writeStatus: 'PROCESSING', version: 2, workerId: 'logger' },
      { operation: 'complete', readStatus: 'PROCESSING', writeStatus: 'DONE', version: 3, workerId: 'logger' },
    ]);
  });

  it('replays a completion as DuplicateReplayed carrying the original CompleteSuccess', async () => {
    const id = await createItem('http-w4');
    const worker = callAs(app, 'worker');
    const claim = await worker(CLAIM_BY_ID, { input: { id, workerId: 'r' } });
    const complete = `mutation ($input: CompleteWorkItemInput!) { completeWorkItem(input: $input) {
      __typename ... on DuplicateReplayed { requestId original { __typename ... on CompleteSuccess { item { status } } } } } }`;
    const input = { id, workerId: 'r', version: claim.claimWorkItem.item.version, outcome: 'DONE', result: { n: 1 } };
    expect((await worker(complete, { input })).completeWorkItem.__typename).toBe('CompleteSuccess');
    expect((await worker(complete, { input })).completeWorkItem).toEqual({
      __typename: 'DuplicateReplayed',
      requestId: `${id}:r:${input.version}`,
      original: { __typename: 'CompleteSuccess', item: { status: 'DONE' } },
    });
    expect((await worker(complete, { input: { ...input, result: { n: 2 } } })).completeWorkItem.__typename).toBe(
      'ConflictLost',
    );
  });

  it('enforces the roles table: dashboard cannot create, worker cannot requeue', async () => {
    const create = await app.gql(
      CREATE,
      { input: { kind: 'X', payload: null, idempotencyKey: 'denied' } },
      { key: 'dashboard' },
    );
    expect(create.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const requeue = await app.gql(
      `mutation { requeueWorkItem(input: { id: "${'0'.repeat(24)}", version: 1 }) { __typename } }`,
      {},
      { key: 'worker' },
    );
    expect(requeue.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const ops = await app.gql(
      `mutation { requeueWorkItem(input: { id: "${'0'.repeat(24)}", version: 1 }) { __typename } }`,
      {},
      { key: 'ops' },
    );
    expect(ops.data?.requeueWorkItem.__typename).toBe('WorkItemNotFound');
  });

  it('refuses bad input as BAD_USER_INPUT, not as a union member', async () => {
    const bad = await app.gql(
      CLAIM_BY_ID,
      { input: { id: 'not-an-id', workerId: 'x', leaseSeconds: 0 } },
      { key: 'worker' },
    );
    expect(bad.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(bad.errors?.[0]?.message).toMatch(/id: .*ObjectId/);
  });

  it('reports queue stats per status and kind, with conflicts since start', async () => {
    const stats = async () =>
      (
        await callAs(
          app,
          'dashboard',
        )(`{ workQueueStats { counts { status kind count } oldestPendingAgeSeconds conflictsSinceStart } }`)
      ).workQueueStats;
    const before = await stats();
    // Conflicts of its own, whatever ran before: one claim wins, three later claims of the same item lose.
    const raced = await createItem('http-stats-raced', 'HTTP_STATS_RACED');
    const worker = callAs(app, 'worker');
    expect(
      (await worker(CLAIM_BY_ID, { input: { id: raced, workerId: 'stats-first' } })).claimWorkItem.__typename,
    ).toBe('ClaimSuccess');
    for (let i = 0; i < 3; i++) {
      expect(
        (await worker(CLAIM_BY_ID, { input: { id: raced, workerId: `stats-late-${i}` } })).claimWorkItem.__typename,
      ).toBe('ConflictLost');
    }
    await createItem('http-stats', 'HTTP_STATS');
    const after = await stats();
    expect(after.counts).toContainEqual({ status: 'PENDING', kind: 'HTTP_STATS', count: 1 });
    expect(after.counts).toContainEqual({ status: 'PROCESSING', kind: 'HTTP_STATS_RACED', count: 1 });
    expect(after.oldestPendingAgeSeconds).toBeGreaterThanOrEqual(0);
    expect(after.conflictsSinceStart).toBe(before.conflictsSinceStart + 3);
  });
});
