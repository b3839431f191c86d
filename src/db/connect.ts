import { MongoClient, type MongoClientOptions } from 'mongodb';
import type { Config } from '../config.ts';

export type MongoLimits = Pick<Config['limits'], 'mongoSocketTimeoutMs' | 'mongoServerSelectionTimeoutMs'>;

/**
 * The one way the application opens a client. Retryable writes stay on and reads go to the
 * primary, so no command of a mutation reads from a secondary; money writes choose
 * `writeConcern: majority` themselves. `monitorCommands` is for tests that read the commands sent.
 */
export async function connectMongo(uri: string, limits: MongoLimits, options: Pick<MongoClientOptions, 'monitorCommands'> = {}): Promise<MongoClient> {
  const client = new MongoClient(uri, {
    retryWrites: true,
    retryReads: true,
    readPreference: 'primary',
    socketTimeoutMS: limits.mongoSocketTimeoutMs,
    serverSelectionTimeoutMS: limits.mongoServerSelectionTimeoutMs,
    appName: 'precondition',
    ...options,
  });
  await client.connect();
  return client;
}
