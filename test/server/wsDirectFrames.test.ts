// serveGraphqlWs writes a multiplexed subscription's `next` frames itself (frame header, the
// subscription's id prefix, the shared payload bytes): a standard graphql-ws client must parse them
// at every WebSocket length encoding, in order with the `complete` that follows; each subscription
// gets its own id, and the payload is serialized once per event whatever the ids (graphql-ws's own
// client names each operation with a random UUID); and nothing is written after the client's `complete`, not even an event whose
// execution was under way when it came. Runs with a one-field schema and a source the test feeds.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GraphQLObjectType, GraphQLSchema, GraphQLString } from 'graphql';
import { createClient } from 'graphql-ws';
import WebSocket, { WebSocketServer } from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { Registry } from 'prom-client';
import { createSubscriptionMultiplexer } from '../../src/server/subscriptionMultiplexer.ts';
import { createGraphqlTelemetry } from '../../src/server/telemetry.ts';
import { nextFrame, nextFramePrefix, serveGraphqlWs } from '../../src/server/wsServer.ts';
import { SubscriberQueue } from '../../src/fanout/SubscriberQueue.ts';
import { waitFor } from '../support/waiting.ts';

interface Item {
  text: string;
  /** When set, the item's execution waits for it. */
  gate?: Promise<void>;
}

interface Frame {
  id?: string;
  type: string;
  payload?: { data?: { text?: string } };
}

