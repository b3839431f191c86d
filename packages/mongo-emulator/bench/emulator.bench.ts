// `npm run bench:emulator`: the emulator seen over TCP, as the API sees it. Prints (never asserts)
// single-document findOneAndUpdate throughput, and change-event delivery latency (write
// acknowledged -> event received, p50/p99) with 1 and 100 open streams, and the latency of one
// caller's transaction on collections of 0, 10,000 and 100,000 documents.
// BENCH_LINES=transaction runs only the transaction lines; BENCH_LINES=durability only the lines
// that compare the in-memory emulator with one on a --dbpath (run in the same sitting: the write
// lines on both, j:true latency on both, and the recovery time of a 100 MB data directory).
//
// The emulator runs as its own process (its bin); clients run in forked processes, so the figure
// is not the bench's own event loop. On a small machine the clients share the cores with the
// emulator, so each write line also gives the CPU time per op of the server (read from /proc)
// and of the clients: 1e6 / server µs per op is what the emulator alone sustains on one core.
// `driver` lines use the official driver; `wire` lines send the driver's exact command as raw
// OP_MSG (one request in flight per connection), to show the server when the client costs little.
// BENCH_RUNS (default 3) repeats each write line; each figure is the median of the runs.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
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
const ONLY_DURABILITY = process.env.BENCH_LINES === 'durability';
/** Data written before the recovery is timed: about 100 MB of 1 KB documents. */
const RECOVERY_DOCUMENTS = Number(process.env.BENCH_RECOVERY_DOCUMENTS ?? 100_000);
const J_TRUE_WRITES = 2000;
const SCENARIOS: WriteScenario[] = [
  { client: 'driver', connections: 1, processes: 1 },
  { client: 'driver', connections: 16, processes: 1 },
  { client: 'driver', connections: 16, processes: 4 },
  { client: 'wire', connections: 1, processes: 1 },
  { client: 'wire', connections: 16, processes: 1 },
];

const bin = fileURLToPath(new URL('../bin/mongo-emulator.mjs', import.meta.url));
let emulator: ChildProcess;
for (const mode of ['in memory', '--dbpath'] as const) {
  if (ONLY_TRANSACTIONS && mode !== 'in memory') break;
  const dbpath = mode === '--dbpath' ? mkdtempSync(join(tmpdir(), 'bench-dbpath-')) : undefined;
  emulator = spawn(process.execPath, [bin, '--port', '0', ...(dbpath ? ['--dbpath', dbpath] : [])], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const uri = await readyUri();
    console.log(
      `mongo-emulator bench, ${mode}, on ${uri} (node ${process.version}, emulator pid ${emulator.pid}, ${RUNS} run(s) of ${WRITE_DURATION_MS} ms per write line)`,
    );
    if (!ONLY_TRANSACTIONS) await writeLines(uri, { delivery: mode === 'in memory' && !ONLY_DURABILITY });
    if (!ONLY_TRANSACTIONS) await journaledLatency(uri);
    if (mode === 'in memory' && !ONLY_DURABILITY)
      for (const size of TRANSACTION_COLLECTION_SIZES) await transactionLatency(uri, size);
  } finally {
    emulator.kill('SIGTERM');
    if (emulator.exitCode === null && emulator.signalCode === null) await once(emulator, 'exit');
    if (dbpath) rmSync(dbpath, { recursive: true, force: true });
  }
}
if (!ONLY_TRANSACTIONS) await recoveryTime();

/** p50/p99 of insertOne at {w: 1, j: true} (each waits for the journal flush), from 1 and 16 connections. */
async function journaledLatency(uri: string): Promise<void> {
  for (const connections of [1, 16]) {
    const client = await new MongoClient(uri, { maxPoolSize: connections, minPoolSize: connections }).connect();
    const coll = client.db('bench').collection<{ _id: string; pad: string }>(`journaled_${connections}`);
    const latencies: number[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (next < J_TRUE_WRITES) {
          const id = next++;
          const t0 = performance.now();
          await coll.insertOne({ _id: String(id), pad: 'x'.repeat(100) }, { writeConcern: { w: 1, journal: true } });
          latencies.push(performance.now() - t0);
        }
      }),
    );
    const elapsed = performance.now() - started;
    await client.close();
    latencies.sort((a, b) => a - b);
    const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(2);
    console.log(
      `insertOne {w: 1, j: true}, ${String(connections).padStart(2)} connection(s): p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, ${fmt((J_TRUE_WRITES * 1000) / elapsed)} ops/s`,
    );
  }
}

