// Fail points, the one module for them: `failCommand` sets mongod's failCommand fail point for
// one appName (and hands back how to turn it off), `skipIfFailPointsRefused` is the one allowed
// skip where a real server refuses them. Tests never send configureFailPoint by hand.
//
// failCommand is one fail point per server: configuring it replaces whatever another client set,
// and turning it off turns off theirs. Files run in parallel on one shared engine, so whoever sets
// it (or probes it) holds the engine's fail-point lock until it is off again; the other files'
// faults wait their turn instead of being silently replaced.
import { randomUUID } from 'node:crypto';
import { MongoServerError, type Document } from 'mongodb';
import type { TestContext } from 'vitest';
import { testMongoEngine } from './mongo.ts';

/** What the probe needs of a client (a MongoClient fits). */
export interface AdminCommands {
  db(name: string): { command(command: Document): Promise<Document> };
}

/** Where the lock lives, on the engine it guards: one document, `_id: 'failCommand'`. */
const LOCK_DATABASE = 'test_fail_points';
/** A holder that never let go (its file crashed) loses the lock after this, on the server's clock. */
const LOCK_LEASE_MS = 60_000;
/** How long a file waits for another file's fault to end before it gives up, saying so. */
const LOCK_WAIT_MS = 90_000;
const LOCK_POLL_MS = 25;
const DUPLICATE_KEY = 11000;
/**
 * Who holds the lock: this process, which runs one test file at a time (a worker). Within a file
 * a fault may be set again before the last one is off (as before the lock, the new one replaces
 * it), and the probe runs inside a test that set one: the lock is this process's to take again.
 */
const THIS_PROCESS = randomUUID();

/**
 * Takes the engine's fail-point lock: free, held by `holder` already, or held past its lease by the server's clock. An
 * upsert on the lock's `_id` that finds it held meets the duplicate key, and waits its turn.
 * Returns the release.
 */
async function lockFailPoints(client: AdminCommands, holder: string): Promise<() => Promise<void>> {
  const db = client.db(LOCK_DATABASE);
  const since = Date.now();
  for (;;) {
    const reply = await db.command({
      update: 'locks',
      updates: [
        {
          q: { _id: 'failCommand', $or: [{ holder }, { $expr: { $lt: ['$until', '$$NOW'] } }] },
          u: [{ $set: { holder, until: { $add: ['$$NOW', LOCK_LEASE_MS] } } }],
          upsert: true,
        },
      ],
    });
    const writeError = (reply['writeErrors'] as Document[] | undefined)?.[0];
    if (writeError === undefined) break;
    if (writeError['code'] !== DUPLICATE_KEY) throw new MongoServerError(writeError);
    if (Date.now() - since > LOCK_WAIT_MS)
      throw new Error(`the engine's failCommand fail point stayed held by another test file for ${LOCK_WAIT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
  }
  return async () =>
    void (await db.command({ delete: 'locks', deletes: [{ q: { _id: 'failCommand', holder }, limit: 1 }] }));
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
    const unlock = await lockFailPoints(client, THIS_PROCESS);
    try {
      await client.db('admin').command({ configureFailPoint: 'failCommand', mode: 'off' });
    } finally {
      await unlock();
    }
    return undefined;
  } catch (error) {
    if (
      engine === 'uri' &&
      error instanceof MongoServerError &&
      error.codeName !== undefined &&
      REFUSALS.has(error.codeName)
    ) {
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
 * Sets mongod's `failCommand` fail point for the clients named `appName` only, under the engine's
 * fail-point lock, so that test files sharing the engine never see each other's faults. Returns
 * the function that turns it off and lets the lock go. `holder` stands for another test file
 * (test/db/failPoints.test.ts); a file leaves it to this process.
 */
export async function failCommand(
  client: AdminCommands,
  appName: string,
  mode: 'alwaysOn' | { times: number } | { skip: number },
  data: Record<string, unknown> & { failCommands: string[] },
  { holder = THIS_PROCESS }: { holder?: string } = {},
): Promise<() => Promise<void>> {
  const admin = client.db('admin');
  const unlock = await lockFailPoints(client, holder);
  try {
    await admin.command({ configureFailPoint: 'failCommand', mode, data: { ...data, appName } });
  } catch (error) {
    await unlock();
    throw error;
  }
  let off: Promise<void> | undefined;
  return () =>
    (off ??= (async () => {
      try {
        await admin.command({ configureFailPoint: 'failCommand', mode: 'off' });
      } finally {
        await unlock();
      }
    })());
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
