// `npm run bench:profile`: where one request's CPU goes. Starts the engine (emulator CLI) and the
// API (src/main.ts) as two processes with the inspector on, drives one operation at a time at
// c=1 over keep-alive HTTP (`{ __typename }`, an account read, a new withdrawal; and new
// withdrawals at c=32 over 32 accounts, where group commit shares transactions), and takes a CPU
// profile of each process over the measured requests only (the V8 sampling profiler that
// `node --cpu-prof` uses, started and stopped through the inspector, so start-up and warm-up stay
// out). Every sampled tick is attributed to a layer by the source of the function it was in (self
// time). Prints per operation: p50 and p99 over as many requests without the profiler (the
// sampler adds to each request's time), CPU µs per request in each process (the kernel's count over
// that pass, and the sampler's), and each layer's share. `PROFILE_TRACING=on` runs the API with
// OTLP/HTTP export to a sink here, for tracing's cost beside a run without it (docs/observability.md).
// The .cpuprofile files stay in the printed folder for a flame graph (Chrome DevTools, speedscope).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { createGraphqlPool } from './graphqlPool.ts';
import { sdkDocument } from './documents.ts';
import { percentileMs } from './measured.ts';
import { processCpuUs } from './processCpu.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const EMULATOR_CLI = join(ROOT, 'packages/mongo-emulator/bin/mongo-emulator.mjs');
const REQUESTS = Number(process.env['PROFILE_REQUESTS'] ?? 2_000);
const WARMUP_REQUESTS = 1_000;
const PROFILE_SAMPLING_INTERVAL_US = 200;
/** The c=32 line: callers at once, over as many accounts as the bench's withdraw-c32-spread quick run. */
const CONCURRENT_CALLERS = 32;
const CONCURRENT_ACCOUNTS = 32;

interface Operation {
  name: string;
  /** Requests in flight at once (1 unless said). */
  concurrency?: number;
  query: string;
  variables(i: number, runId: string): Record<string, unknown>;
  setup?(post: Post, runId: string): Promise<void>;
}
type Post = (query: string, variables: Record<string, unknown>) => Promise<unknown>;

const ACCOUNT = (runId: string) => `profile-${runId}`;
const operations: Operation[] = [
  { name: '{ __typename }', query: '{ __typename }', variables: () => ({}) },
  {
    name: 'account read',
    query: 'query ($id: ID!) { account(id: $id) { balance version } }',
    variables: (_i, runId) => ({ id: ACCOUNT(runId) }),
    setup: fund,
  },
  {
    name: 'withdraw (new key)',
    query:
      'mutation ($input: WithdrawInput!) { withdraw(input: $input) { __typename ... on WithdrawSuccess { entry { id balanceAfter } } } }',
    variables: (i, runId) => ({ input: { accountId: ACCOUNT(runId), amount: 1, requestId: `${runId}-w-${i}` } }),
    setup: fund,
  },
  {
    // Many callers at once: moves queued on one account commit together (group commit), so the
    // CPU per withdrawal is what a busy API process pays, not a lone caller's.
    name: 'withdraw (new key) c=32',
    concurrency: CONCURRENT_CALLERS,
    query:
      'mutation ($input: WithdrawInput!) { withdraw(input: $input) { __typename ... on WithdrawSuccess { entry { id balanceAfter } } } }',
    variables: (i, runId) => ({
      input: { accountId: `${ACCOUNT(runId)}-${i % CONCURRENT_ACCOUNTS}`, amount: 1, requestId: `${runId}-w32-${i}` },
    }),
    setup: fundMany,
  },
  {
    // The same through the SDK's Withdraw document, as its clients send it: a trusted document,
    // run through its compiled plan (src/server/compiledExecution.ts).
    name: 'withdraw (SDK document) c=32',
    concurrency: CONCURRENT_CALLERS,
    query: sdkDocument('Withdraw'),
    variables: (i, runId) => ({
      input: { accountId: `${ACCOUNT(runId)}-${i % CONCURRENT_ACCOUNTS}`, amount: 1, requestId: `${runId}-ws32-${i}` },
    }),
    setup: fundMany,
  },
];

async function fundMany(post: Post, runId: string): Promise<void> {
  for (let a = 0; a < CONCURRENT_ACCOUNTS; a++) {
    const accountId = `${ACCOUNT(runId)}-${a}`;
    await post('mutation ($input: OpenAccountInput!) { openAccount(input: $input) { __typename } }', {
      input: { accountId, currency: 'EUR' },
    });
    await post('mutation ($input: DepositInput!) { deposit(input: $input) { __typename } }', {
      input: { accountId, amount: 1_000_000, requestId: `${runId}-fund-${a}` },
    });
  }
}

