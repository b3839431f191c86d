import { MongoServerError, type Document } from 'mongodb';
import type { TestContext } from 'vitest';
import { testMongoEngine } from './mongo.ts';

/** What the probe needs of a client (a MongoClient fits). */
export interface AdminCommands {
  db(name: 'admin'): { command(command: Document): Promise<Document> };
}

/**
 * How a server says it will not set fail points: mongod without enableTestCommands=1 does not
 * know the command, a user without the privilege is Unauthorized, Atlas answers AtlasError.
 */
const REFUSALS: ReadonlySet<string> = new Set(['CommandNotFound', 'Unauthorized', 'CommandNotSupported', 'AtlasError']);

/**
 * Probes once whether the engine lets tests set fail points, with a harmless `mode: 'off'`.
 * Returns the reason to skip, or undefined. The emulator and the memory server (started with
 * enableTestCommands) must accept: a refusal there is a bug and throws, as does any other error.
 */
export async function failPointsRefusal(
  client: AdminCommands,
  engine: 'uri' | 'memory-server' | 'emulator' = testMongoEngine().kind,
): Promise<string | undefined> {
  try {
    await client.db('admin').command({ configureFailPoint: 'failCommand', mode: 'off' });
    return undefined;
  } catch (error) {
    if (engine === 'uri' && error instanceof MongoServerError && error.codeName !== undefined && REFUSALS.has(error.codeName)) {
      return `the server at MONGODB_URI refuses configureFailPoint (${error.codeName}: ${error.message}); start mongod with --setParameter enableTestCommands=1 to run this test`;
    }
    throw error;
  }
}

let probed: Promise<string | undefined> | undefined;

/**
 * The one allowed skip: call first in a fail-point test. Where the server refuses fail points it
 * skips the test with the reason (probed once per test file); everywhere else it does nothing.
 */
export async function skipIfFailPointsRefused(context: TestContext, client: AdminCommands): Promise<void> {
  probed ??= failPointsRefusal(client);
  const reason = await probed;
  if (reason !== undefined) context.skip(reason);
}
