// Fan-out to many consoles: `createWorkItem` throughput alone, then with 1,000 graphql-ws
// subscribers (in a process of their own) watching the kind being created; every creation's
// event must reach every subscriber once, soon after the mutation was answered. Twice: with the
// bench's own protocol code (every subscriber's operation id is 1), then with graphql-ws's own
// `createClient` (a random UUID each, as consoles run it: `fanout-1000-graphql-ws-*`).
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { outcomeLabel, sized, type BenchContext } from '../context.ts';
import { CREATE_WORK_ITEM } from '../documents.ts';
import {
  wallClockMs,
  type FanoutClient,
  type FanoutMessage,
  type FanoutRequest,
  type FanoutStart,
} from '../fanoutSubscribers.ts';
import { measure } from '../measure.ts';
import { processCpuUs } from '../processCpu.ts';
import { opsPerSecond, percentileMs, type Line, type Measured } from '../measured.ts';
import type { Scenario } from '../scenario.ts';

const NAME = 'fanout-1000';
const SUBSCRIBERS = { full: 1_000, quick: 20 };
const ITEMS = { full: 1_000, quick: 16 };
const CONCURRENCY = 16;
const WARMUP_ITEMS = 64;
const DURATION_MAX_MS = 60_000;
const SUBSCRIBE_WAIT_MS = 120_000;
const DELIVERY_WAIT_MS = 120_000;
/** Subscribers must not cost writers more than a tenth of their throughput. */
const WRITES_WITH_SUBSCRIBERS_RATIO_MIN = 0.9;
const DELIVERY_P99_MS_MAX = 100;
/** The bench's own protocol code (ids 1, shared frames), then graphql-ws's own client (UUIDs). */
const CLIENTS: FanoutClient[] = ['raw', 'graphql-ws'];
const SUBSCRIBER_SCRIPT = fileURLToPath(new URL('../fanoutSubscribers.ts', import.meta.url));

export const fanoutScenario: Scenario = {
  name: NAME,
  describe: (mode) =>
    `${sized(mode, ITEMS)} createWorkItem at c=${CONCURRENCY} without subscribers, then with ${sized(mode, SUBSCRIBERS)} graphql-ws subscribers on the kind (another process): the bench's own (id 1 each), then graphql-ws createClient (UUIDs)`,
  async run(context) {
    const items = sized(context.mode, ITEMS);
    const subscribers = sized(context.mode, SUBSCRIBERS);
    // Warm-up (untimed), so that the first line does not pay for the JIT and the second gain by it.
    await createMany(context, `bench-fanout-warmup-${context.runId}`, WARMUP_ITEMS, `${NAME}-warmup`, new Map());
    const aloneCpu = apiCpuMicros();
    const aloneSends = apiWriteSyscalls();
    const alone = await createMany(
      context,
      `bench-fanout-alone-${context.runId}`,
      items,
      `${NAME}-writes-alone`,
      new Map(),
    );
    const perWriteAloneMicros = (apiCpuMicros() - aloneCpu) / Math.max(1, alone.ops);
    const perWriteAloneSends = (apiWriteSyscalls() - aloneSends) / Math.max(1, alone.ops);
    const lines: Line[] = [alone];
    for (const client of fanoutClients()) {
      lines.push(
        ...(await withSubscribers(context, client, {
          items,
          subscribers,
          alone,
          perWriteAloneMicros,
          perWriteAloneSends,
        })),
      );
    }
    return lines;
  },
};

/**
 * The same writes again with `subscribers` consoles of `client` on the written kind: the writes'
 * line, their ratio to the writes alone, and the delivery line with the API's CPU per delivery
 * (the API process's CPU beyond what as many writes cost alone, over the deliveries).
 */
