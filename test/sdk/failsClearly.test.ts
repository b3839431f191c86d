// Proves the SDK fails clearly and keeps subscriptions alive: configuration mistakes throw at once
// from createClient / subscribe naming the option; every error's message carries its cause chain;
// a refused subscription says why (the server's code, message and the roles that may); a
// subscription outlives an outage longer than the mutation policy's five attempts (its own retry
// policy resumes forever by default); and a socket that hangs without closing is found by the
// keep-alive (no pong within the timeout) and the subscription resumes from its last cursor on a
// new socket, no event lost or doubled; so is a socket whose opening handshake is never answered,
// which no ping can reach. The hangs are a TCP proxy that stops forwarding or answering.
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createClient, match, type Event, type PreconditionClient } from '../../packages/sdk/src/index.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { eventually } from '../support/waiting.ts';
import { startTcpProxy, type TcpProxy } from './support/tcpProxy.ts';

type StatusEvent = Event<'workItemStatusChanged'>;

const itemIdOf = (event: StatusEvent) =>
  match(event, {
    WorkItemStatusChanged: (e) => e.itemId,
    ResyncRequired: (e) => `resync ${e.reason}`,
    unknown: (e) => e.__typename,
  });

async function take(events: AsyncIterator<StatusEvent>, count: number): Promise<string[]> {
  const taken: string[] = [];
  while (taken.length < count) {
    const next = await events.next();
    if (next.done) throw new Error(`the subscription ended after ${taken.length} of ${count} events`);
    taken.push(itemIdOf(next.value));
  }
  return taken;
}

