// A three-member replica set for the tests that need failover, lag and rollback, driven only
// through what mongod offers: signals to a member's process (SIGKILL, SIGSTOP/SIGCONT),
// `replSetStepDown`, `replSetReconfig`, the fail points `stopReplProducer` and `rsSyncApplyStop`.
//
// Which engine: `mongodb-memory-server`'s MongoMemoryReplSet (three real mongod) when the run's
// engine is the memory server (a mongod binary could be had), otherwise the emulator's replica
// set (`startReplicaSet`, one process per member, as `mongo-emulator --nodes 3` runs it). The
// choice is printed once per set, with its reason, so nobody mistakes the emulator for mongod.
//
//   const set = await startTestReplSet();
//   const primary = await set.primary();
//   primary.kill('SIGSTOP'); ... primary.kill('SIGCONT');
//   const release = await holdBack(secondary, 'rsSyncApplyStop');
//   await set.stop();
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient, type Document } from 'mongodb';
import { testMongoEngine } from './mongo.ts';
import { waitFor } from './waiting.ts';

/**
 * The set's timings: an election within about a second of losing the primary. mongod's default
 * (10 s) would make every fault test wait ten times longer for the same behaviour.
 */
export const TEST_SET_ELECTION_TIMEOUT_MS = 1000;
export const TEST_SET_HEARTBEAT_INTERVAL_MS = 200;
/** How long a test waits for the set to agree on a primary: a few election timeouts on a busy machine. */
const SETTLE_TIMEOUT_MS = 20_000;
/**
 * How long every member may take to be primary or secondary again: a member that rolled back
 * (the emulator re-syncs it whole) or restarted makes an initial sync of the whole data set,
 * measured at up to a minute on a 2-core machine at load 15-20.
 */
const MEMBERS_UP_TIMEOUT_MS = 180_000;

export interface TestSetMember {
  readonly index: number;
  /** host:port, as hello and the set's config name it. */
  readonly address: string;
  readonly pid: number;
  /** Sends a signal to the member's process (SIGKILL, SIGSTOP, SIGCONT, SIGTERM). */
  kill(signal: NodeJS.Signals): void;
  /** Starts a killed member again on its port; it rejoins the set and catches up. */
  restart(): Promise<void>;
}

export interface TestReplSet {
  readonly engine: 'memory-server' | 'emulator';
  readonly uri: string;
  readonly members: readonly TestSetMember[];
  /** The member every reachable member agrees is primary (waits until they do), never `except`. */
  primary(except?: TestSetMember): Promise<TestSetMember>;
  secondaries(primary: TestSetMember): TestSetMember[];
  /** Waits until every member is primary or secondary (a restarted one has finished its initial sync). */
  allMembersUp(): Promise<void>;
  stop(): Promise<void>;
}

export interface StartTestReplSetOptions {
  /** Per-member config fields (priority, votes, hidden), by index. */
  memberConfig?: Document[];
  /**
   * Each member keeps its data in a directory of its own (the emulator's --dbpath; mongod's always
   * does), so a member killed with every other comes back with what it acknowledged: the whole-set
   * kill needs it. Removed when the set stops.
   */
  durable?: boolean;
}

export async function startTestReplSet(options: StartTestReplSetOptions = {}): Promise<TestReplSet> {
  const { kind } = testMongoEngine();
  const set = kind === 'memory-server' ? await startMemoryReplSet(options) : await startEmulatorReplSet(options);
  console.log(
    set.engine === 'emulator'
      ? `[test replica set] the emulator's three member processes${options.durable ? ', each on its own dbpath,' : ''} at ${set.uri} (the run's engine is ${kind}, not mongod: faults are the emulator's model of mongod's)`
      : `[test replica set] MongoMemoryReplSet, three mongod at ${set.uri}`,
  );
  return set;
}

