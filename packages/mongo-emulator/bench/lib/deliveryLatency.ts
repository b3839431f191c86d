import { MongoClient, type ChangeStream } from 'mongodb';

const LATENCY_SAMPLES = 500;

/**
 * Change-event delivery latency: one writer inserts, `streamCount` streams (one client each)
 * wait for the event; a sample is the time from the writer's acknowledgement to an arrival.
 */
export async function deliveryLatency(uri: string, streamCount: number): Promise<void> {
  const writer = await new MongoClient(uri).connect();
  const readers = await Promise.all(
    Array.from({ length: streamCount }, () => new MongoClient(uri, { maxPoolSize: 1 }).connect()),
  );
  const coll = `latency${streamCount}`;
  const streams: ChangeStream[] = readers.map((r) =>
    r.db('bench').collection(coll).watch([], { maxAwaitTimeMS: 1000 }),
  );
  await Promise.all(streams.map((s) => s.tryNext()));
  const samplesMs: number[] = [];
  for (let i = 0; i < LATENCY_SAMPLES; i++) {
    const arrivals = streams.map((s) => s.next().then(() => performance.now()));
    await writer.db('bench').collection(coll).insertOne({ i });
    const ackedAt = performance.now();
    for (const arrivedAt of await Promise.all(arrivals)) samplesMs.push(Math.max(0, arrivedAt - ackedAt));
  }
  samplesMs.sort((a, b) => a - b);
  const pct = (p: number) =>
    samplesMs[Math.min(samplesMs.length - 1, Math.floor((p / 100) * samplesMs.length))]!.toFixed(2);
  console.log(
    `change-event delivery, ${String(streamCount).padStart(3)} stream(s): p50 ${pct(50)} ms, p99 ${pct(99)} ms (${samplesMs.length} deliveries)`,
  );
  await Promise.all(streams.map((s) => s.close()));
  await Promise.all([writer, ...readers].map((c) => c.close()));
}
