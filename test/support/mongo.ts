import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, inject } from 'vitest';
import { MongoClient, type Db, type MongoClientOptions } from 'mongodb';

export interface TestDb {
  client: MongoClient;
  db: Db;
  uri: string;
  dbName: string;
  close(): Promise<void>;
}

/** The engine of the file running in this worker, when it asked for one of its own (useOwnEngine). */
let ownEngineUri: string | undefined;

/** The URI of the engine the global setup resolved for this run (real mongod or the emulator), or the file's own. */
export function testMongoUri(): string {
  return ownEngineUri ?? inject('mongoUri');
}

/**
 * For a file that sets fail points (tagged `failpoints`): failCommand is one fail point per
 * server, so files sharing the run's engine take turns at it (test/support/failPoints.ts's lock)
 * and wait for each other. When the run's engine is the emulator, this gives the file an
 * in-process emulator of its own for its duration (every testMongoUri() in the file answers it),
 * so its faults wait for nobody and it runs in the parallel group. On a real mongod (MONGODB_URI)
 * the file shares the run's engine and the lock keeps the faults apart. Call it first in the
 * file, before any hook that connects.
 */
export function useOwnEngine(): void {
  let ended = false;
  let stop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    if (testMongoEngine().kind !== 'emulator') return;
    const { startEmulator } = await import('@precondition/mongo-emulator');
    const engine = await startEmulator({ port: 0, replSetName: 'rs0' });
    // A start that outlived its hook's timeout ends after the file did: it must not become the
    // engine of whichever file this worker runs next.
    if (ended) return void (await engine.stop());
    ownEngineUri = engine.uri;
    stop = () => engine.stop();
  });
  afterAll(async () => {
    // Workers run file after file: the next file gets the run's engine again.
    ended = true;
    ownEngineUri = undefined;
    await stop?.();
  });
}

/** Which engine the run uses and why (for the `health` query of test servers). */
export function testMongoEngine(): { kind: 'uri' | 'memory-server' | 'emulator'; reason: string } {
  return inject('mongoEngine');
}

/**
 * A client and a database of this test file's own, so that files can run in parallel on one
 * engine. `tag` names the file in the database name to make leftovers easy to trace.
 */
export async function connectTestDb(
  tag: string,
  options: MongoClientOptions = {},
  uri: string = testMongoUri(),
): Promise<TestDb> {
  const dbName = `test_${tag.replace(/[^A-Za-z0-9_]/g, '_')}_${randomBytes(4).toString('hex')}`;
  const client = new MongoClient(uri, options);
  await client.connect();
  const db = client.db(dbName);
  return {
    client,
    db,
    uri,
    dbName,
    async close() {
      await db.dropDatabase().catch(() => undefined);
      await client.close();
    },
  };
}
