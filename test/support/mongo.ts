import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { MongoClient, type Db, type MongoClientOptions } from 'mongodb';

export interface TestDb {
  client: MongoClient;
  db: Db;
  uri: string;
  dbName: string;
  close(): Promise<void>;
}

/** The URI of the engine the global setup resolved for this run (real mongod or the emulator). */
export function testMongoUri(): string {
  return inject('mongoUri');
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