async function startEmulatorReplSet(options: StartTestReplSetOptions): Promise<TestReplSet> {
  const { startReplicaSet } = await import('@precondition/mongo-emulator');
  const dbpath = options.durable ? mkdtempSync(join(tmpdir(), 'test-set-')) : undefined;
  const set = await startReplicaSet({
    nodes: 3,
    electionTimeoutMillis: TEST_SET_ELECTION_TIMEOUT_MS,
    heartbeatIntervalMillis: TEST_SET_HEARTBEAT_INTERVAL_MS,
    ...(dbpath ? { dbpath } : {}),
    ...(options.memberConfig ? { memberConfig: options.memberConfig } : {}),
    ...(process.env['REPL_TEST_LOG']
      ? { onOutput: (i: number, line: string) => console.log(`[member ${i}] ${line}`) }
      : {}),
  }).catch((error: unknown) => {
    if (dbpath) rmSync(dbpath, { recursive: true, force: true });
    throw error;
  });
  return withHelpers('emulator', set.uri, set.members, async () => {
    await set.stop();
    if (dbpath) rmSync(dbpath, { recursive: true, force: true });
  });
}

async function startMemoryReplSet(options: StartTestReplSetOptions): Promise<TestReplSet> {
  const { MongoMemoryReplSet } = await import('mongodb-memory-server');
  const replSet = await MongoMemoryReplSet.create({
    replSet: {
      count: 3,
      // enableTestCommands: the fail points, as on the emulator.
      args: ['--setParameter', 'enableTestCommands=1'],
      configSettings: {
        electionTimeoutMillis: TEST_SET_ELECTION_TIMEOUT_MS,
        heartbeatIntervalMillis: TEST_SET_HEARTBEAT_INTERVAL_MS,
      },
    },
  });
  if (options.memberConfig) {
    const client = new MongoClient(replSet.getUri());
    try {
      const { config } = await client.db('admin').command({ replSetGetConfig: 1 });
      config.members = config.members.map((member: Document, i: number) => ({
        ...member,
        ...(options.memberConfig?.[i] ?? {}),
      }));
      config.version += 1;
      await client.db('admin').command({ replSetReconfig: config });
    } finally {
      await client.close();
    }
  }
  const members: TestSetMember[] = replSet.servers.map((server, index) => ({
    index,
    get address() {
      return `127.0.0.1:${server.instanceInfo!.port}`;
    },
    get pid() {
      return server.instanceInfo!.instance.mongodProcess!.pid!;
    },
    kill(signal: NodeJS.Signals) {
      const pid = server.instanceInfo?.instance.mongodProcess?.pid;
      if (pid !== undefined) process.kill(pid, signal);
    },
    async restart() {
      await server.stop({ doCleanup: false, force: true }).catch(() => undefined);
      await server.start(true);
    },
  }));
  return withHelpers('memory-server', replSet.getUri(), members, async () => {
    for (const member of members) member.kill('SIGCONT');
    await replSet.stop();
  });
}

function withHelpers(
  engine: TestReplSet['engine'],
  uri: string,
  members: readonly TestSetMember[],
  stop: () => Promise<void>,
): TestReplSet {
  return {
    engine,
    uri,
    members,
    async primary(except) {
      const live = members.filter((m) => m !== except);
      try {
        return await waitFor(
          async () => {
            const hellos = await Promise.all(live.map((m) => adminCommand(m, { hello: 1 }).catch(() => undefined)));
            const primaries = live.filter((_, i) => hellos[i]?.isWritablePrimary === true);
            const reachable = hellos.filter((h) => h !== undefined);
            const agreed = reachable.every((h) => h.primary === primaries[0]?.address);
            return primaries.length === 1 && agreed ? primaries[0] : undefined;
          },
          'the reachable members to agree on one primary',
          SETTLE_TIMEOUT_MS,
        );
      } catch (error) {
        // What each member saw of the others when the set did not settle: the failure's evidence.
        (error as Error).message += `; ${(await Promise.all(live.map(memberView))).join('; ')}`;
        throw error;
      }
    },
    secondaries: (primary) => members.filter((m) => m !== primary),
    async allMembersUp() {
      await waitFor(
        async () => {
          const hellos = await Promise.all(members.map((m) => adminCommand(m, { hello: 1 }).catch(() => undefined)));
          return hellos.every((h) => h?.isWritablePrimary === true || h?.secondary === true);
        },
        'every member primary or secondary',
        MEMBERS_UP_TIMEOUT_MS,
      );
    },
    stop,
  };
}

