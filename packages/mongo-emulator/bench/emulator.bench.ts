// `npm run bench:emulator`: the emulator seen through the official driver over TCP, as the API
// sees it. Prints (never asserts) single-document findOneAndUpdate throughput over 1 and 16
// connections, and change-event delivery latency (write acknowledged -> event received, p50/p99)
// with 1 and 100 open streams. The emulator runs as its own process (its bin), as in use, so the
// client's work does not share its event loop.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { MongoClient, type ChangeStream } from 'mongodb';

const WRITE_DURATION_MS = 3000;
const LATENCY_SAMPLES = 500;
const DOCUMENTS = 1000;
const STARTUP_TIMEOUT_MS = 15_000;

const bin = fileURLToPath(new URL('../bin/mongo-emulator.mjs', import.meta.url));
const emulator = spawn(process.execPath, [bin, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
try {
  const uri = await readyUri();
  console.log(`mongo-emulator bench on ${uri} (node ${process.version}, emulator pid ${emulator.pid})`);
  for (const connections of [1, 16]) await findOneAndUpdateThroughput(uri, connections);
  for (const streams of [1, 100]) await deliveryLatency(uri, streams);
} finally {
  emulator.kill('SIGTERM');
  if (emulator.exitCode === null) await once(emulator, 'exit');
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

async function findOneAndUpdateThroughput(uri: string, connections: number): Promise<void> {
  const client = await new MongoClient(uri, { maxPoolSize: connections, minPoolSize: connections }).connect();
  const coll = client.db('bench').collection<{ _id: number; n: number }>(`fam${connections}`);
  await coll.insertMany(Array.from({ length: DOCUMENTS }, (_, i) => ({ _id: i, n: 0 })));
  let ops = 0;
  const endMs = Date.now() + WRITE_DURATION_MS;
  await Promise.all(Array.from({ length: connections }, async (_, k) => {
    for (let i = k; Date.now() < endMs; i += connections) {
      await coll.findOneAndUpdate({ _id: i % DOCUMENTS }, { $inc: { n: 1 } }, { returnDocument: 'after' });
      ops += 1;
    }
  }));
  console.log(`findOneAndUpdate, ${String(connections).padStart(3)} connection(s): ${Math.round((ops * 1000) / WRITE_DURATION_MS).toLocaleString('en')} ops/s`);
  await client.close();
}

async function deliveryLatency(uri: string, streamCount: number): Promise<void> {
  const writer = await new MongoClient(uri).connect();
  const readers = await Promise.all(Array.from({ length: streamCount }, () => new MongoClient(uri, { maxPoolSize: 1 }).connect()));
  const coll = `latency${streamCount}`;
  const streams: ChangeStream[] = readers.map((r) => r.db('bench').collection(coll).watch([], { maxAwaitTimeMS: 1000 }));
  await Promise.all(streams.map((s) => s.tryNext()));
  const samplesMs: number[] = [];
  for (let i = 0; i < LATENCY_SAMPLES; i++) {
    let ackedAt = 0;
    const arrivals = streams.map((s) => s.next().then(() => performance.now()));
    await writer.db('bench').collection(coll).insertOne({ i });
    ackedAt = performance.now();
    for (const arrivedAt of await Promise.all(arrivals)) samplesMs.push(Math.max(0, arrivedAt - ackedAt));
  }
  samplesMs.sort((a, b) => a - b);
  const pct = (p: number) => samplesMs[Math.min(samplesMs.length - 1, Math.floor((p / 100) * samplesMs.length))]!.toFixed(2);
  console.log(`change-event delivery, ${String(streamCount).padStart(3)} stream(s): p50 ${pct(50)} ms, p99 ${pct(99)} ms (${samplesMs.length} deliveries)`);
  await Promise.all(streams.map((s) => s.close()));
  await Promise.all([writer, ...readers].map((c) => c.close()));
}
