// Proves the SDK's subscriptions: typed events as an AsyncIterable; after a dropped socket the
// SDK reconnects and resumes after the last event it yielded (events written while the socket was
// down arrive once, in order, none twice); ResyncRequired arrives as a typed event and the stream
// goes on; break closes the server's subscription; the caller is told when the socket is
// acknowledged and when it closes (onConnection), a refusal with its close code.
import { startEmulator, type RunningEmulator } from '@precondition/mongo-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/waiting.ts';
import WebSocket from 'ws';
import {
  createClient,
  match,
  type ConnectionEvent,
  type Event,
  type PreconditionClient,
} from '../../packages/sdk/src/index.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

type StatusEvent = Event<'workItemStatusChanged'>;

/** A `ws` WebSocket that remembers every socket the SDK opens, so a test can cut one. */
function trackedWebSocket() {
  const sockets: WebSocket[] = [];
  class TrackedWebSocket extends WebSocket {
    constructor(...args: ConstructorParameters<typeof WebSocket>) {
      super(...args);
      sockets.push(this);
    }
  }
  return { TrackedWebSocket, sockets };
}

const subscriberCount = (app: TestApp) => app.services.liveFeeds.workItems.subscriberCount;

async function createItems(client: PreconditionClient, kind: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const created = await client.createWorkItem({ kind });
    if (created.__typename !== 'CreateWorkItemSuccess')
      throw new Error(`createWorkItem answered ${created.__typename}`);
    ids.push(created.item.id);
  }
  return ids;
}

async function take(events: AsyncIterator<StatusEvent>, count: number): Promise<StatusEvent[]> {
  const taken: StatusEvent[] = [];
  while (taken.length < count) {
    const next = await events.next();
    if (next.done) throw new Error(`the subscription ended after ${taken.length} of ${count} events`);
    taken.push(next.value);
  }
  return taken;
}

const itemIdOf = (event: StatusEvent) =>
  match(event, {
    WorkItemStatusChanged: (e) => e.itemId,
    ResyncRequired: (e) => `resync ${e.reason}`,
    unknown: (e) => `unknown ${e.__typename}`,
  });