async function start() {
  const queues: Array<SubscriberQueue<Item>> = [];
  const query = new GraphQLObjectType({ name: 'Query', fields: { ok: { type: GraphQLString } } });
  const subscription = new GraphQLObjectType({
    name: 'Subscription',
    fields: {
      text: {
        type: GraphQLString,
        resolve: async (item: Item) => {
          await item.gate;
          return item.text;
        },
        subscribe: () => {
          const queue = new SubscriberQueue<Item>(1_000, () => undefined);
          queues.push(queue);
          return queue;
        },
      },
    },
  });
  const schema = new GraphQLSchema({ query, subscription });
  const multiplexer = createSubscriptionMultiplexer(() => 'any', createGraphqlTelemetry(new Registry()));
  const httpServer: Server = createServer();
  const wss = new WebSocketServer({ server: httpServer });
  const served = serveGraphqlWs({ schema, subscribe: (args) => multiplexer.subscribe(args) }, wss, {
    frameFlushIntervalMs: 1,
    socketBufferedMaxBytes: 64 * 1024,
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const url = `ws://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
  // Messages the server sent through `ws` (graphql-ws's own path), per socket.
  const sentByWs: string[] = [];
  wss.on('connection', (socket) => {
    const send = socket.send.bind(socket);
    socket.send = ((data: string, ...rest: never[]) => {
      sentByWs.push(String(data));
      return send(data, ...rest);
    }) as typeof socket.send;
  });
  const stop = async () => {
    await served.dispose();
    await new Promise((resolve) => httpServer.close(resolve));
  };
  return { url, queues, sentByWs, wss, stats: multiplexer.stats, stop };
}

/** A raw graphql-transport-ws connection that records every frame, parsed. */
async function rawConnection(url: string) {
  const socket = new WebSocket(url, 'graphql-transport-ws');
  const frames: Frame[] = [];
  const bytes: Buffer[] = [];
  socket.on('message', (data: Buffer) => {
    bytes.push(data);
    frames.push(JSON.parse(String(data)) as Frame);
  });
  await new Promise((resolve) => socket.once('open', resolve));
  socket.send(JSON.stringify({ type: 'connection_init' }));
  await waitFor(() => frames.some((frame) => frame.type === 'connection_ack'), 'connection_ack');
  return {
    socket,
    frames,
    bytes,
    subscribe: (id: string) =>
      socket.send(JSON.stringify({ id, type: 'subscribe', payload: { query: 'subscription { text }' } })),
    /** Resolves once the server answered a ping sent now, i.e. once it wrote everything it wrote before. */
    roundTrip: async () => {
      const pongs = frames.filter((frame) => frame.type === 'pong').length;
      socket.send(JSON.stringify({ type: 'ping' }));
      await waitFor(() => frames.filter((frame) => frame.type === 'pong').length > pongs, 'pong');
    },
  };
}

describe('graphql-ws frames written by serveGraphqlWs', () => {
  let cleanup: () => Promise<void> = async () => undefined;
  afterEach(() => cleanup());

  /** A server, one raw connection subscribed under `id`, and the subscription's queue; torn down after the test. */
  async function subscribedConnection(id: string) {
    const { url, queues, stop } = await start();
    const connection = await rawConnection(url);
    cleanup = async () => {
      connection.socket.terminate();
      await stop();
    };
    connection.subscribe(id);
    await waitFor(() => queues.length === 1, 'the subscription');
    return { connection, queues };
  }

  it('builds the WebSocket frame header for each length encoding (7-bit, 16-bit, 64-bit)', () => {
    const prefix = nextFramePrefix('1');
    for (const [size, header] of [
      [50, [0x81, 50 + prefix.length + 1]],
      [300, [0x81, 126]],
      [70_000, [0x81, 127]],
    ] as const) {
      const payload = Buffer.from(`"${'x'.repeat(size - 2)}"`);
      const frame = nextFrame(prefix, payload);
      const length = prefix.length + size + 1;
      const headerLength = length < 126 ? 2 : length < 65_536 ? 4 : 10;
      expect([...frame.subarray(0, 2)]).toEqual(header);
      if (headerLength === 4) expect(frame.readUInt16BE(2)).toBe(length);
      if (headerLength === 10) expect(Number(frame.readBigUInt64BE(2))).toBe(length);
      expect(frame.length).toBe(headerLength + length);
      expect(frame.subarray(headerLength).toString()).toBe(`{"id":"1","type":"next","payload":${payload.toString()}}`);
    }
  });

  it('sends frames a standard graphql-ws client parses, at every length, in order, then complete', async () => {
    const { url, queues, sentByWs, stop } = await start();
    const client = createClient({ url, webSocketImpl: WebSocket, retryAttempts: 0, lazy: false });
    cleanup = async () => {
      await client.dispose();
      await stop();
    };
    const received: unknown[] = [];
    let completed = false;
    let failed: unknown = null;
    client.subscribe<{ text: string }>(
      { query: 'subscription { text }' },
      {
        next: (result) => void received.push(result),
        error: (error) => void (failed = error),
        complete: () => void (completed = true),
      },
    );
    await waitFor(() => queues.length === 1, 'the subscription');
    // Quotes, backslashes and non-ASCII too: the payload is written as JSON bytes, not as a JS string's length.
    const texts = ['short "quoted" \\ é', 'm'.repeat(300), 'ü'.repeat(40_000), 'l'.repeat(70_000)];
    for (const text of texts) queues[0]!.push({ text });
    queues[0]!.end();
    await waitFor(() => completed || failed !== null, 'complete');
    expect(failed).toBeNull();
    expect(received).toEqual(texts.map((text) => ({ data: { text } })));
    // They came by the direct path, not through graphql-ws's per-event send.
    expect(sentByWs.filter((message) => message.includes('"next"'))).toEqual([]);
    expect(sentByWs.some((message) => message.includes('"complete"'))).toBe(true);
  });

  it('serializes each event once for graphql-ws clients that each name their operation with a UUID', async () => {
    const { url, queues, sentByWs, stats, stop } = await start();
    const clients = Array.from({ length: 25 }, () =>
      createClient({ url, webSocketImpl: WebSocket, retryAttempts: 0, lazy: false }),
    );
    const ids: string[] = [];
    cleanup = async () => {
      await Promise.all(clients.map((client) => client.dispose()));
      await stop();
    };
    // What each client receives, and the id it chose (graphql-ws's own UUID: no two alike).
    const received = clients.map((client) => {
      const results: unknown[] = [];
      client.on('message', (message) => void (message.type === 'next' && ids.push(message.id)));
      client.subscribe(
        { query: 'subscription { text }' },
        { next: (result) => void results.push(result), error: () => undefined, complete: () => undefined },
      );
      return results;
    });
    await waitFor(() => queues.length === clients.length, 'every subscription');
    const serializedBefore = stats.serializations;
    // One item object per event, as a feed hands it to every subscriber.
    const events = [{ text: 'first' }, { text: 'second "é"' }];
    for (const item of events) for (const queue of queues) queue.push(item);
    await waitFor(() => received.every((results) => results.length === events.length), 'every event at every client');
    for (const results of received) expect(results).toEqual(events.map(({ text }) => ({ data: { text } })));
    expect(new Set(ids).size).toBe(clients.length);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // One JSON serialization per event for the selection, whatever the ids; none by graphql-ws.
    expect(stats.serializations - serializedBefore).toBe(events.length);
    expect(sentByWs.filter((message) => message.includes('"next"'))).toEqual([]);
  });

  it('writes each subscription under its own id, the same bytes for subscriptions that share an id', async () => {
    const { url, queues, stop } = await start();
    const one = await rawConnection(url);
    const other = await rawConnection(url);
    cleanup = async () => {
      one.socket.terminate();
      other.socket.terminate();
      await stop();
    };
    one.subscribe('a');
    one.subscribe('b');
    other.subscribe('a');
    await waitFor(() => queues.length === 3, 'three subscriptions');
    const item = { text: 'event' };
    for (const queue of queues) queue.push(item);
    await waitFor(
      () =>
        one.frames.filter((frame) => frame.type === 'next').length === 2 &&
        other.frames.some((frame) => frame.type === 'next'),
      'three frames',
    );
    const nextOf = (frames: Frame[]) => frames.filter((frame) => frame.type === 'next');
    expect(
      nextOf(one.frames)
        .map((frame) => frame.id)
        .sort(),
    ).toEqual(['a', 'b']);
    expect(nextOf(other.frames)).toEqual([{ id: 'a', type: 'next', payload: { data: { text: 'event' } } }]);
    for (const frame of nextOf(one.frames)) expect(frame.payload).toEqual({ data: { text: 'event' } });
    const bytesOf = (connection: { frames: Frame[]; bytes: Buffer[] }, id: string) =>
      connection.bytes[connection.frames.findIndex((frame) => frame.type === 'next' && frame.id === id)]!.toString();
    expect(bytesOf(one, 'a')).toBe(bytesOf(other, 'a'));
    expect(bytesOf(one, 'a')).toBe('{"id":"a","type":"next","payload":{"data":{"text":"event"}}}');
  });

  it('sends the frames held for a socket before the complete that follows them', async () => {
    const { connection, queues } = await subscribedConnection('s');
    // Small frames, in one turn: held for the flush, while the source's end makes graphql-ws send complete.
    for (const text of ['a', 'b', 'c']) queues[0]!.push({ text });
    queues[0]!.end();
    await waitFor(() => connection.frames.some((frame) => frame.type === 'complete'), 'complete');
    await connection.roundTrip();
    expect(
      connection.frames.filter((frame) => frame.id === 's').map((frame) => frame.payload?.data?.text ?? frame.type),
    ).toEqual(['a', 'b', 'c', 'complete']);
  });

  it('writes nothing after the client completes, not even an event whose execution was under way', async () => {
    const { connection, queues } = await subscribedConnection('s');
    const queue = queues[0]!;
    queue.push({ text: 'before' });
    await waitFor(() => connection.frames.some((frame) => frame.type === 'next'), 'the first frame');
    let open: () => void = () => undefined;
    queue.push({ text: 'during', gate: new Promise<void>((resolve) => (open = resolve)) });
    queue.push({ text: 'after' });
    connection.socket.send(JSON.stringify({ id: 's', type: 'complete' }));
    // The server took the complete: it returned the subscription's source.
    await waitFor(() => queue.ended, 'the source to be returned');
    open();
    await connection.roundTrip();
    expect(
      connection.frames.filter((frame) => frame.type === 'next').map((frame) => frame.payload?.data?.text),
    ).toEqual(['before']);
  });
});
