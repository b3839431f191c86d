// createWorker claims ahead (issue 43): one claim batch beyond its free slots waits in hand, so a
// slot that frees finds an item at once. A prefetched item's lease runs from its claim: these
// tests prove that the worker heartbeats it while it waits (a thief cannot take it past its first
// lease), never starts one whose lease may have run out (its heartbeats unanswered), and, draining
// a backlog with two prefetching workers, runs every item once and never while a lease on it is
// held by another run.
import { ObjectId } from 'mongodb';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createClient,
  createWorker,
  type PreconditionClient,
  type Worker,
  type WorkerItem,
} from '../../packages/sdk/src/index.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
let service: PreconditionClient;
let workerClient: PreconditionClient;
const workers: Worker[] = [];

beforeAll(async () => {
  app = await startTestApp({ env: { RATE_LIMITS: 'off' } });
  service = createClient({ url: app.url, apiKey: app.keys.service });
  workerClient = createClient({ url: app.url, apiKey: app.keys.worker, webSocketImpl: WebSocket });
});
afterAll(async () => {
  await Promise.all(workers.map((w) => w.close({ timeoutMs: 100 })));
  await workerClient?.close();
  await app?.close();
});

async function create(kind: string, key: string): Promise<string> {
  const created = await service.createWorkItem({ kind, idempotencyKey: key, payload: { key }, maxAttempts: 3 });
  if (created.__typename !== 'CreateWorkItemSuccess') throw new Error(created.__typename);
  return created.item.id;
}

async function stored(id: string) {
  const doc = await app.db.collection('workItems').findOne({ _id: new ObjectId(id) });
  if (!doc) throw new Error(`no item ${id}`);
  return doc as unknown as { status: string; lockedBy: string | null; history: Array<{ to: string }> };
}

/** Whether the database clock has passed `at` (a lease end read from a claim). */
async function serverClockPast(id: string, at: string): Promise<boolean> {
  return (
    (await app.db
      .collection('workItems')
      .countDocuments({ _id: new ObjectId(id), $expr: { $gt: ['$$NOW', new Date(at)] } })) === 1
  );
}

/** Another worker's claim of the item by id: ClaimSuccess only once its lease has ended. */
async function thiefClaims(id: string): Promise<string> {
  const body = await app.gql(
    `mutation ($input: ClaimWorkItemInput!) { claimWorkItem(input: $input) { __typename } }`,
    { input: { workerId: 'thief', id, leaseSeconds: 60 } },
    { key: 'worker' },
  );
  return body.data?.claimWorkItem.__typename;
}

/**
 * One slot, one item prefetched: the first item's handler holds the slot until `release()`, the
 * second waits in hand. Leases of 4 s (a heartbeat tick of 667 ms), so the wait can outlast a lease.
 */
function blockedWorker(kind: string, client: PreconditionClient) {
  const started: string[] = [];
  const claimed = new Map<string, WorkerItem>();
  const lost: string[] = [];
  let release: () => void = () => undefined;
  const worker = createWorker({
    client,
    kinds: [kind],
    concurrency: 1,
    prefetch: 1,
    leaseSeconds: 4,
    subscribe: false,
    poll: { minMs: 20, maxMs: 100 },
    handler: ({ item }) => {
      started.push(item.id);
      return started.length === 1 ? new Promise<string>((resolve) => (release = () => resolve('first'))) : 'second';
    },
    on: {
      claimed: ({ item }) => void claimed.set(item.id, item),
      leaseLost: ({ item, reason }) => void lost.push(`${item.id}: ${reason}`),
    },
  });
  workers.push(worker);
  return { worker, started, claimed, lost, release: () => release() };
}

