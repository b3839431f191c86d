// createWorker against a real app (HTTP + WebSocket): it claims in batches, wakes on
// workItemStatusChanged rather than its (here: one-minute) poll, completes with the handler's
// result or fails it, notices a lease taken over mid-handler (signal aborted, never completed
// after), and closes gracefully: running handlers finish, or are given up and their items released.
import { ObjectId } from 'mongodb';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createClient,
  createWorker,
  type PreconditionClient,
  type Worker,
  type WorkerEvents,
} from '../../packages/sdk/src/index.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { subscriberCount } from '../fanout/support/streamsTest.ts';

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

async function create(kind: string, key: string, maxAttempts = 3): Promise<string> {
  const created = await service.createWorkItem({ kind, idempotencyKey: key, payload: { key }, maxAttempts });
  if (created.__typename !== 'CreateWorkItemSuccess') throw new Error(created.__typename);
  return created.item.id;
}

async function item(id: string) {
  const found = await service.workItem(id);
  if (!found) throw new Error(`no item ${id}`);
  return found;
}

function recorder(worker: Worker) {
  const seen = {
    claimed: [] as string[],
    completed: [] as string[],
    failed: [] as string[],
    leaseLost: [] as string[],
    errors: [] as unknown[],
  };
  worker.on('claimed', (e: WorkerEvents['claimed']) => seen.claimed.push(e.item.id));
  worker.on('completed', (e) => seen.completed.push(e.item.id));
  worker.on('failed', (e) => seen.failed.push(e.item.id));
  worker.on('leaseLost', (e) => seen.leaseLost.push(e.item.id));
  worker.on('error', (e) => seen.errors.push(e.error));
  return seen;
}

/** A poll so slow that only the subscription can wake the worker within a test's patience. */
const NO_POLL = { minMs: 60_000, maxMs: 60_000 };

