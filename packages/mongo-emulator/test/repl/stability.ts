// The README's replica-set command, as a user runs it (the CLI launcher, default heartbeats of 2 s
// against a 1 s election timeout), watched for a while with no fault: one primary, one term. Shared
// by the short run in npm test (stability.test.ts) and the minute-long proof in test:faults.
import { MongoClient } from 'mongodb';
import { expect } from 'vitest';
import { launchSet } from './replSetHelpers.ts';

const POLL_MS = 250;

export interface StabilityOutcome {
  /** Every term any member reported while watched. */
  terms: bigint[];
  /** The launcher's output up to its ready lines. */
  startOutput: string[];
}

/** Starts `mongo-emulator --nodes 3 --port 0 --replSet rs0 --electionTimeoutMillis 1000` and watches its terms for `watchMs`. */
export async function watchReadmeSet(watchMs: number): Promise<StabilityOutcome> {
  const launched = await launchSet();
  try {
    const lines = launched.output().split('\n');
    const uriLine = lines.findIndex((l) => l.startsWith('mongodb://'));
    const startOutput = lines.slice(0, uriLine + 1);
    const uri = launched.uri;
    const hosts = uri.slice('mongodb://'.length, uri.indexOf('/?')).split(',');
    const clients = hosts.map(
      (h) => new MongoClient(`mongodb://${h}/?directConnection=true`, { serverSelectionTimeoutMS: 5000 }),
    );
    const set = new MongoClient(uri);
    const terms = new Set<bigint>();
    try {
      const until = Date.now() + watchMs;
      let n = 0;
      while (Date.now() < until) {
        // A little traffic, as a user's would be, then every member's term.
        await set
          .db('stability')
          .collection<{ _id: number }>('t')
          .insertOne({ _id: n++ }, { writeConcern: { w: 'majority', wtimeoutMS: 10_000 } });
        for (const client of clients) {
          const status = await client.db('admin').command({ replSetGetStatus: 1 });
          terms.add(BigInt(status.term));
        }
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    } finally {
      await set.close();
      for (const client of clients) await client.close();
    }
    return { terms: [...terms], startOutput };
  } finally {
    await launched.stop();
  }
}

/** What the launcher's start looks like: the set's URI last, said to be the one to use, no member URI. */
export function expectLauncherOutput(startOutput: string[]): void {
  const last = startOutput.at(-1)!;
  expect(last).toMatch(/^mongodb:\/\/[^/]+,[^/]+,[^/]+\/\?replicaSet=rs0$/);
  expect(startOutput.at(-2)).toMatch(/Connect with this URI/);
  for (const line of startOutput.filter((l) => l.startsWith('[member'))) expect(line).not.toContain('mongodb://');
}