describe('createWorker with prefetch', () => {
  it('heartbeats a prefetched item while it waits, so no other worker takes it past its first lease, and runs it once', {
    timeout: 60_000,
  }, async () => {
    const first = await create('W_PREFETCH_BEAT', 'beat-1');
    const second = await create('W_PREFETCH_BEAT', 'beat-2');
    const w = blockedWorker('W_PREFETCH_BEAT', workerClient);
    await expect.poll(() => w.started.length === 1 && w.worker.waiting === 1, { timeout: 20_000 }).toBe(true);
    expect(w.started).toEqual([first]);
    // The database clock passes the lease the claim gave the waiting item: only heartbeats keep it.
    await expect
      .poll(() => serverClockPast(second, w.claimed.get(second)!.leaseExpiresAt!), { timeout: 20_000, interval: 100 })
      .toBe(true);
    expect(await thiefClaims(second)).toBe('ConflictLost');
    w.release();
    await expect.poll(async () => (await stored(second)).status, { timeout: 20_000 }).toBe('DONE');
    expect(w.started).toEqual([first, second]);
    expect(w.lost).toEqual([]);
    expect((await stored(second)).history.filter((step) => step.to === 'PROCESSING')).toHaveLength(1);
    await w.worker.close();
  });

  it('never starts a prefetched item whose lease may have run out while its heartbeats went unanswered', {
    timeout: 60_000,
  }, async () => {
    const first = await create('W_PREFETCH_LAPSE', 'lapse-1');
    const second = await create('W_PREFETCH_LAPSE', 'lapse-2');
    // The API never hears this worker's heartbeats.
    const deaf = new Proxy(workerClient, {
      get(target, property, receiver) {
        if (property === 'heartbeatWorkItems') return () => Promise.reject(new Error('network down'));
        return Reflect.get(target, property, receiver);
      },
    });
    const w = blockedWorker('W_PREFETCH_LAPSE', deaf);
    await expect.poll(() => w.started.length === 1 && w.worker.waiting === 1, { timeout: 20_000 }).toBe(true);
    await expect
      .poll(() => serverClockPast(second, w.claimed.get(second)!.leaseExpiresAt!), { timeout: 20_000, interval: 100 })
      .toBe(true);
    // Another worker may now take it (and run it): this one must not run it too.
    expect(await thiefClaims(second)).toBe('ClaimSuccess');
    w.release();
    await expect.poll(() => w.lost.map((entry) => entry.split(':')[0]), { timeout: 5_000 }).toEqual([second]);
    await expect.poll(() => w.worker.waiting + w.worker.running).toBe(0);
    expect(w.started).toEqual([first]);
    expect(await stored(second)).toMatchObject({ status: 'PROCESSING', lockedBy: 'thief' });
    await w.worker.close();
  });

  it('drains a backlog with two prefetching workers: every item runs once, never while another run holds it', {
    timeout: 120_000,
  }, async () => {
    const items = 64;
    const ids = await Promise.all(Array.from({ length: items }, (_, i) => create('W_PREFETCH_DRAIN', `drain-${i}`)));
    const runs = new Map<string, number>();
    const runningNow = new Set<string>();
    const problems: string[] = [];
    const overlaps: string[] = [];
    let mostWaiting = 0;
    const drainers = [0, 1].map(() => {
      const worker: Worker = createWorker({
        client: workerClient,
        kinds: ['W_PREFETCH_DRAIN'],
        concurrency: 4,
        subscribe: false,
        poll: { minMs: 10, maxMs: 50 },
        on: {
          leaseLost: ({ item, reason }) => void problems.push(`lost ${item.id}: ${reason}`),
          error: ({ error }) => void problems.push(String(error)),
        },
        handler: async ({ item }) => {
          if (runningNow.has(item.id)) overlaps.push(item.id);
          runningNow.add(item.id);
          runs.set(item.id, (runs.get(item.id) ?? 0) + 1);
          mostWaiting = Math.max(mostWaiting, worker.waiting);
          await new Promise((resolve) => setTimeout(resolve, 2));
          runningNow.delete(item.id);
          return { by: worker.workerId };
        },
      });
      workers.push(worker);
      return worker;
    });
    await expect
      .poll(async () => app.db.collection('workItems').countDocuments({ kind: 'W_PREFETCH_DRAIN', status: 'DONE' }), {
        timeout: 90_000,
        interval: 200,
      })
      .toBe(items);
    await Promise.all(drainers.map((worker) => worker.close()));
    expect(problems).toEqual([]);
    expect(overlaps).toEqual([]);
    expect([...runs.values()].every((count) => count === 1)).toBe(true);
    expect(runs.size).toBe(items);
    // Items did wait in hand: the prefetch was used, not just allowed.
    expect(mostWaiting).toBeGreaterThan(0);
    for (const id of ids) expect((await stored(id)).history.filter((step) => step.to === 'PROCESSING')).toHaveLength(1);
  });
});