/** Runs `count` requests with `concurrency` in flight; each request's latency into `latenciesMs`. */
async function drive(
  count: number,
  concurrency: number,
  send: (i: number) => Promise<unknown>,
  latenciesMs?: Float64Array,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        const startedMs = performance.now();
        await send(i);
        if (latenciesMs) latenciesMs[i] = performance.now() - startedMs;
      }
    }),
  );
}

async function fund(post: Post, runId: string): Promise<void> {
  await post('mutation ($input: OpenAccountInput!) { openAccount(input: $input) { __typename } }', {
    input: { accountId: ACCOUNT(runId), currency: 'EUR' },
  });
  await post('mutation ($input: DepositInput!) { deposit(input: $input) { __typename } }', {
    input: { accountId: ACCOUNT(runId), amount: 1_000_000, requestId: `${runId}-fund` },
  });
}

/** Layer of a sampled function, by where its source lives (first match wins). */
const LAYERS: Array<[string, RegExp]> = [
  ['idle', /^\((idle|program)\)$/],
  ['gc', /^\(garbage collector\)$/],
  ['engine (emulator)', /packages\/mongo-emulator\/|node_modules\/(mingo|sorted-btree)\//],
  ['driver (mongodb, bson)', /node_modules\/(mongodb|bson)\//],
  [
    'auth, limits (admission)',
    /src\/access\/|src\/server\/(admission|rateLimit|sharedRateLimit|queryLimits|trustedDocuments|variablesDepth)\.ts|node_modules\/rate-limiter-flexible\//,
  ],
  ['context, loaders', /src\/app\/(context|loaders)\.ts|node_modules\/dataloader\//],
  ['service (ledger, work)', /src\/(ledger|work)\//],
  ['projection, streams', /src\/(changeStreams|fanout|payouts)\//],
  // Before metrics: tracing.ts lives in src/observability/ too.
  [
    'tracing (OpenTelemetry)',
    /node_modules\/@opentelemetry\/|src\/observability\/tracing\.ts|src\/server\/traceMutations\.ts/,
  ],
  [
    'metrics, logging',
    /src\/observability\/|node_modules\/(prom-client|pino|pino-std-serializers|sonic-boom|thread-stream)\//,
  ],
  ['validation (zod, class-validator)', /node_modules\/(zod|class-validator|validator)\/|src\/graphql\/parseInput\.ts/],
  ['resolvers (type-graphql)', /node_modules\/type-graphql\/|src\/.*\/graphql\//],
  ['Apollo', /node_modules\/@apollo\//],
  ['graphql-js (parse, validate, execute)', /node_modules\/graphql\//],
  [
    'HTTP: express and its middleware',
    /node_modules\/(express|body-parser|router|raw-body|iconv-lite|finalhandler|on-finished|type-is|content-type|qs|send|negotiator|accepts|parseurl|mime-types|mime-db|media-typer|depd|vary|etag|fresh|cookie|statuses|encodeurl|escape-html|merge-descriptors|http-errors|setprototypeof|toidentifier|content-disposition|proxy-addr|forwarded|ipaddr\.js|utils-merge|range-parser|serve-static|debug|ms)\//,
  ],
  [
    'HTTP: node:http, net, streams',
    /src\/server\/http\.ts|^node:(_http|http|net|stream|events)|^node:internal\/(http|streams|stream_base|js_stream|net|event_target)/,
  ],
  ['module loading (require, tsx hooks)', /node_modules\/tsx\/|node:internal\/modules\//],
  ['node internals, other', /^node:/],
  ['other JS', /./],
];

/** Native frames (no source) that matter, by name. */
const NATIVE_LAYERS: Array<[string, RegExp]> = [
  ['socket writes (syscalls)', /^(writev|writeBuffer|writeUtf8String|writeLatin1String|writeAsciiString)$/],
  ['promise and tick scheduling', /^(runMicrotasks|processTicksAndRejections)$/],
  ['crypto (hashes)', /^(Hash|digest|update)$/],
];

function layerOf(url: string, functionName: string): string {
  if (!url) {
    if (/^\((idle|program|garbage collector)\)$/.test(functionName))
      return LAYERS.find(([, re]) => re.test(functionName))![0];
    return NATIVE_LAYERS.find(([, re]) => re.test(functionName))?.[0] ?? 'native, other';
  }
  for (const [name, re] of LAYERS) if (re.test(url)) return name;
  return 'native, other';
}

interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string } }>;
  samples: number[];
  timeDeltas: number[];
}

/** Microseconds of self time per layer. */
function attribute(profile: CpuProfile): Map<string, number> {
  const byId = new Map(
    profile.nodes.map((node) => [node.id, layerOf(node.callFrame.url, node.callFrame.functionName)]),
  );
  const micros = new Map<string, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const layer = byId.get(profile.samples[i]!) ?? 'native / unattributed';
    micros.set(layer, (micros.get(layer) ?? 0) + (profile.timeDeltas[i + 1] ?? 0));
  }
  return micros;
}

function spawnInspected(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--inspect=127.0.0.1:0', ...args], {
    cwd: ROOT,
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function waitForLine(child: ChildProcess, pattern: RegExp): Promise<RegExpExecArray> {
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += String(chunk);
      const match = pattern.exec(output);
      if (match) resolve(match);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`exited (${code}) before ${pattern}: ${output}`)));
  });
}

/** The V8 sampling profiler of another process, through its inspector (DevTools protocol). */
async function connectProfiler(
  inspectorUrl: string,
): Promise<{ start(): Promise<void>; stop(): Promise<CpuProfile>; close(): void }> {
  const socket = new WebSocket(inspectorUrl);
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  let nextId = 1;
  const pending = new Map<number, (result: any) => void>();
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) pending.get(message.id)?.(message.result);
  });
  const call = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<any>((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      socket.send(JSON.stringify({ id, method, params }));
    });
  await call('Profiler.enable');
  await call('Profiler.setSamplingInterval', { interval: PROFILE_SAMPLING_INTERVAL_US });
  return {
    start: () => call('Profiler.start'),
    async stop() {
      const { profile } = await call('Profiler.stop');
      socket.close();
      return profile as CpuProfile;
    },
    close: () => socket.close(),
  };
}