/** One member's view of the set (replSetGetStatus), in a line: its state, last entry and term, and each other member's state, health, last entry and heartbeat message. */
async function memberView(member: TestSetMember): Promise<string> {
  try {
    const status = await adminCommand(member, { replSetGetStatus: 1 });
    const others = (status.members as Document[])
      .filter((m) => m.self !== true)
      .map(
        (m) =>
          `${String(m.name)} ${String(m.stateStr)} health ${String(m.health)} at ${String(m.optime?.ts)}${m.lastHeartbeatMessage ? ` (${String(m.lastHeartbeatMessage)})` : ''}`,
      );
    const self = (status.members as Document[]).find((m) => m.self === true);
    return `${member.address} says: self ${String(self?.stateStr)} at ${String(self?.optime?.ts)} term ${String(status.term)}, ${others.join(', ')}`;
  } catch (error) {
    return `${member.address}: no replSetGetStatus (${(error as Error).message})`;
  }
}

/** A client straight to one member (no discovery), which reads on a secondary too. */
export function directClient(member: TestSetMember): MongoClient {
  return new MongoClient(`mongodb://${member.address}/?directConnection=true`, { serverSelectionTimeoutMS: 5000 });
}

/** One admin command on one member. Short timeouts: a stopped member must not hang the caller. */
export async function adminCommand(member: TestSetMember, command: Document): Promise<Document> {
  const client = new MongoClient(`mongodb://${member.address}/?directConnection=true`, {
    serverSelectionTimeoutMS: 2000,
    socketTimeoutMS: 5000,
    connectTimeoutMS: 2000,
  });
  try {
    return await client.db('admin').command(command);
  } finally {
    await client.close();
  }
}

/**
 * Holds a secondary back with one of mongod's replication fail points: `rsSyncApplyStop` (it
 * fetches but stops applying) or `stopReplProducer` (it stops fetching). Returns the release.
 */
export async function holdBack(
  member: TestSetMember,
  failPoint: 'rsSyncApplyStop' | 'stopReplProducer',
): Promise<() => Promise<void>> {
  await adminCommand(member, { configureFailPoint: failPoint, mode: 'alwaysOn' });
  return async () => void (await adminCommand(member, { configureFailPoint: failPoint, mode: 'off' }));
}

/** `replSetStepDown` on the primary: it hands off to a caught-up secondary and does not stand for `secs`. */
export async function stepDown(primary: TestSetMember, secs = 10): Promise<void> {
  // mongod wants the step-down period longer than the catch-up period.
  await adminCommand(primary, {
    replSetStepDown: secs,
    secondaryCatchUpPeriodSecs: Math.max(1, Math.min(5, secs - 1)),
  }).catch((error: unknown) => {
    // mongod before 4.2 closed the connection on step-down; a reply is not needed, the new state is.
    if (!(error instanceof Error && /connection|closed|socket/i.test(error.message))) throw error;
  });
}

/** A member's last applied optime's timestamp (replSetGetStatus's `self` entry). */
export async function appliedTime(member: TestSetMember): Promise<{ t: number; i: number }> {
  const status = await adminCommand(member, { replSetGetStatus: 1 });
  const self = (status.members as Document[]).find((m) => m.self === true)!;
  const ts = self.optime.ts;
  return { t: ts.high, i: ts.low };
}
