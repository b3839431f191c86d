// Fan-out to many consoles: `createWorkItem` throughput alone, then with 1,000 graphql-ws
// subscribers (in a process of their own) watching the kind being created; every creation's
// event must reach every subscriber once, soon after the mutation was answered.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { outcomeLabel, sized, type BenchContext } from '../context.ts';
import { CREATE_WORK_ITEM } from '../documents.ts';
import { wallClockMs, type FanoutMessage, type FanoutRequest, type FanoutStart } from '../fanoutSubscribers.ts';
import { measure } from '../measure.ts';
import { atLeastOpsPerSecond, opsPerSecond, percentileMs, type Line, type Measured } from '../measured.ts';
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
const SUBSCRIBER_SCRIPT = fileURLToPath(new URL('../fanoutSubscribers.ts', import.meta.url));

export const fanoutScenario: Scenario = {
  name: NAME,
  describe: (mode) =>
    `${sized(mode, ITEMS)} createWorkItem at c=${CONCURRENCY} without subscribers, then with ${sized(mode, SUBSCRIBERS)} graphql-ws subscribers on the kind (another process)`,
  async run(context) {
    const items = sized(context.mode, ITEMS);
    const subscribers = sized(context.mode, SUBSCRIBERS);
    // Warm-up (untimed), so that the first line does not pay for the JIT and the second gain by it.
    await createMany(context, `bench-fanout-warmup-${context.runId}`, WARMUP_ITEMS, `${NAME}-warmup`, new Map());
    const aloneCpu = process.cpuUsage();
    const alone = await createMany(context, `bench-fanout-alone-${context.runId}`, items, `${NAME}-writes-alone`, new Map());
    const aloneCpuMicros = cpuMicrosSince(aloneCpu);
    const kind = `bench-fanout-${context.runId}`;
    const before = context.app.subscriberCount();
    const child = startSubscribers({ wsUrl: context.app.wsUrl, token: context.keys.service, kind, count: subscribers });
    try {
      await waitUntil(() => context.app.subscriberCount() >= before + subscribers, SUBSCRIBE_WAIT_MS, `${subscribers} subscribers`);
      const answeredAtMs = new Map<string, number>();
      const withCpu = process.cpuUsage();
      const withSubscribers = await createMany(context, kind, items, `${NAME}-writes`, answeredAtMs);
      const expected = answeredAtMs.size * subscribers;
      const startedMs = performance.now();
      while ((await ask(child, { type: 'progress' })).delivered < expected && performance.now() - startedMs < DELIVERY_WAIT_MS) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const withCpuMicros = cpuMicrosSince(withCpu);
      const report = await ask(child, { type: 'report', answeredAtMs: Object.fromEntries(answeredAtMs) });
      if (report.type !== 'report') throw new Error('fanout subscribers: no report');
      // CPU of this process (API and load generator) per delivery: what the writes with
      // subscribers cost beyond the same number of writes alone, spread over the deliveries.
      const perWriteAloneMicros = aloneCpuMicros / Math.max(1, alone.ops);
      const serverMicrosPerDelivery = (withCpuMicros - perWriteAloneMicros * withSubscribers.ops) / Math.max(1, report.delivered);
      const clientMicrosPerDelivery = report.cpuMicros / Math.max(1, report.delivered);
      const delivery: Measured = {
        name: `${NAME}-delivery`,
        ops: report.latenciesMs.length,
        seconds: (performance.now() - startedMs) / 1000 + withSubscribers.seconds,
        latenciesMs: Float64Array.from(report.latenciesMs).sort(),
        errors: report.lost + report.duplicated + report.errors.length,
        note: [
          `lost ${report.lost}, duplicated ${report.duplicated} (latency: receipt − mutation answered)`,
          `CPU per delivery: API ${serverMicrosPerDelivery.toFixed(1)} µs, subscriber process ${clientMicrosPerDelivery.toFixed(1)} µs`,
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
        name: `${NAME}-writes-ratio`,
        api: withSubscribers,
        raw: alone,
        target: {
          text: `writes with subscribers ≥ ${WRITES_WITH_SUBSCRIBERS_RATIO_MIN * 100}% of without`,
          met: (withSubs, without) => opsPerSecond(withSubs) >= WRITES_WITH_SUBSCRIBERS_RATIO_MIN * opsPerSecond(without),
        },
      };
      return [alone, withSubscribers, ratio, delivery];
    } finally {
      child.kill();
    }
  },
};

/** Creates `items` of `kind`, noting when each creation was answered. */
function createMany(context: BenchContext, kind: string, items: number, name: string, answeredAtMs: Map<string, number>): Promise<Measured> {
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

function cpuMicrosSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return used.user + used.system;
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
