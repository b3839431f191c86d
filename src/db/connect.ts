import { MongoClient, type MongoClientOptions } from 'mongodb';
import type { Config } from '../config.ts';
import { tracingEnabled } from '../observability/tracing.ts';

export type MongoLimits = Pick<Config['limits'], 'mongoSocketTimeoutMs' | 'mongoServerSelectionTimeoutMs'>;

/**
 * The one way the application opens a client. Retryable writes stay on and reads go to the
 * primary, so no command of a mutation reads from a secondary; money writes choose
 * `writeConcern: majority` themselves. `monitorCommands` is for tests that read the commands sent.
 */
export async function connectMongo(
  uri: string,
  limits: MongoLimits,
  appName: string,
  options: Pick<MongoClientOptions, 'monitorCommands'> = {},
): Promise<MongoClient> {
  const client = new MongoClient(uri, {
    retryWrites: true,
    retryReads: true,
    readPreference: 'primary',
    socketTimeoutMS: limits.mongoSocketTimeoutMs,
    serverSelectionTimeoutMS: limits.mongoServerSelectionTimeoutMs,
    // `precondition/<processId>` (processLiveness.ts): the server reports it beside each open
    // transaction, so a surviving process can tell a dead one's orphans apart.
    appName,
    // Command events for the MongoDB spans (src/observability/mongoCommandSpans.ts), only when
    // tracing: without a listener the driver builds no event, with the option it would.
    monitorCommands: tracingEnabled(),
    ...options,
  });
  await client.connect();
  return client;
}