async function withSubscribers(
  context: BenchContext,
  client: FanoutClient,
  run: { items: number; subscribers: number; alone: Measured; perWriteAloneMicros: number; perWriteAloneSends: number },
): Promise<Line[]> {
  const name = client === 'raw' ? NAME : `${NAME}-${client}`;
  const kind = `bench-fanout-${client}-${context.runId}`;
  const before = context.app.subscriberCount();
  const child = startSubscribers({
    wsUrl: context.app.wsUrl,
    token: context.keys.service,
    kind,
    count: run.subscribers,
    client,
  });
  try {
    await waitUntil(
      () => context.app.subscriberCount() >= before + run.subscribers,
      SUBSCRIBE_WAIT_MS,
      `${run.subscribers} subscribers`,
    );
    const answeredAtMs = new Map<string, number>();
    const withCpu = apiCpuMicros();
    const withSends = apiWriteSyscalls();
    const writes = await createMany(context, kind, run.items, `${name}-writes`, answeredAtMs);
    const expected = answeredAtMs.size * run.subscribers;
    const startedMs = performance.now();
    while (
      (await ask(child, { type: 'progress' })).delivered < expected &&
      performance.now() - startedMs < DELIVERY_WAIT_MS
    ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const withCpuMicros = apiCpuMicros() - withCpu;
    const withSendsCount = apiWriteSyscalls() - withSends;
    const report = await ask(child, { type: 'report', answeredAtMs: Object.fromEntries(answeredAtMs) });
    if (report.type !== 'report') throw new Error('fanout subscribers: no report');
    // The API's process also runs the load generator: its writes' CPU, measured alone, is taken out.
    const serverMicrosPerDelivery =
      (withCpuMicros - run.perWriteAloneMicros * writes.ops) / Math.max(1, report.delivered);
    const clientMicrosPerDelivery = report.cpuMicros / Math.max(1, report.delivered);
    // Write syscalls beyond the writes' own: one per socket flush, whatever number of frames it carries.
    const deliveriesPerSend = report.delivered / Math.max(1, withSendsCount - run.perWriteAloneSends * writes.ops);
    const delivery: Measured = {
      name: `${name}-delivery`,
      ops: report.latenciesMs.length,
      seconds: (performance.now() - startedMs) / 1000 + writes.seconds,
      latenciesMs: Float64Array.from(report.latenciesMs).sort(),
      errors: report.lost + report.duplicated + report.errors.length,
      note: [
        `lost ${report.lost}, duplicated ${report.duplicated} (latency: receipt − mutation answered)`,
        `CPU per delivery: API ${serverMicrosPerDelivery.toFixed(1)} µs, subscriber process ${clientMicrosPerDelivery.toFixed(1)} µs`,
        ...(Number.isFinite(deliveriesPerSend) ? [`${deliveriesPerSend.toFixed(1)} deliveries per socket write`] : []),
        `clients: ${client === 'raw' ? "the bench's own, id 1 each" : 'graphql-ws createClient, a UUID each'}`,
        ...report.errors.slice(0, 1),
      ].join('; '),
      target: {
        text: `p99 ≤ ${DELIVERY_P99_MS_MAX} ms, 0 lost, 0 duplicated`,
        met: (measured) => measured.errors === 0 && percentileMs(measured.latenciesMs, 0.99) <= DELIVERY_P99_MS_MAX,
      },
    };
    const ratio: Line = {
      kind: 'comparison',
      label: 'with/without',
      name: `${name}-writes-ratio`,
      api: writes,
      raw: run.alone,
      target: {
        text: `writes with subscribers ≥ ${WRITES_WITH_SUBSCRIBERS_RATIO_MIN * 100}% of without`,
        met: (withSubs, without) => opsPerSecond(withSubs) >= WRITES_WITH_SUBSCRIBERS_RATIO_MIN * opsPerSecond(without),
      },
    };
    return [writes, ratio, delivery];
  } finally {
    child.kill();
    // The next line starts from no subscribers of this one (their sockets close with the child).
    await waitUntil(() => context.app.subscriberCount() <= before, SUBSCRIBE_WAIT_MS, 'subscribers gone');
  }
}

/** Which subscriber lines to run: `FANOUT_CLIENTS=raw,graphql-ws` (both, the default), or one. */
function fanoutClients(): FanoutClient[] {
  const named = (process.env['FANOUT_CLIENTS'] ?? 'raw,graphql-ws').split(',').map((name) => name.trim());
  return CLIENTS.filter((client) => named.includes(client));
}

/** Creates `items` of `kind`, noting when each creation was answered. */
function createMany(
  context: BenchContext,
  kind: string,
  items: number,
  name: string,
  answeredAtMs: Map<string, number>,
): Promise<Measured> {
  return measure({
    name,
    target: { text: 'reference for the ratio below', met: () => true },
    plan: { concurrency: CONCURRENCY, opsMax: items, durationMaxMs: DURATION_MAX_MS },
    expected: 'CreateWorkItemSuccess',
    async operation(i) {
      const input = { idempotencyKey: `${kind}-${i}`, kind, payload: { i } };
      const answer = await context.pool.post(context.keys.service, CREATE_WORK_ITEM, { input });
      const atMs = wallClockMs();
      const label = outcomeLabel(answer, 'createWorkItem');
      if (label === 'CreateWorkItemSuccess') answeredAtMs.set(answer.data?.['createWorkItem'].item.id, atMs);
      return { label };
    },
  });
}

/**
 * CPU used so far by the API's process (this one: the app runs in the bench's process), read from
 * the kernel as any outside observer would, so no child of it (the engine, the subscribers) is
 * counted; process.cpuUsage where there is no /proc.
 */
function apiCpuMicros(pid: number = process.pid): number {
  const fromKernel = processCpuUs(pid);
  if (fromKernel !== undefined) return fromKernel;
  const used = process.cpuUsage();
  return used.user + used.system;
}

/** Write syscalls (write, writev) made so far by the API's process (/proc/<pid>/io syscw); NaN where there is no /proc. */
function apiWriteSyscalls(pid: number = process.pid): number {
  try {
    return Number(/^syscw: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1] ?? Number.NaN);
  } catch {
    return Number.NaN;
  }
}

function startSubscribers(start: FanoutStart): ChildProcess {
  return fork(SUBSCRIBER_SCRIPT, [], {
    execArgv: ['--import', 'tsx/esm'],
    env: { ...process.env, FANOUT_START: JSON.stringify(start) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

function ask(child: ChildProcess, request: FanoutRequest): Promise<FanoutMessage> {
  return new Promise((resolve, reject) => {
    const onExit = () => reject(new Error('fanout subscribers exited'));
    child.once('exit', onExit);
    child.once('message', (message: FanoutMessage) => {
      child.off('exit', onExit);
      resolve(message);
    });
    child.send(request);
  });
}

async function waitUntil(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const startedMs = performance.now();
  while (!check()) {
    if (performance.now() - startedMs > timeoutMs) throw new Error(`fanout: no ${what} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