/** A port nothing listens on: bound once by the system's choice, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('configuration mistakes, thrown at once', () => {
  it('refuses a bad URL, an empty key and a key with its Bearer prefix, naming the option', () => {
    expect(() => createClient({ url: 'localhost:4000/graphql', apiKey: 'k' })).toThrow(
      /options\.url must be an absolute http:\/\/ or https:\/\/ URL .*got "localhost:4000\/graphql"/,
    );
    expect(() => createClient({ url: 'http://127.0.0.1:1/graphql', apiKey: '' })).toThrow(/options\.apiKey is empty/);
    expect(() => createClient({ url: 'http://127.0.0.1:1/graphql', apiKey: 'Bearer abc' })).toThrow(/bare token/);
    expect(() => createClient({ url: 'http://127.0.0.1:1/graphql', apiKey: 'k', wsUrl: 'http://x/graphql' })).toThrow(
      /wsUrl must be a ws:\/\/ or wss:\/\/ URL/,
    );
    expect(() =>
      createClient({ url: 'http://127.0.0.1:1/graphql', apiKey: 'k', subscriptionRetry: { maxAttempts: 0 } }),
    ).toThrow(/subscriptionRetry\.maxAttempts must be at least 1/);
  });

  it('throws from the subscribe call itself when the runtime has no WebSocket, saying what to pass', () => {
    const saved = (globalThis as { WebSocket?: unknown }).WebSocket;
    delete (globalThis as { WebSocket?: unknown }).WebSocket;
    try {
      const client = createClient({ url: 'http://127.0.0.1:1/graphql', apiKey: 'k' });
      expect(() => client.subscribe.workItemStatusChanged()).toThrow(
        /subscribe\.workItemStatusChanged: no WebSocket implementation: .*pass createClient\(\{ webSocketImpl \}\)/,
      );
    } finally {
      if (saved !== undefined) (globalThis as { WebSocket?: unknown }).WebSocket = saved;
    }
  });

  it('puts the cause chain in the message of a network failure', async () => {
    const port = await closedPort();
    const client = createClient({
      url: `http://127.0.0.1:${port}/graphql`,
      apiKey: 'k',
      retry: { maxAttempts: 2, baseDelayMs: 1 },
    });
    const error = (await client.health().then(
      () => null,
      (e: unknown) => e,
    )) as Error;
    expect(error.message).toMatch(
      new RegExp(`^NETWORK_ERROR after 2 attempts: fetch failed: .*ECONNREFUSED 127\\.0\\.0\\.1:${port}`),
    );
  });
});

describe('subscriptions that fail clearly and stay alive', () => {
  let app: TestApp;
  let proxy: TcpProxy;
  let service: PreconditionClient;
  const subscriberCount = () => app.services.liveFeeds.workItems.subscriberCount;
  async function createItems(kind: string, count: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const created = await service.createWorkItem({ kind });
      if (created.__typename !== 'CreateWorkItemSuccess')
        throw new Error(`createWorkItem answered ${created.__typename}`);
      ids.push(created.item.id);
    }
    return ids;
  }
  beforeAll(async () => {
    app = await startTestApp();
    proxy = await startTcpProxy(Number(new URL(app.url).port));
    service = createClient({ url: app.url, apiKey: app.keys.service });
  });
  afterAll(async () => {
    await proxy?.close();
    await app?.close();
  });

  it('says why a subscription was refused: the code, the server message and the roles that may', async () => {
    const worker = createClient({ url: app.url, apiKey: app.keys.worker, webSocketImpl: WebSocket });
    await expect(worker.subscribe.ledgerEntryAdded().next()).rejects.toThrow(
      'FORBIDDEN: Role worker may not use ledgerEntryAdded (allowed: ops, service, admin)',
    );
    await worker.close();
    const dashboard = createClient({ url: app.url, apiKey: app.keys.dashboard, webSocketImpl: WebSocket });
    await expect(dashboard.subscribe.workItemStatusChanged().next()).rejects.toThrow(
      /^FORBIDDEN: role dashboard may open no subscription \(allowed: ops, worker, service, admin\)/,
    );
    await dashboard.close();
  });

  it('keeps resuming through an outage longer than the mutation policy allows (its own policy: forever by default)', async () => {
    // The mutation policy is 2 attempts here: a subscription governed by it would give up.
    const ops = createClient({
      url: proxy.url(app.url),
      apiKey: app.keys.ops,
      webSocketImpl: WebSocket,
      retry: { maxAttempts: 2 },
      subscriptionRetry: { baseDelayMs: 1, maxDelayMs: 5 },
    });
    const before = subscriberCount();
    const events = ops.subscribe.workItemStatusChanged({ kinds: ['SDK_OUTAGE'] });
    const first = events.next();
    await eventually(() => expect(subscriberCount()).toBe(before + 1));
    const [early] = await createItems('SDK_OUTAGE', 1);
    expect(itemIdOf((await first).value as StatusEvent)).toBe(early);

    // The consumer waits for more (a pending next) while the server is unreachable.
    const later = take(events, 2);
    proxy.refusing = true;
    const refusedBefore = proxy.refused;
    proxy.dropOpen();
    await eventually(() => expect(proxy.refused - refusedBefore).toBeGreaterThanOrEqual(10));
    const late = await createItems('SDK_OUTAGE', 2);
    proxy.refusing = false;
    expect(await later).toEqual(late);
    await events.return();
    await ops.close();
    await eventually(() => expect(subscriberCount()).toBe(before));
  });

  it('gives up a socket whose opening handshake is never answered, and subscribes on a new one', async () => {
    const ops = createClient({
      url: proxy.url(app.url),
      apiKey: app.keys.ops,
      webSocketImpl: WebSocket,
      keepAlive: { intervalMs: 100, pongTimeoutMs: 300 },
      subscriptionRetry: { baseDelayMs: 1 },
    });
    const before = subscriberCount();
    const heldBefore = proxy.held;
    proxy.holding = true;
    try {
      const events = ops.subscribe.workItemStatusChanged({ kinds: ['SDK_SILENT'] });
      const first = events.next();
      // Each attempt is dropped once a ping and its pong would have come (400 ms), and another made.
      await eventually(() => expect(proxy.held - heldBefore).toBeGreaterThanOrEqual(3));
      proxy.holding = false;
      await eventually(() => expect(subscriberCount()).toBe(before + 1));
      const [item] = await createItems('SDK_SILENT', 1);
      expect(itemIdOf((await first).value as StatusEvent)).toBe(item);
      await events.return();
    } finally {
      proxy.holding = false;
      await ops.close();
    }
    await eventually(() => expect(subscriberCount()).toBe(before));
  });

  it('notices a socket that hangs without closing (no pong) and resumes from the last cursor on a new socket', async () => {
    const ops = createClient({
      url: proxy.url(app.url),
      apiKey: app.keys.ops,
      webSocketImpl: WebSocket,
      keepAlive: { intervalMs: 100, pongTimeoutMs: 300 },
      subscriptionRetry: { baseDelayMs: 1 },
    });
    const before = subscriberCount();
    const events = ops.subscribe.workItemStatusChanged({ kinds: ['SDK_HANG'] });
    const first = events.next();
    await eventually(() => expect(subscriberCount()).toBe(before + 1));
    const early = await createItems('SDK_HANG', 2);
    expect([itemIdOf((await first).value as StatusEvent), ...(await take(events, 1))]).toEqual(early);

    const acceptedBefore = proxy.accepted;
    const later = take(events, 3);
    proxy.freezeOpen();
    // Written while the socket hangs: they reach the server's subscriber but not the client.
    const late = await createItems('SDK_HANG', 3);
    expect(await later).toEqual(late);
    expect(proxy.accepted).toBe(acceptedBefore + 1);
    const [last] = await createItems('SDK_HANG', 1);
    expect(await take(events, 1)).toEqual([last]);
    await events.return();
    await ops.close();
  });
});
