// `npm run bench:emulator`: the emulator seen over TCP, as the API sees it. Prints (never asserts)
// single-document findOneAndUpdate throughput, and change-event delivery latency (write
// acknowledged -> event received, p50/p99) with 1 and 100 open streams, and the latency of one
// caller's transaction on collections of 0, 10,000 and 100,000 documents.
// BENCH_LINES=transaction runs only the transaction lines.
//
// The emulator runs as its own process (its bin); clients run in forked processes, so the figure
// is not the bench's own event loop. On a small machine the clients share the cores with the
// emulator, so each write line also gives the CPU time per op of the server (read from /proc)
// and of the clients: 1e6 / server µs per op is what the emulator alone sustains on one core.
// `driver` lines use the official driver; `wire` lines send the driver's exact command as raw
// OP_MSG (one request in flight per connection), to show the server when the client costs little.
// BENCH_RUNS (default 3) repeats each write line; each figure is the median of the runs.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { MongoClient } from 'mongodb';
import { deliveryLatency } from './lib/deliveryLatency.ts';
import { transactionLatency } from './lib/transactionLatency.ts';
import { runWriteScenario, type WriteFigures, type WriteScenario } from './lib/writeScenario.ts';

const WRITE_DURATION_MS = 3000;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const DOCUMENTS = 1000;
const STARTUP_TIMEOUT_MS = 15_000;
/** The emulator's JIT warms up on this much load before anything is timed (as a long-lived server would be). */
const SERVER_WARMUP_MS = 2000;
const CORES = availableParallelism();
const TRANSACTION_COLLECTION_SIZES = [0, 10_000, 100_000];
const ONLY_TRANSACTIONS = process.env.BENCH_LINES === 'transaction';
const SCENARIOS: WriteScenario[] = [
  { client: 'driver', connections: 1, processes: 1 },
  { client: 'driver', connections: 16, processes: 1 },
  { client: 'driver', connections: 16, processes: 4 },
  { client: 'wire', connections: 1, processes: 1 },
  { client: 'wire', connections: 16, processes: 1 },
];

const bin = fileURLToPath(new URL('../bin/mongo-emulator.mjs', import.meta.url));
const emulator = spawn(process.execPath, [bin, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
try {
  const uri = await readyUri();
  console.log(`mongo-emulator bench on ${uri} (node ${process.version}, emulator pid ${emulator.pid}, ${RUNS} run(s) of ${WRITE_DURATION_MS} ms per write line)`);
  if (!ONLY_TRANSACTIONS) await writeLines(uri);
  for (const size of TRANSACTION_COLLECTION_SIZES) await transactionLatency(uri, size);
} finally {
  emulator.kill('SIGTERM');
  if (emulator.exitCode === null) await once(emulator, 'exit');
}

async function writeLines(uri: string): Promise<void> {
  await writeThroughput(uri, SCENARIOS.at(-1)!, { warmup: true });
  console.log(`findOneAndUpdate ({$inc} by _id), ${CORES} cores; µs are CPU time per op; "alone" = 1e6 / server µs (one core);`);
  console.log(`"ceiling" = ${CORES} cores × 1e6 / (server + client µs), the most these clients and this server can do here`);
  console.log('client conns procs  ops/s (median, range)  server µs client µs alone ops/s ceiling ops/s      load');
  for (const scenario of SCENARIOS) await writeThroughput(uri, scenario);
  for (const streams of [1, 100]) await deliveryLatency(uri, streams);
}

/** The URI the emulator prints once it listens. */
function readyUri(): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the emulator did not start in time')), STARTUP_TIMEOUT_MS);
    let output = '';
    emulator.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /ready on (\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    emulator.once('exit', (code) => reject(new Error(`the emulator exited with ${code}`)));
  });
}

async function writeThroughput(uri: string, scenario: WriteScenario, options: { warmup?: boolean } = {}): Promise<void> {
  const collection = `fam_${scenario.client}_${scenario.connections}_${scenario.processes}${options.warmup ? '_warmup' : ''}`;
  const seeder = await new MongoClient(uri).connect();
  await seeder.db('bench').collection<{ _id: number; n: number }>(collection).insertMany(Array.from({ length: DOCUMENTS }, (_, i) => ({ _id: i, n: 0 })));
  await seeder.close();
  const loadBefore = loadavg()[0]!;
  const target = { uri, db: 'bench', collection, documents: DOCUMENTS, durationMs: WRITE_DURATION_MS, serverPid: emulator.pid! };
  if (options.warmup) {
    await runWriteScenario(scenario, { ...target, durationMs: SERVER_WARMUP_MS });
    return;
  }
  const runs: WriteFigures[] = [];
  for (let run = 0; run < RUNS; run++) runs.push(await runWriteScenario(scenario, target));
  const opsPerS = runs.map((r) => r.opsPerS).sort((x, y) => x - y);
  const serverUs = median(runs.map((r) => r.serverCpuUsPerOp ?? NaN));
  const clientUs = median(runs.map((r) => r.clientCpuUsPerOp));
  console.log(
    [
      `${scenario.client.padEnd(6)} ${String(scenario.connections).padStart(5)} ${String(scenario.processes).padStart(5)}`,
      `${fmt(median(opsPerS)).padStart(7)} (${fmt(opsPerS[0]!)}–${fmt(opsPerS.at(-1)!)})`.padEnd(24),
      (Number.isNaN(serverUs) ? 'n/a' : serverUs.toFixed(0)).padStart(9),
      clientUs.toFixed(0).padStart(9),
      (Number.isNaN(serverUs) ? 'n/a' : fmt(1e6 / serverUs)).padStart(12),
      (Number.isNaN(serverUs) ? 'n/a' : fmt((CORES * 1e6) / (serverUs + clientUs))).padStart(12),
      `${loadBefore.toFixed(1)}→${loadavg()[0]!.toFixed(1)}`.padStart(10),
    ].join(' '),
  );
}

function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en');
}