/** SIGTERM, then SIGKILL if it has not exited within 10 s (a process holding an inspector session waits for it). */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** PROFILE_TRACING=on: the API exports every span over OTLP/HTTP to this sink, which reads and drops them. */
async function startSpanSink(): Promise<{ server: Server; endpoint: string }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function profileOne(operation: Operation, outDir: string): Promise<void> {
  const runId = randomBytes(4).toString('hex');
  const sink = process.env['PROFILE_TRACING'] === 'on' ? await startSpanSink() : null;
  const engine = spawnInspected([EMULATOR_CLI, '--port', '0'], {});
  const engineInspector = waitForLine(engine, /Debugger listening on (ws:\/\/\S+)/);
  const [, uri] = await waitForLine(engine, /ready on (mongodb:\/\/\S+)/);
  const token = `profile-${randomBytes(16).toString('hex')}`;
  const api = spawnInspected(['--import', process.env['PROFILE_LOADER'] ?? 'tsx/esm', 'src/main.ts'], {
    NODE_ENV: 'production',
    MONGODB_URI: uri!,
    MONGODB_DB: `profile_${runId}`,
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'info',
    API_KEYS: `${token}=admin`,
    // The limiter still runs (its cost is measured) but never refuses: c=1 exceeds admin's 200/s.
    RATE_LIMITS: 'admin=1000000/1000000',
    SEED_DEMO: '0',
    ...(sink ? { OTEL_EXPORTER_OTLP_ENDPOINT: sink.endpoint } : {}),
  });
  const apiInspector = waitForLine(api, /Debugger listening on (ws:\/\/\S+)/);
  const [, url] = await waitForLine(api, /listening on (http:\S+\/graphql)/);
  const concurrency = operation.concurrency ?? 1;
  const pool = createGraphqlPool(url!, concurrency);
  const post: Post = async (query, variables) => {
    const answer = await pool.post(token, query, variables);
    if (answer.errors.length > 0 || answer.status !== 200) throw new Error(JSON.stringify(answer));
    return answer.data;
  };
  const profilers: Array<Awaited<ReturnType<typeof connectProfiler>>> = [];
  try {
    await operation.setup?.(post, runId);
    await drive(WARMUP_REQUESTS, concurrency, (i) => post(operation.query, operation.variables(REQUESTS + i, runId)));
    // Latency with no sampler attached first: the sampler's ticks (every 200 µs) land inside the
    // requests and add to their time, so latency targets are judged on this pass.
    const unprofiledMs = new Float64Array(REQUESTS);
    // The kernel's count of each process's CPU over the same pass: the sampler's figures below are
    // wall time between ticks, which a busy machine inflates (a descheduled tick still counts).
    const cpuBefore = [processCpuUs(api.pid!), processCpuUs(engine.pid!)];
    await drive(
      REQUESTS,
      concurrency,
      (i) => post(operation.query, operation.variables(REQUESTS + WARMUP_REQUESTS + i, runId)),
      unprofiledMs,
    );
    const kernelCpu = [processCpuUs(api.pid!), processCpuUs(engine.pid!)].map((after, i) =>
      after === undefined || cpuBefore[i] === undefined
        ? 'n/a'
        : `${((after - cpuBefore[i]!) / REQUESTS).toFixed(0)} µs`,
    );
    unprofiledMs.sort();
    profilers.push(await connectProfiler((await apiInspector)[1]!), await connectProfiler((await engineInspector)[1]!));
    await Promise.all(profilers.map((profiler) => profiler.start()));
    const latenciesMs = new Float64Array(REQUESTS);
    await drive(REQUESTS, concurrency, (i) => post(operation.query, operation.variables(i, runId)), latenciesMs);
    const [apiProfile, engineProfile] = await Promise.all(profilers.map((profiler) => profiler.stop()));
    latenciesMs.sort();
    await pool.close();
    const slug = operation.name.replace(/\W+/g, '-').replace(/^-|-$/g, '');
    const apiFile = join(outDir, `api-${slug}.cpuprofile`);
    const engineFile = join(outDir, `engine-${slug}.cpuprofile`);
    writeFileSync(apiFile, JSON.stringify(apiProfile));
    writeFileSync(engineFile, JSON.stringify(engineProfile));
    const apiLayers = attribute(apiProfile!);
    const engineLayers = attribute(engineProfile!);
    const sent = REQUESTS;
    const busy = (layers: Map<string, number>) =>
      [...layers].filter(([name]) => name !== 'idle').reduce((sum, [, us]) => sum + us, 0);
    const line =
      `${operation.name}: p50 ${percentileMs(unprofiledMs, 0.5).toFixed(2)} ms, p99 ${percentileMs(unprofiledMs, 0.99).toFixed(2)} ms at c=${concurrency} ` +
      `(profiled: p50 ${percentileMs(latenciesMs, 0.5).toFixed(2)} ms); CPU per request (kernel, unprofiled pass): API ${kernelCpu[0]}, engine ${kernelCpu[1]}; ` +
      `sampled: API ${(busy(apiLayers) / sent).toFixed(0)} µs, engine ${(busy(engineLayers) / sent).toFixed(0)} µs`;
    console.log(sink ? `${line}; tracing on (OTLP/HTTP to a sink)` : line);
    const total = busy(apiLayers);
    for (const [name, us] of [...apiLayers].filter(([layer]) => layer !== 'idle').sort((a, b) => b[1] - a[1])) {
      console.log(
        `  api  ${name.padEnd(40)} ${((us / total) * 100).toFixed(1).padStart(5)}%  ${(us / sent).toFixed(0).padStart(5)} µs/req`,
      );
    }
    if (process.env['PROFILE_TOP']) printTop(apiProfile!);
    console.log(`  profiles: ${apiFile} ${engineFile}`);
  } finally {
    for (const profiler of profilers) profiler.close(); // a process with an inspector session open waits for it at exit
    await stop(api).catch(() => undefined);
    await stop(engine).catch(() => undefined);
    if (api.exitCode === null) api.kill('SIGKILL');
    if (engine.exitCode === null) engine.kill('SIGKILL');
    sink?.server.close();
  }
}

