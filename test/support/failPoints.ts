// Fail points, the one module for them: `failCommand` sets mongod's failCommand fail point for
// one appName (and hands back how to turn it off), `skipIfFailPointsRefused` is the one allowed
// skip where a real server refuses them. Tests never send configureFailPoint by hand.
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

/**
 * Sets mongod's `failCommand` fail point for the clients named `appName` only, so that test
 * files sharing the engine never see each other's faults. Returns the function that turns it off.
 */
export async function failCommand(
  client: AdminCommands,
  appName: string,
  mode: 'alwaysOn' | { times: number } | { skip: number },
  data: Record<string, unknown> & { failCommands: string[] },
): Promise<() => Promise<void>> {
  const admin = client.db('admin');
  await admin.command({ configureFailPoint: 'failCommand', mode, data: { ...data, appName } });
  return async () => {
    await admin.command({ configureFailPoint: 'failCommand', mode: 'off' });
  };
}

/** Runs `body` with the fail point set for `appName`, and turns it off however `body` ends. */
export async function withFailCommand<T>(
  client: AdminCommands,
  appName: string,
  mode: 'alwaysOn' | { times: number } | { skip: number },
  data: Record<string, unknown> & { failCommands: string[] },
  body: () => Promise<T>,
): Promise<T> {
  const turnOff = await failCommand(client, appName, mode, data);
  try {
    return await body();
  } finally {
    await turnOff();
  }
}