describe('subscriptions on the run engine', () => {
  let app: TestApp;
  let service: PreconditionClient;
  beforeAll(async () => {
    app = await startTestApp();
    service = createClient({ url: app.url, apiKey: app.keys.service });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('resumes after a dropped socket from the last cursor it yielded: no event lost, none twice', async () => {
    const { TrackedWebSocket, sockets } = trackedWebSocket();
    const connection: ConnectionEvent[] = [];
    const ops = createClient({
      url: app.url,
      apiKey: app.keys.ops,
      webSocketImpl: TrackedWebSocket,
      retry: { baseDelayMs: 1 },
      onConnection: (event) => connection.push(event),
    });
    const kinds = ['SDK_DROP'];
    const events = ops.subscribe.workItemStatusChanged({ kinds });
    const before = subscriberCount(app);
    const first = events.next();
    await eventually(() => expect(subscriberCount(app)).toBe(before + 1));
    const early = await createItems(service, 'SDK_DROP', 3);
    const seen = [(await first).value as StatusEvent, ...(await take(events, 2))];
    expect(seen.map(itemIdOf)).toEqual(early);

    // The socket dies while the consumer holds the last event; meanwhile three more items are made.
    expect(sockets).toHaveLength(1);
    sockets[0]!.terminate();
    await eventually(() => expect(subscriberCount(app)).toBe(before));
    const late = await createItems(service, 'SDK_DROP', 3);

    const resumed = await take(events, 3);
    expect(resumed.map(itemIdOf)).toEqual(late);
    expect(
      resumed.every(
        (event) => event.__typename === 'WorkItemStatusChanged' && event.version === 1 && event.status === 'PENDING',
      ),
    ).toBe(true);
    expect(sockets).toHaveLength(2);
    // The caller was told of each state: a page says "live", then "reconnecting", then "reconnected".
    expect(connection.map((event) => event.state)).toEqual(['connected', 'closed', 'connected']);
    expect(connection[1]).toEqual({ state: 'closed', code: expect.any(Number) });
    // Nothing of before the drop comes again: the next event is the next write.
    const [last] = await createItems(service, 'SDK_DROP', 1);
    expect((await take(events, 1)).map(itemIdOf)).toEqual([last]);

    await events.return();
    await eventually(() => expect(subscriberCount(app)).toBe(before));
    await ops.close();
  });

  it('resubscribes when the server answers UNAVAILABLE (the database between primaries) instead of throwing, and loses nothing', async () => {
    // The server's answer to the first subscribe is replaced by the one it gives while the set has
    // no primary (an `error` message with UNAVAILABLE, src/server/unavailable.ts), as received.
    let refusals = 1;
    class UnavailableOnce extends WebSocket {
      override send(data: unknown, ...rest: unknown[]): void {
        const message = JSON.parse(String(data)) as { id?: string; type?: string };
        if (message.type === 'subscribe' && refusals > 0) {
          refusals -= 1;
          const answer = {
            id: message.id,
            type: 'error',
            payload: [
              {
                message: 'The database cannot answer right now',
                extensions: { code: 'UNAVAILABLE', retryAfterSeconds: 0 },
              },
            ],
          };
          setImmediate(() => this.emit('message', Buffer.from(JSON.stringify(answer)), false));
          return;
        }
        (super.send as (...args: unknown[]) => void)(data, ...rest);
      }
    }
    const ops = createClient({
      url: app.url,
      apiKey: app.keys.ops,
      webSocketImpl: UnavailableOnce,
      subscriptionRetry: { baseDelayMs: 1 },
    });
    const before = subscriberCount(app);
    const events = ops.subscribe.workItemStatusChanged({ kinds: ['SDK_UNAVAILABLE'] });
    const first = events.next();
    await eventually(() => expect(subscriberCount(app)).toBe(before + 1));
    expect(refusals).toBe(0);
    const ids = await createItems(service, 'SDK_UNAVAILABLE', 2);
    expect([(await first).value as StatusEvent, ...(await take(events, 1))].map(itemIdOf)).toEqual(ids);
    await events.return();
    await eventually(() => expect(subscriberCount(app)).toBe(before));
    await ops.close();
  });

  it('numbers operation ids per client, so that clients subscribing alike send the same ids (one shared frame on the server)', async () => {
    const subscribeIds: string[][] = [[], []];
    const recording = (sent: string[]) =>
      class RecordingWebSocket extends WebSocket {
        override send(data: string, ...rest: never[]): void {
          const message = JSON.parse(String(data)) as { id?: string; type: string };
          if (message.type === 'subscribe') sent.push(message.id!);
          super.send(data, ...rest);
        }
      };
    const clients = subscribeIds.map((sent) =>
      createClient({ url: app.url, apiKey: app.keys.ops, webSocketImpl: recording(sent) }),
    );
    const before = subscriberCount(app);
    // Each client: two subscriptions of one selection on its one connection.
    const streams = clients.flatMap((client) => [
      client.subscribe.workItemStatusChanged({ kinds: ['SDK_IDS'] }),
      client.subscribe.workItemStatusChanged({ kinds: ['SDK_IDS'] }),
    ]);
    const firsts = streams.map((events) => events.next());
    await eventually(() => expect(subscriberCount(app)).toBe(before + 4));
    const [id] = await createItems(service, 'SDK_IDS', 1);
    for (const first of firsts) expect(itemIdOf((await first).value as StatusEvent)).toBe(id);
    expect(new Set(subscribeIds[0]).size).toBe(2);
    expect(subscribeIds[1]).toEqual(subscribeIds[0]);
    for (const events of streams) await events.return();
    await eventually(() => expect(subscriberCount(app)).toBe(before));
    for (const client of clients) await client.close();
  });

  it('closes the server subscription when the consumer breaks out of for await', async () => {
    const ops = createClient({ url: app.url, apiKey: app.keys.ops, webSocketImpl: WebSocket });
    const before = subscriberCount(app);
    const received: string[] = [];
    const consumer = (async () => {
      for await (const event of ops.subscribe.workItemStatusChanged({ kinds: ['SDK_BREAK'] })) {
        received.push(itemIdOf(event));
        break;
      }
    })();
    await eventually(() => expect(subscriberCount(app)).toBe(before + 1));
    const [id] = await createItems(service, 'SDK_BREAK', 1);
    await consumer;
    expect(received).toEqual([id]);
    await eventually(() => expect(subscriberCount(app)).toBe(before));
    await ops.close();
  });

  it('throws FORBIDDEN as a PreconditionError for a role that may not subscribe, without reconnecting', async () => {
    const { TrackedWebSocket, sockets } = trackedWebSocket();
    const connection: ConnectionEvent[] = [];
    const dashboard = createClient({
      url: app.url,
      apiKey: app.keys.dashboard,
      webSocketImpl: TrackedWebSocket,
      retry: { baseDelayMs: 1 },
      onConnection: (event) => connection.push(event),
    });
    await expect(dashboard.subscribe.workItemStatusChanged().next()).rejects.toMatchObject({
      name: 'PreconditionError',
      code: 'FORBIDDEN',
    });
    expect(sockets).toHaveLength(1);
    // Never acknowledged; closed with the refusal's code, which a page shows as "refused".
    expect(connection).toEqual([{ state: 'closed', code: 4403 }]);
    await dashboard.close();
  });
});

describe('subscriptions after lost history', () => {
  const OPLOG_MAX_ENTRIES = 100;
  let emulator: RunningEmulator;
  let app: TestApp;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, replSetName: 'rs0', oplogMaxEntries: OPLOG_MAX_ENTRIES });
    app = await startTestApp({ mongoUri: emulator.uri });
  });
  afterAll(async () => {
    await app?.close();
    await emulator?.stop();
  });

  it('yields ResyncRequired as a typed event when history is lost, live or on resume, and goes on with live events', async () => {
    const client = createClient({ url: app.url, apiKey: app.keys.admin, webSocketImpl: WebSocket });
    const kinds = ['SDK_RESYNC'];
    const before = subscriberCount(app);
    const live = client.subscribe.workItemStatusChanged({ kinds });
    const pending = live.next();
    await eventually(() => expect(subscriberCount(app)).toBe(before + 1));
    await createItems(client, 'SDK_RESYNC', 1);
    const seen = (await pending).value as StatusEvent;

    // More than the whole oplog in one burst: the shared stream loses its place.
    await app.db.collection('filler').insertMany(Array.from({ length: 2 * OPLOG_MAX_ENTRIES }, (_, i) => ({ i })));
    const [liveNotice] = await take(live, 1);
    expect(liveNotice).toMatchObject({ __typename: 'ResyncRequired', reason: 'HISTORY_LOST' });
    const [afterLoss] = await createItems(client, 'SDK_RESYNC', 1);
    expect((await take(live, 1)).map(itemIdOf)).toEqual([afterLoss]);
    await live.return();

    // Resuming from a cursor older than the window: the notice is typed, then live events follow.
    const resumed = client.subscribe.workItemStatusChanged({ kinds, after: seen.cursor });
    const [notice] = await take(resumed, 1);
    expect(notice).toMatchObject({ __typename: 'ResyncRequired', reason: 'HISTORY_LOST' });
    expect(
      match(notice!, {
        ResyncRequired: (e) => typeof e.cursor,
        WorkItemStatusChanged: () => 'event',
        unknown: () => 'unknown',
      }),
    ).toBe('string');
    const [later] = await createItems(client, 'SDK_RESYNC', 1);
    expect((await take(resumed, 1)).map(itemIdOf)).toEqual([later]);
    await resumed.return();
    await client.close();
  });
});