/** The functions with the most self time, for finding what to fix (PROFILE_TOP=1). */
function printTop(profile: CpuProfile): void {
  const byId = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const micros = new Map<string, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const frame = byId.get(profile.samples[i]!)!;
    const key = `${frame.functionName || '(anonymous)'} ${frame.url.replace(/^.*node_modules\//, '').replace(ROOT, '')}`;
    micros.set(key, (micros.get(key) ?? 0) + (profile.timeDeltas[i + 1] ?? 0));
  }
  for (const [key, us] of [...micros].sort((a, b) => b[1] - a[1]).slice(0, 25))
    console.log(`    ${(us / 1000).toFixed(0).padStart(6)} ms  ${key}`);
}

// `-- --from <dir>`: re-attribute the profiles a previous run left in <dir> (no new run).
const fromIndex = process.argv.indexOf('--from');
if (fromIndex > 0) {
  const dir = process.argv[fromIndex + 1]!;
  for (const file of readdirSync(dir).filter((name) => name.startsWith('api-') && name.endsWith('.cpuprofile'))) {
    const layers = attribute(JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile);
    const total = [...layers].filter(([name]) => name !== 'idle').reduce((sum, [, us]) => sum + us, 0);
    console.log(`${file}: ${(total / REQUESTS).toFixed(0)} µs of API CPU per request over ${REQUESTS} requests`);
    for (const [name, us] of [...layers].filter(([layer]) => layer !== 'idle').sort((a, b) => b[1] - a[1])) {
      console.log(
        `  api  ${name.padEnd(40)} ${((us / total) * 100).toFixed(1).padStart(5)}%  ${(us / REQUESTS).toFixed(0).padStart(5)} µs/req`,
      );
    }
  }
  process.exit(0);
}
const outDir = mkdtempSync(join(tmpdir(), 'precondition-profile-'));
const only = process.argv.slice(2);
for (const operation of operations.filter((op) => only.length === 0 || only.some((name) => op.name.startsWith(name)))) {
  await profileOne(operation, outDir);
}
