// `npm run bench:failover`: the emulator as a three-member replica set of processes, measured as
// users meet it. Prints (never asserts):
// - failover time: SIGKILL of the primary -> the first write the driver gets acknowledged, over
//   FAILOVER_TRIALS trials (default 20) at electionTimeoutMillis 1000; p50 and max. Each trial
//   restarts the killed member (--uninitiated: it re-syncs) and waits for a settled set first.
// - replication lag under w:majority load: LAG_WRITERS concurrent writers for LAG_DURATION_MS;
//   each write's acknowledgement time (which waits for a majority, so for the first secondary's
//   apply) p50/p99, and each secondary's lag (primary's last write -> the secondary's, read from
//   replSetGetStatus every LAG_SAMPLE_MS) p50/p99.
// The machine may be shared: the figures say what this run saw, not what the code can do.
import { loadavg } from 'node:os';
import { MongoClient } from 'mongodb';
import { startReplicaSet, waitForPrimary } from '../src/index.ts';

const TRIALS = Number(process.env.FAILOVER_TRIALS ?? 20);
const ELECTION_TIMEOUT_MS = 1000;
const HEARTBEAT_INTERVAL_MS = 200;
/** How long the set may take to settle again after a restart. */
const SETTLE_TIMEOUT_MS = 30_000;
const LAG_DURATION_MS = Number(process.env.LAG_DURATION_MS ?? 5000);
const LAG_WRITERS = Number(process.env.LAG_WRITERS ?? 16);
const LAG_SAMPLE_MS = 50;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function failover(): Promise<void> {
  const set = await startReplicaSet({
    nodes: 3,
    electionTimeoutMillis: ELECTION_TIMEOUT_MS,
    heartbeatIntervalMillis: HEARTBEAT_INTERVAL_MS,
  });
  const times: number[] = [];
  try {
    for (let trial = 0; trial < TRIALS; trial++) {
      const primaryAddress = await waitForPrimary(
        set.members.map((m) => m.address),
        SETTLE_TIMEOUT_MS,
      );
      const client = new MongoClient(set.uri, { heartbeatFrequencyMS: 500, serverSelectionTimeoutMS: 30_000 });
      try {
        const coll = client.db('bench').collection<{ trial: number; at: string }>('failover');
        await coll.insertOne({ trial, at: 'before' });
        const primary = set.members.find((m) => m.address === primaryAddress)!;
        const killedAt = performance.now();
        primary.kill('SIGKILL');
        await coll.insertOne({ trial, at: 'after' });
        times.push(performance.now() - killedAt);
        await primary.exited();
        await primary.restart();
        // The restarted member must be a secondary again before the next kill.
        const direct = new MongoClient(`mongodb://${primary.address}/?directConnection=true`);
        try {
          const deadline = Date.now() + SETTLE_TIMEOUT_MS;
          while ((await direct.db('admin').command({ hello: 1 })).secondary !== true) {
            if (Date.now() > deadline) throw new Error(`${primary.address} did not re-sync in ${SETTLE_TIMEOUT_MS} ms`);
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
        } finally {
          await direct.close();
        }
      } finally {
        await client.close();
      }
      console.log(`  trial ${trial + 1}/${TRIALS}: ${times[times.length - 1]!.toFixed(0)} ms`);
    }
  } finally {
    await set.stop();
  }
  console.log(
    `failover (SIGKILL primary -> first write acknowledged), ${TRIALS} trials, electionTimeoutMillis ${ELECTION_TIMEOUT_MS}: p50 ${percentile(times, 50).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms (target p50 <= 2000, max <= 5000)`,
  );
}

async function replicationLag(): Promise<void> {
  const set = await startReplicaSet({
    nodes: 3,
    electionTimeoutMillis: ELECTION_TIMEOUT_MS,
    heartbeatIntervalMillis: HEARTBEAT_INTERVAL_MS,
  });
  const client = new MongoClient(set.uri, { maxPoolSize: LAG_WRITERS + 2 });
  const admin = new MongoClient(set.uri);
  try {
    const coll = client.db('bench').collection<{ writer: number; n: number }>('lag');
    await coll.insertOne({ writer: -1, n: 0 });
    const acks: number[] = [];
    const lags: number[] = [];
    const end = Date.now() + LAG_DURATION_MS;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const status = await admin.db('admin').command({ replSetGetStatus: 1 });
        const primary = status.members.find((m: { stateStr: string }) => m.stateStr === 'PRIMARY');
        for (const member of status.members as {
          stateStr: string;
          optime: { ts: { high: number; low: number } };
          lastAppliedWallTime: Date;
        }[]) {
          if (member.stateStr !== 'SECONDARY' || !primary) continue;
          lags.push(Math.max(0, primary.lastAppliedWallTime.getTime() - member.lastAppliedWallTime.getTime()));
        }
        await new Promise((resolve) => setTimeout(resolve, LAG_SAMPLE_MS));
      }
    })();
    await Promise.all(
      Array.from({ length: LAG_WRITERS }, async (_, writer) => {
        for (let n = 0; Date.now() < end; n++) {
          const started = performance.now();
          await coll.insertOne({ writer, n }, { writeConcern: { w: 'majority' } });
          acks.push(performance.now() - started);
        }
      }),
    );
    sampling = false;
    await sampler;
    console.log(
      `w:majority load, ${LAG_WRITERS} writers for ${LAG_DURATION_MS} ms: ${(acks.length / (LAG_DURATION_MS / 1000)).toFixed(0)} writes/s; ` +
        `acknowledgement p50 ${percentile(acks, 50).toFixed(1)} ms, p99 ${percentile(acks, 99).toFixed(1)} ms; ` +
        `secondary lag (replSetGetStatus lastAppliedWallTime, sampled every ${LAG_SAMPLE_MS} ms, ${lags.length} samples) p50 ${percentile(lags, 50)} ms, p99 ${percentile(lags, 99)} ms`,
    );
  } finally {
    await client.close();
    await admin.close();
    await set.stop();
  }
}

console.log(`bench:failover on a ${loadavg()[0]!.toFixed(1)}-load machine (shared: figures are this run's)`);
if (process.env.BENCH_LINES !== 'lag') await failover();
if (process.env.BENCH_LINES !== 'failover') await replicationLag();