/**
 * The restart of a data directory holding ~100 MB (RECOVERY_DOCUMENTS documents of 1 KB): from
 * the journal alone (SIGKILL before any periodic checkpoint) and from the checkpoint of a clean stop.
 */
async function recoveryTime(): Promise<void> {
  const dbpath = mkdtempSync(join(tmpdir(), 'bench-recovery-'));
  try {
    const start = async (): Promise<{ uri: string; readyMs: number; recovered: string }> => {
      const t0 = performance.now();
      emulator = spawn(process.execPath, [bin, '--port', '0', '--dbpath', dbpath], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let output = '';
      emulator.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const uri = await readyUri(120_000);
      return { uri, readyMs: performance.now() - t0, recovered: /recovered .* in \d+ ms/.exec(output)?.[0] ?? '' };
    };
    const first = await start();
    const client = await new MongoClient(first.uri).connect();
    const coll = client.db('bench').collection<{ _id: number; pad: string }>('recovery');
    const pad = 'r'.repeat(1000);
    for (let i = 0; i < RECOVERY_DOCUMENTS; i += 1000) {
      await coll.insertMany(
        Array.from({ length: Math.min(1000, RECOVERY_DOCUMENTS - i) }, (_, k) => ({ _id: i + k, pad })),
        { writeConcern: { w: 1, journal: true } },
      );
    }
    await client.close();
    emulator.kill('SIGKILL');
    await once(emulator, 'exit');
    const fromJournal = await start();
    console.log(
      `recovery of ${fmt(RECOVERY_DOCUMENTS)} documents of 1 KB (~${Math.round(RECOVERY_DOCUMENTS / 1000)} MB) after a SIGKILL (journal replay): ready in ${fmt(fromJournal.readyMs)} ms (${fromJournal.recovered})`,
    );
    emulator.kill('SIGTERM');
    await once(emulator, 'exit');
    const fromCheckpoint = await start();
    console.log(
      `recovery of the same after a clean stop (checkpoint only): ready in ${fmt(fromCheckpoint.readyMs)} ms (${fromCheckpoint.recovered})`,
    );
    emulator.kill('SIGTERM');
    await once(emulator, 'exit');
  } finally {
    rmSync(dbpath, { recursive: true, force: true });
  }
}

async function writeLines(uri: string, options: { delivery: boolean }): Promise<void> {
  await writeThroughput(uri, SCENARIOS.at(-1)!, { warmup: true });
  console.log(
    `findOneAndUpdate ({$inc} by _id), ${CORES} cores; µs are CPU time per op; "alone" = 1e6 / server µs (one core);`,
  );
  console.log(
    `"ceiling" = ${CORES} cores × 1e6 / (server + client µs), the most these clients and this server can do here`,
  );
  console.log('client conns procs  ops/s (median, range)  server µs client µs alone ops/s ceiling ops/s      load');
  for (const scenario of SCENARIOS) await writeThroughput(uri, scenario);
  if (options.delivery) for (const streams of [1, 100]) await deliveryLatency(uri, streams);
}

/** The URI the emulator prints once it listens. */
function readyUri(timeoutMs = STARTUP_TIMEOUT_MS): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the emulator did not start in time')), timeoutMs);
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

async function writeThroughput(
  uri: string,
  scenario: WriteScenario,
  options: { warmup?: boolean } = {},
): Promise<void> {
  const collection = `fam_${scenario.client}_${scenario.connections}_${scenario.processes}${options.warmup ? '_warmup' : ''}`;
  const seeder = await new MongoClient(uri).connect();
  await seeder
    .db('bench')
    .collection<{ _id: number; n: number }>(collection)
    .insertMany(Array.from({ length: DOCUMENTS }, (_, i) => ({ _id: i, n: 0 })));
  await seeder.close();
  const loadBefore = loadavg()[0]!;
  const target = {
    uri,
    db: 'bench',
    collection,
    documents: DOCUMENTS,
    durationMs: WRITE_DURATION_MS,
    serverPid: emulator.pid!,
  };
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