describe('createWorker', () => {
  it("claims in batches up to its concurrency and completes each item with its handler's result", async () => {
    const ids = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => create('W_BATCH', `batch-${i}`)));
    let inFlight = 0;
    let mostInFlight = 0;
    const worker = createWorker({
      client: workerClient,
      kinds: ['W_BATCH'],
      concurrency: 3,
      leaseSeconds: 30,
      handler: async ({ item, attempt, fencingToken }) => {
        mostInFlight = Math.max(mostInFlight, ++inFlight);
        await new Promise((resolve) => setImmediate(resolve));
        inFlight--;
        return { handled: (item.payload as { key: string }).key, attempt, fencingToken };
      },
    });
    workers.push(worker);
    const seen = recorder(worker);
    await expect.poll(() => seen.completed.length, { timeout: 15_000 }).toBe(6);
    expect(mostInFlight).toBeLessThanOrEqual(3);
    for (const id of ids) {
      const done = await item(id);
      expect(done).toMatchObject({ status: 'DONE', lockedBy: null });
      expect(done.result).toMatchObject({
        handled: (done.payload as { key: string }).key,
        attempt: 1,
        fencingToken: done.version - 1,
      });
    }
    await worker.close();
  });

  it('wakes on workItemStatusChanged for its kinds instead of waiting for its poll', async () => {
    const before = subscriberCount(app);
    const worker = createWorker({ client: workerClient, kinds: ['W_WAKE'], poll: NO_POLL, handler: () => 'woken' });
    workers.push(worker);
    const seen = recorder(worker);
    // Its first claim finds nothing; then it naps for a minute unless an event wakes it.
    await expect.poll(() => subscriberCount(app), { timeout: 5_000 }).toBeGreaterThan(before);
    const id = await create('W_WAKE', 'wake-1');
    await expect.poll(() => seen.completed, { timeout: 10_000 }).toEqual([id]);
    await worker.close();
  });

  it("fails an item whose handler throws: back to PENDING with the server's backoff, then dead-lettered", async () => {
    const id = await create('W_FAIL', 'fail-1', 1);
    const worker = createWorker({
      client: workerClient,
      kinds: ['W_FAIL'],
      handler: () => {
        throw new Error('provider said no');
      },
    });
    workers.push(worker);
    const seen = recorder(worker);
    await expect.poll(() => seen.failed, { timeout: 10_000 }).toEqual([id]);
    expect(await item(id)).toMatchObject({ status: 'FAILED', result: { error: 'provider said no' } });
    await worker.close();
  });

  it("aborts the handler's signal when its lease is taken over mid-handler, and never completes it", async () => {
    const id = await create('W_LOST', 'lost-1');
    let signal: AbortSignal | undefined;
    let finishedAfterAbort = false;
    // Every completion the worker sends, seen on its way out.
    const completions: string[] = [];
    const watched = new Proxy(workerClient, {
      get(target, property, receiver) {
        if (property === 'completeWorkItem')
          return (input: { id: string }) => (completions.push(input.id), target.completeWorkItem(input as never));
        if (property === 'completeWorkItems')
          return (input: { items: Array<{ id: string }> }) => (
            completions.push(...input.items.map((i) => i.id)), target.completeWorkItems(input as never)
          );
        return Reflect.get(target, property, receiver);
      },
    });
    const worker = createWorker({
      client: watched,
      kinds: ['W_LOST'],
      leaseSeconds: 3, // a heartbeat every second
      handler: async (context) => {
        signal = context.signal;
        await new Promise((resolve) => context.signal.addEventListener('abort', resolve, { once: true }));
        finishedAfterAbort = true;
        return 'too late';
      },
    });
    workers.push(worker);
    const seen = recorder(worker);
    await expect.poll(() => signal !== undefined, { timeout: 10_000 }).toBe(true);
    // Another worker takes the item over, as after a lease expiry: the lease is ended by the
    // database clock and a claim by id at its version wins it.
    // A heartbeat landing between the two writes extends the lease again: then end it again.
    const held = await item(id);
    const takeOver = async () => {
      await app.db
        .collection('workItems')
        .updateOne({ _id: new ObjectId(id) }, [{ $set: { leaseExpiresAt: '$$NOW' } }]);
      const taken = await app.gql(
        `mutation ($input: ClaimWorkItemInput!) { claimWorkItem(input: $input) { __typename } }`,
        {
          input: { workerId: 'thief', id, expectedVersion: held.version, leaseSeconds: 60 },
        },
        { key: 'worker' },
      );
      return taken.data?.claimWorkItem.__typename;
    };
    await expect.poll(takeOver, { timeout: 5_000 }).toBe('ClaimSuccess');
    await expect.poll(() => signal!.aborted, { timeout: 5_000 }).toBe(true);
    expect(seen.leaseLost).toEqual([id]);
    await expect.poll(() => finishedAfterAbort).toBe(true);
    await expect.poll(() => worker.running).toBe(0);
    // The handler returned, yet nothing was completed: the thief holds the item untouched.
    expect(await item(id)).toMatchObject({ status: 'PROCESSING', lockedBy: 'thief', result: null });
    expect(seen.completed).toEqual([]);
    expect(completions).toEqual([]);
    await worker.close();
  });

  it('close() stops claiming and lets a running handler finish', async () => {
    const id = await create('W_CLOSE', 'close-1');
    let release: () => void = () => undefined;
    const started = new Promise<void>((resolveStarted) => {
      const worker = createWorker({
        client: workerClient,
        kinds: ['W_CLOSE'],
        // No claim ahead: with its one slot busy the worker claims nothing, so an item created
        // after close() stays PENDING (a prefetching worker runs what it claimed before closing).
        prefetch: 0,
        handler: () => {
          resolveStarted();
          return new Promise<string>((resolve) => (release = () => resolve('finished')));
        },
      });
      workers.push(worker);
    });
    await started;
    const worker = workers.at(-1)!;
    const closing = worker.close({ timeoutMs: 10_000 });
    const later = await create('W_CLOSE', 'close-2');
    release();
    await closing;
    expect(await item(id)).toMatchObject({ status: 'DONE', result: 'finished' });
    expect(await item(later)).toMatchObject({ status: 'PENDING', attempts: 0 });
  });

  it('close() past its deadline aborts the handler and releases its item as a failed attempt', async () => {
    const id = await create('W_STUCK', 'stuck-1', 3);
    let signal: AbortSignal | undefined;
    const worker = createWorker({
      client: workerClient,
      kinds: ['W_STUCK'],
      handler: (context) => {
        signal = context.signal;
        return new Promise<string>(() => undefined); // never settles
      },
    });
    workers.push(worker);
    await expect.poll(() => signal !== undefined, { timeout: 10_000 }).toBe(true);
    await worker.close({ timeoutMs: 200 });
    expect(signal!.aborted).toBe(true);
    expect(await item(id)).toMatchObject({ status: 'PENDING', attempts: 1, lockedBy: null });
  });
});
