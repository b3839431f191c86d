// Helpers for the replica-set tests, each written once: a three-member set with the tests' timings
// (one per file, or one per test), the set's client and a client per member (direct connection),
// the member that is primary now, the ids a member holds, fail points, and the CLI launcher run as
// a user runs it. Everything waits on observable state (hello, a member's data, the launcher's
// output), never a sleep.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { MongoClient, ReadPreference, type Document, type MongoClientOptions } from 'mongodb';
import { afterAll, beforeAll, expect } from 'vitest';
import {
  startReplicaSet,
  type ReplicaSetMember,
  type ReplicaSetOptions,
  type RunningReplicaSet,
} from '../../src/index.ts';

/** Election timeout and heartbeat interval of the test sets: elections within about a second. */
export const TEST_ELECTION_TIMEOUT_MS = 1000;
export const TEST_HEARTBEAT_INTERVAL_MS = 200;

/** How long a file's set may take to start: three processes on a machine shared with other runs. */
const SET_START_TIMEOUT_MS = 60_000;

/** Test documents: _id of any type, any fields. */
export type TestDoc = {
  _id: string | number;
  a?: number;
  n?: number;
  t?: number;
  list?: number[];
  nested?: { x: number };
  note?: string;
};

/**
 * A three-member set with the tests' election timeout and heartbeats. With REPL_TEST_LOG set, every
 * line a member prints goes to the console (unless `options.onOutput` takes them).
 */
export function startTestSet(options: ReplicaSetOptions = {}): Promise<RunningReplicaSet> {
  return startReplicaSet({
    nodes: 3,
    electionTimeoutMillis: TEST_ELECTION_TIMEOUT_MS,
    heartbeatIntervalMillis: TEST_HEARTBEAT_INTERVAL_MS,
    ...(process.env.REPL_TEST_LOG ? { onOutput: (i: number, line: string) => console.log(`[${i}] ${line}`) } : {}),
    ...options,
  });
}

/** The set a file's tests share, and a client of it (the driver following the set). */
export interface FileSet {
  readonly set: RunningReplicaSet;
  readonly client: MongoClient;
}

/**
 * One test set for the whole file, started before its first test and stopped after its last, with
 * a client that finds a new primary within half a second. Read `set` and `client` inside tests.
 */
