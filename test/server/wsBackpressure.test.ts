// A console that stops reading must not make the server buffer without bound: subscription frames
// go out without waiting only while the socket holds less than `socketBufferedMaxBytes` unsent;
// beyond it the subscription waits for its writes, so its source's bounded queue fills (in the
// app: SLOW_SUBSCRIBER). Runs serveGraphqlWs with a one-field schema and a source the test feeds.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GraphQLObjectType, GraphQLSchema, GraphQLString } from 'graphql';
import WebSocket, { WebSocketServer } from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { Registry } from 'prom-client';
import { createSubscriptionMultiplexer } from '../../src/server/subscriptionMultiplexer.ts';
import { createGraphqlTelemetry } from '../../src/server/telemetry.ts';
import { serveGraphqlWs } from '../../src/server/wsServer.ts';
import { SubscriberQueue } from '../../src/fanout/SubscriberQueue.ts';
import { waitFor } from '../support/waiting.ts';

const QUEUE_MAX = 20;
const BUFFERED_MAX_BYTES = 64 * 1024;
const BLOB = 'x'.repeat(16 * 1024);

function start() {
  const queues: Array<SubscriberQueue<{ blob: string }>> = [];
  const query = new GraphQLObjectType({ name: 'Query', fields: { ok: { type: GraphQLString } } });
  const subscription = new GraphQLObjectType({
    name: 'Subscription',
    fields: {
      blob: {
        type: GraphQLString,
        resolve: (item: { blob: string }) => item.blob,
        subscribe: () => {
          const queue = new SubscriberQueue<{ blob: string }>(QUEUE_MAX, () => undefined);
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
    socketBufferedMaxBytes: BUFFERED_MAX_BYTES,
  });
  return { httpServer, wss, served, queues };
}

describe('graphql-ws fan-out under a console that stops reading', () => {
  let cleanup: () => Promise<void> = async () => undefined;
  afterEach(() => cleanup());

  it('stops writing past the buffered bound, so the bounded queue fills instead of server memory', async () => {
    const { httpServer, wss, served, queues } = start();
    await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
    const { port } = httpServer.address() as AddressInfo;
    const client = new WebSocket(`ws://127.0.0.1:${port}`, 'graphql-transport-ws');
    cleanup = async () => {
      client.terminate();
      await served.dispose();
      await new Promise((resolve) => httpServer.close(resolve));
    };
    const frames: string[] = [];
    client.on('message', (data) => frames.push(String(data)));
    await new Promise((resolve) => client.once('open', resolve));
    client.send(JSON.stringify({ type: 'connection_init' }));
    await waitFor(() => frames.some((frame) => frame.includes('connection_ack')), 'connection_ack');
    client.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: 'subscription { blob }' } }));
    await waitFor(() => queues.length === 1, 'the subscription');
    // The console stops reading: its kernel buffers fill, then the server's.
    client.pause();

    const queue = queues[0]!;
    let refused = 0;
    const serverSocket = [...wss.clients][0]!;
    let bufferedMax = 0;
    for (let i = 0; i < 4_000 && refused === 0; i++) {
      if (!queue.push({ blob: BLOB })) refused++;
      bufferedMax = Math.max(bufferedMax, serverSocket.bufferedAmount);
      await new Promise((resolve) => setImmediate(resolve));
    }
    // The queue filled (the feed would now send SLOW_SUBSCRIBER), and the server held at most the
    // bound plus the frames of one flush window.
    expect(refused).toBe(1);
    expect(bufferedMax).toBeLessThan(BUFFERED_MAX_BYTES + 4 * (BLOB.length + 100));
  }, 60_000);
});
