// The subscriber side of `fanout-1000`, run as its own process (forked by the scenario) so that
// decoding frames is not charged to the API's event loop: `count` graphql-ws clients, one
// connection each, all subscribed to one work-item kind. It records when each subscriber received
// each item's event and, once the parent sends the time each creation was answered, reports the
// delivery latencies and the items each subscriber lost or received twice.
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

export interface FanoutStart {
  wsUrl: string;
  token: string;
  kind: string;
  count: number;
}

export type FanoutRequest = { type: 'progress' } | { type: 'report'; answeredAtMs: Record<string, number> };

export type FanoutMessage =
  | { type: 'progress'; delivered: number; errors: string[] }
  | { type: 'report'; latenciesMs: number[]; delivered: number; lost: number; duplicated: number; errors: string[]; cpuMicros: number };

const SUBSCRIPTION = `subscription ($kinds: [String!]) { workItemStatusChanged(kinds: $kinds) {
  __typename ... on WorkItemStatusChanged { itemId version } } }`;

/** Wall-clock ms with sub-ms precision, comparable across processes on one machine. */
export const wallClockMs = () => performance.timeOrigin + performance.now();

function run({ wsUrl, token, kind, count }: FanoutStart): void {
  // Per item: when each subscriber received it (NaN until then) and how many times.
  const receivedAtMs = new Map<string, Float64Array>();
  const receipts = new Map<string, Uint16Array>();
  const errors: string[] = [];
  let delivered = 0;
  const clients: Client[] = [];
  for (let subscriber = 0; subscriber < count; subscriber++) {
    const client = createClient({ url: wsUrl, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${token}` }, retryAttempts: 0, lazy: false });
    clients.push(client);
    client.subscribe<{ workItemStatusChanged: { __typename: string; itemId?: string } }>(
      { query: SUBSCRIPTION, variables: { kinds: [kind] } },
      {
        next: (result) => {
          const atMs = wallClockMs();
          const event = result.data?.workItemStatusChanged;
          if (!event?.itemId) return void (errors.length < 10 && errors.push(JSON.stringify(result)));
          let times = receivedAtMs.get(event.itemId);
          let counts = receipts.get(event.itemId);
          if (!times || !counts) {
            receivedAtMs.set(event.itemId, (times = new Float64Array(count).fill(Number.NaN)));
            receipts.set(event.itemId, (counts = new Uint16Array(count)));
          }
          if (counts[subscriber]! === 0) times[subscriber] = atMs;
          counts[subscriber]!++;
          delivered++;
        },
        error: (error) => void (errors.length < 10 && errors.push(String(error instanceof Error ? error.message : JSON.stringify(error)))),
        complete: () => undefined,
      },
    );
  }
  process.on('message', (request: FanoutRequest) => {
    if (request.type === 'progress') return void process.send!({ type: 'progress', delivered, errors } satisfies FanoutMessage);
    const latenciesMs: number[] = [];
    let lost = 0;
    let duplicated = 0;
    for (const [itemId, answeredAtMs] of Object.entries(request.answeredAtMs)) {
      const times = receivedAtMs.get(itemId);
      const counts = receipts.get(itemId);
      for (let subscriber = 0; subscriber < count; subscriber++) {
        const receipt = counts?.[subscriber] ?? 0;
        if (receipt === 0) lost++;
        else latenciesMs.push(times![subscriber]! - answeredAtMs);
        if (receipt > 1) duplicated += receipt - 1;
      }
    }
    const cpu = process.cpuUsage();
    const cpuMicros = cpu.user + cpu.system;
    process.send!({ type: 'report', latenciesMs, delivered, lost, duplicated, errors, cpuMicros } satisfies FanoutMessage, undefined, undefined, () => {
      for (const client of clients) void client.dispose();
      process.disconnect();
    });
  });
}

if (process.send && process.env['FANOUT_START']) run(JSON.parse(process.env['FANOUT_START']) as FanoutStart);