export function setForFile(clientOptions: MongoClientOptions = {}): FileSet {
  let set: RunningReplicaSet | undefined;
  let client: MongoClient | undefined;
  beforeAll(async () => {
    set = await startTestSet();
    client = new MongoClient(set.uri, {
      heartbeatFrequencyMS: 500,
      serverSelectionTimeoutMS: 15_000,
      ...clientOptions,
    });
  }, SET_START_TIMEOUT_MS);
  afterAll(async () => {
    await client?.close();
    await set?.stop();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("the file's set is read before its beforeAll started it");
    return value;
  };
  return {
    get set() {
      return started(set);
    },
    get client() {
      return started(client);
    },
  };
}

/** A member alone, whatever its state (a secondary too), as a test reads it. */
const directUri = (member: ReplicaSetMember) => `mongodb://${member.address}/?directConnection=true`;
const DIRECT_OPTIONS: MongoClientOptions = { serverSelectionTimeoutMS: 5000 };

export function directClient(member: ReplicaSetMember): MongoClient {
  return new MongoClient(directUri(member), DIRECT_OPTIONS);
}

/** Runs `use` with a client of `uri`, closed after it whatever happens. */
export async function withClient<T>(
  uri: string,
  use: (client: MongoClient) => Promise<T>,
  options: MongoClientOptions = {},
): Promise<T> {
  const client = new MongoClient(uri, options);
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

/** Runs `use` with a direct client of `member`, closed after it whatever happens. */
export function withDirectClient<T>(member: ReplicaSetMember, use: (client: MongoClient) => Promise<T>): Promise<T> {
  return withClient(directUri(member), use, DIRECT_OPTIONS);
}

export function adminCommand(member: ReplicaSetMember, command: Document): Promise<Document> {
  return withDirectClient(member, (client) => client.db('admin').command(command));
}

/** The _ids of `db.coll` as `member` itself holds them (a secondary included), in _id order. */
export function idsOn(member: ReplicaSetMember, db: string, coll: string): Promise<unknown[]> {
  return withDirectClient(member, async (client) => {
    const docs = await client
      .db(db)
      .collection<{ _id: unknown }>(coll)
      .find({}, { readPreference: ReadPreference.secondaryPreferred })
      .sort({ _id: 1 })
      .toArray();
    return docs.map((d) => d._id);
  });
}

/** The member every member agrees is primary (waits until they do). */
export async function settledPrimary(set: RunningReplicaSet, except?: ReplicaSetMember): Promise<ReplicaSetMember> {
  let primary: ReplicaSetMember | undefined;
  await expect
    .poll(
      async () => {
        const live = set.members.filter((m) => m !== except);
        const hellos = await Promise.all(live.map((m) => adminCommand(m, { hello: 1 }).catch(() => undefined)));
        const primaries = live.filter((_, i) => hellos[i]?.isWritablePrimary === true);
        const agreed = hellos.every(
          (h) => h && (h.isWritablePrimary === true || h.secondary === true) && h.primary === primaries[0]?.address,
        );
        primary = primaries.length === 1 && agreed ? primaries[0] : undefined;
        return primary !== undefined;
      },
      { timeout: 15_000, interval: 50 },
    )
    .toBe(true);
  return primary!;
}

/**
 * Sends `command` (a replSetStepDown) to the member that is primary when it is sent, again if an
 * election made another member primary in between (NotWritablePrimary, 10107); answers the member
 * that stepped down.
 */
export async function stepDownThePrimary(set: RunningReplicaSet, command: Document): Promise<ReplicaSetMember> {
  let steppedDown: ReplicaSetMember | undefined;
  await expect
    .poll(
      async () => {
        const primary = await settledPrimary(set);
        const done = await adminCommand(primary, command).then(
          () => true,
          (error: { code?: number }) => {
            if (error.code === 10107) return false;
            throw error;
          },
        );
        if (done) steppedDown = primary;
        return done;
      },
      { timeout: 15_000, interval: 50 },
    )
    .toBe(true);
  return steppedDown!;
}

export function secondariesOf(set: RunningReplicaSet, primary: ReplicaSetMember): ReplicaSetMember[] {
  return set.members.filter((m) => m !== primary);
}

/**
 * Sets `fields` (priority, hidden, secondaryDelaySecs...) on `member`'s entry of the config through
 * a replSetReconfig sent to `primary`, and waits until `member` has the new config version.
 */
export async function reconfigureMember(
  primary: ReplicaSetMember,
  member: ReplicaSetMember,
  fields: Document,
): Promise<void> {
  const { config } = await adminCommand(primary, { replSetGetConfig: 1 });
  const members = (config.members as { host: string }[]).map((m) =>
    m.host === member.address ? { ...m, ...fields } : m,
  );
  await adminCommand(primary, { replSetReconfig: { ...config, version: config.version + 1, members } });
  await expect
    .poll(async () => (await adminCommand(member, { replSetGetConfig: 1 })).config.version, { timeout: 10_000 })
    .toBe(config.version + 1);
}

export async function failPoint(member: ReplicaSetMember, name: string, mode: 'alwaysOn' | 'off'): Promise<void> {
  await adminCommand(member, { configureFailPoint: name, mode });
}

const LAUNCHER_BIN = fileURLToPath(new URL('../../bin/mongo-emulator.mjs', import.meta.url));
/** How long the launcher may take to print the set's URI: three members to start and elect. */
const LAUNCHER_START_TIMEOUT_MS = 60_000;
/** The launcher's last start-up lines: the advice, then the set's URI on a line of its own. */
const LAUNCHER_URI = /Connect with this URI[^\n]*\n(mongodb:\/\/\S+)\n/;

/** A running `mongo-emulator --nodes 3` launcher. */
export interface LaunchedSet {
  /** The set's URI, as the launcher printed it. */
  readonly uri: string;
  /** Everything the launcher printed so far. */
  output(): string;
  /** SIGTERM (the launcher stops its members), resolved once it exited. */
  stop(): Promise<void>;
}

/**
 * `mongo-emulator --nodes 3 --port 0 --replSet rs0 --electionTimeoutMillis 1000 ...args`, as a user
 * runs it (the README's command, default heartbeats); resolves once it printed the set's URI.
 */
export async function launchSet(args: string[] = []): Promise<LaunchedSet> {
  const child = spawn(
    process.execPath,
    [LAUNCHER_BIN, '--nodes', '3', '--port', '0', '--replSet', 'rs0', '--electionTimeoutMillis', '1000', ...args],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    child.kill('SIGTERM');
    await exited;
  };
  let output = '';
  try {
    const uri = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the launcher printed no URI in ${LAUNCHER_START_TIMEOUT_MS} ms: ${output}`)),
        LAUNCHER_START_TIMEOUT_MS,
      );
      const onData = (chunk: Buffer) => {
        output += String(chunk);
        const match = LAUNCHER_URI.exec(output);
        if (!match) return;
        clearTimeout(timer);
        resolve(match[1]!);
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the launcher exited (${code}) before it printed a URI: ${output}`));
      });
    });
    return { uri, output: () => output, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
