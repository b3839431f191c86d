// The subscriber side of `fanout-1000`, run as its own process (forked by the scenario) so that
// decoding frames is not charged to the API's event loop: `count` graphql-ws clients, one
// connection each, all subscribed to one work-item kind. It records when each subscriber received
// each item's event and, once the parent sends the time each creation was answered, reports the
// delivery latencies and the items each subscriber lost or received twice.
//
// Each subscriber speaks graphql-transport-ws itself over `ws` (connection_init, connection_ack,
// subscribe, then next/error/complete and ping/pong) rather than through graphql-ws's client:
// profiles showed that client's per-message work (validating every message, its emitter and sink
// layers) as half of this process's CPU per delivery, which on one machine is taken from the API
// being measured. Every frame is still parsed in full and checked: type `next`, the subscription's
// own id, an item id; anything else is an error, and every item is counted per subscriber for loss
// and duplication. That graphql-ws's own client parses the API's frames is tested in
// test/server/wsDirectFrames.test.ts.
//
// With `client: 'graphql-ws'` each subscriber is instead graphql-ws's own `createClient` on its
// own socket, as an ops console runs it: every operation is named by the client's random UUID, so
// no two subscribers share an id (the API's cost per delivery must not depend on that).
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

/** Who subscribes: this process's own protocol code (ids 1), or graphql-ws's `createClient` (UUIDs). */
export type FanoutClient = 'raw' | 'graphql-ws';

export interface FanoutStart {
  wsUrl: string;
  token: string;
  kind: string;
  count: number;
  client: FanoutClient;
}

export type FanoutRequest = { type: 'progress' } | { type: 'report'; answeredAtMs: Record<string, number> };

export type FanoutMessage =
  | { type: 'progress'; delivered: number; errors: string[] }
  | {
      type: 'report';
      latenciesMs: number[];
      delivered: number;
      lost: number;
      duplicated: number;
      errors: string[];
      cpuMicros: number;
    };

const SUBSCRIPTION = `subscription ($kinds: [String!]) { workItemStatusChanged(kinds: $kinds) {
  __typename ... on WorkItemStatusChanged { itemId version } } }`;

/** Wall-clock ms with sub-ms precision, comparable across processes on one machine. */
export const wallClockMs = () => performance.timeOrigin + performance.now();

interface Receipts {
  atMs: Float64Array;
  counts: Uint16Array;
}

function run({ wsUrl, token, kind, count, client }: FanoutStart): void {
  // Per item: when each subscriber received it (NaN until then) and how many times.
  const receipts = new Map<string, Receipts>();
  let lastFrame: { text: string; item: Receipts | null } = { text: '', item: null };
  const errors: string[] = [];
  let delivered = 0;
  let closing = false;
  const sockets: WebSocket[] = [];
  const clients: Client[] = [];
  const fail = (what: string) => void (errors.length < 10 && errors.push(what));
  const receiptsOf = (itemId: string): Receipts => {
    let item = receipts.get(itemId);
    if (!item)
      receipts.set(itemId, (item = { atMs: new Float64Array(count).fill(Number.NaN), counts: new Uint16Array(count) }));
    return item;
  };
  const receive = (item: Receipts, subscriber: number, atMs: number) => {
    if (item.counts[subscriber]! === 0) item.atMs[subscriber] = atMs;
    item.counts[subscriber]!++;
    delivered++;
  };
  for (let subscriber = 0; client === 'graphql-ws' && subscriber < count; subscriber++) {
    const graphqlWs = createClient({
      url: wsUrl,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${token}` },
      retryAttempts: 0,
      on: { closed: (event) => closing || fail(`closed ${(event as { code?: number }).code ?? '?'}`) },
    });
    clients.push(graphqlWs);
    graphqlWs.subscribe<{ workItemStatusChanged?: { itemId?: string } }>(
      { query: SUBSCRIPTION, variables: { kinds: [kind] } },
      {
        next: (result) => {
          const atMs = wallClockMs();
          const itemId = result.data?.workItemStatusChanged?.itemId;
          if (!itemId || result.errors) return fail(JSON.stringify(result).slice(0, 300));
          receive(receiptsOf(itemId), subscriber, atMs);
        },
        error: (error) => fail(error instanceof Error ? error.message : JSON.stringify(error).slice(0, 300)),
        complete: () => closing || fail('completed'),
      },
    );
  }
  for (let subscriber = 0; client === 'raw' && subscriber < count; subscriber++) {
    // The id the SDK and the console give a client's first subscription (they number them per
    // client); graphql-ws's own client chooses a random UUID each (`client: 'graphql-ws'` above).
    // The API's cost does not depend on it; this process's does (the frame comparison below).
    const id = '1';
    const subscribe = JSON.stringify({
      id,
      type: 'subscribe',
      payload: { query: SUBSCRIPTION, variables: { kinds: [kind] } },
    });
    const socket = new WebSocket(wsUrl, 'graphql-transport-ws', { perMessageDeflate: false });
    sockets.push(socket);
    socket.once('open', () =>
      socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } })),
    );
    socket.on('error', (error) => fail(error.message));
    socket.on('close', (code, reason) => closing || fail(`closed ${code} ${String(reason)}`));
    socket.on('message', (data: Buffer) => {
      const atMs = wallClockMs();
      const text = data.toString();
      // Every subscriber here has the same selection and id, so an event's frame is the same text
      // for all of them: compared in full with the last frame parsed, it need not be parsed again.
      let item = text === lastFrame.text ? lastFrame.item : null;
      if (!item) {
        const message = JSON.parse(text) as {
          id?: string;
          type?: string;
          payload?: { data?: { workItemStatusChanged?: { itemId?: string } } };
        };
        if (message.type === 'connection_ack') return void socket.send(subscribe);
        if (message.type === 'ping') return void socket.send('{"type":"pong"}');
        const itemId =
          message.type === 'next' && message.id === id
            ? message.payload?.data?.workItemStatusChanged?.itemId
            : undefined;
        if (!itemId) return fail(text.slice(0, 300));
        item = receiptsOf(itemId);
        lastFrame = { text, item };
      }
      receive(item, subscriber, atMs);
    });
  }
  process.on('message', (request: FanoutRequest) => {
    if (request.type === 'progress')
      return void process.send!({ type: 'progress', delivered, errors } satisfies FanoutMessage);
    const latenciesMs: number[] = [];
    let lost = 0;
    let duplicated = 0;
    for (const [itemId, answeredAtMs] of Object.entries(request.answeredAtMs)) {
      const times = receipts.get(itemId)?.atMs;
      const counts = receipts.get(itemId)?.counts;
      for (let subscriber = 0; subscriber < count; subscriber++) {
        const receipt = counts?.[subscriber] ?? 0;
        if (receipt === 0) lost++;
        else latenciesMs.push(times![subscriber]! - answeredAtMs);
        if (receipt > 1) duplicated += receipt - 1;
      }
    }
    const cpu = process.cpuUsage();
    const cpuMicros = cpu.user + cpu.system;
    process.send!(
      { type: 'report', latenciesMs, delivered, lost, duplicated, errors, cpuMicros } satisfies FanoutMessage,
      undefined,
      undefined,
      () => {
        closing = true;
        for (const socket of sockets) socket.close(1000);
        for (const graphqlWs of clients) void graphqlWs.dispose();
        process.disconnect();
      },
    );
  });
}

if (process.send && process.env['FANOUT_START']) run(JSON.parse(process.env['FANOUT_START']) as FanoutStart);
