// A replica set of emulator processes, as `mlaunch init --replicaset --nodes 3` starts mongod:
// one process per member (each `--uninitiated`), replSetInitiate sent to the first with every
// member in the config, then a wait for a primary. What `mongo-emulator --nodes N` runs, and what
// tests use to kill, stop (SIGSTOP) and restart members as one does with mongod.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Document } from './engine/types.ts';
import { PeerClient } from './repl/PeerClient.ts';
import { readReplState } from './storage/Storage.ts';

const BIN = fileURLToPath(new URL('../bin/mongo-emulator.mjs', import.meta.url));
/** How long a member process may take to print its ready line (tsx compiles the sources first). */
const MEMBER_READY_TIMEOUT_MS = 30_000;
/** How long the set may take to elect its first primary after replSetInitiate. */
const PRIMARY_TIMEOUT_MS = 30_000;
const POLL_MS = 25;
/** A member's ready line names its address (`member ready on host:port (...)`), not a connection string. */
const READY_LINE = /mongo-emulator member ready on (\S+) \(/;

export interface ReplicaSetOptions {
  nodes?: number;
  /** The first member's port (the others take the next ones); 0: each picks a free port. */
  port?: number;
  host?: string;
  replSetName?: string;
  electionTimeoutMillis?: number;
  heartbeatIntervalMillis?: number;
  /** Extra flags for every member (e.g. --oplogMaxEntries). */
  memberArgs?: string[];
  /** Per-member configuration fields (priority, votes, hidden, secondaryDelaySecs), by index. */
  memberConfig?: Document[];
  /** Called with each line a member prints (default: nothing). */
  onOutput?: (memberIndex: number, line: string) => void;
  /**
   * mongod's --dbpath for the set: member i keeps its data in `<dbpath>/<i>`. When those
   * directories already hold the set (a set stopped or killed before), the members come back on
   * their ports with their data and config, and no replSetInitiate is sent.
   */
  dbpath?: string;
  /** The config's writeConcernMajorityJournalDefault (default true). */
  writeConcernMajorityJournalDefault?: boolean;
}

export interface ReplicaSetMember {
  readonly index: number;
  readonly host: string;
  readonly port: number;
  /** host:port, as the set's config and hello name it. */
  readonly address: string;
  readonly pid: number;
  /** Where this member writes its rollback files (<db>.<coll>/removed.<time>.bson). */
  readonly rollbackDir: string;
  /** Sends a signal to the member's process (SIGKILL, SIGSTOP, SIGCONT, SIGTERM). */
  kill(signal?: NodeJS.Signals): void;
  /** Resolves when the process has exited. */
  exited(): Promise<void>;
  /**
   * Starts the member again on its port (SIGKILL first if it still runs). In memory it rejoins
   * through the set's heartbeats and re-syncs; on a dbpath it recovers its own data and config
   * and catches up.
   */
  restart(): Promise<void>;
  /** Starts a member that exited (a whole-set kill, then each member started again). */
  start(): Promise<void>;
  /** Its data directory, when the set runs on a dbpath. */
  readonly dbpath: string | undefined;
}

export interface RunningReplicaSet {
  /** mongodb://h:p1,h:p2,h:p3/?replicaSet=NAME */
  readonly uri: string;
  readonly replSetName: string;
  readonly members: ReplicaSetMember[];
  /** SIGTERM to every member still running; resolves once all exited (their rollback directories removed). */
  stop(): Promise<void>;
}

class MemberProcess implements ReplicaSetMember {
  #child: ChildProcess | undefined;
  #exited: Promise<void> = Promise.resolve();
  host: string;
  port: number;
  readonly rollbackDir: string;
  /** The temporary directory holding rollbackDir, removed when the set stops. */
  readonly tempRoot: string;

  constructor(
    readonly index: number,
    private readonly args: (port: number) => string[],
    host: string,
    port: number,
    private readonly onOutput: ((memberIndex: number, line: string) => void) | undefined,
    readonly dbpath: string | undefined,
  ) {
    this.host = host;
    this.port = port;
    this.tempRoot = mkdtempSync(join(tmpdir(), 'mongo-emulator-member-'));
    // On a dbpath, rollback files go under it, as mongod's.
    this.rollbackDir = dbpath === undefined ? join(this.tempRoot, 'rollback') : join(dbpath, 'rollback');
  }

  get address(): string {
    return `${this.host}:${this.port}`;
  }

  get pid(): number {
    return this.#child?.pid ?? -1;
  }

  async start(): Promise<void> {
    // stdin stays open while this process lives: a member stops when it closes (--exitWhenStdinCloses).
    const where = this.dbpath === undefined ? ['--rollbackDir', this.rollbackDir] : ['--dbpath', this.dbpath];
    const child = spawn(process.execPath, [BIN, ...this.args(this.port), ...where, '--exitWhenStdinCloses'], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.#child = child;
    this.#exited = new Promise((resolve) => child.once('exit', () => resolve()));
    let output = '';
    const ready = new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(new Error(`member ${this.index} printed no ready line in ${MEMBER_READY_TIMEOUT_MS} ms: ${output}`)),
        MEMBER_READY_TIMEOUT_MS,
      );
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        for (const line of chunk.toString().split('\n')) if (line) this.onOutput?.(this.index, line);
        const match = READY_LINE.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`member ${this.index} exited (${code}) before it was ready: ${output}`));
      });
    });
    const address = await ready;
    this.port = Number(address.slice(address.lastIndexOf(':') + 1));
  }

  kill(signal: NodeJS.Signals = 'SIGTERM'): void {
    const child = this.#child;
    if (child && child.exitCode === null && child.signalCode === null) child.kill(signal);
  }

  exited(): Promise<void> {
    return this.#exited;
  }

  async restart(): Promise<void> {
    this.kill('SIGKILL');
    await this.#exited;
    await this.start();
  }
}

/** Starts `nodes` member processes, initiates the set and waits for its first primary. */
export async function startReplicaSet(options: ReplicaSetOptions = {}): Promise<RunningReplicaSet> {
  const nodes = options.nodes ?? 3;
  const host = options.host ?? '127.0.0.1';
  const replSetName = options.replSetName ?? 'rs0';
  const firstPort = options.port ?? 0;
  const flags: string[] = ['--host', host, '--replSet', replSetName, '--uninitiated'];
  if (options.electionTimeoutMillis !== undefined)
    flags.push('--electionTimeoutMillis', String(options.electionTimeoutMillis));
  if (options.heartbeatIntervalMillis !== undefined)
    flags.push('--heartbeatIntervalMillis', String(options.heartbeatIntervalMillis));
  flags.push(...(options.memberArgs ?? []));
  // A set kept on a dbpath comes back on the ports its config names, without a new initiate.
  const dbpaths =
    options.dbpath === undefined
      ? undefined
      : Array.from({ length: nodes }, (_, index) => join(options.dbpath!, String(index)));
  const persisted = dbpaths ? existingConfig(dbpaths, replSetName) : undefined;
  const portOf = (index: number) => {
    const known = persisted?.[index];
    if (known) return Number(known.slice(known.lastIndexOf(':') + 1));
    return firstPort === 0 ? 0 : firstPort + index;
  };
  const members = Array.from(
    { length: nodes },
    (_, index) =>
      new MemberProcess(
        index,
        (port) => ['--port', String(port), ...flags],
        host,
        portOf(index),
        options.onOutput,
        dbpaths?.[index],
      ),
  );
  const stop = async () => {
    for (const member of members) member.kill('SIGCONT');
    for (const member of members) member.kill('SIGTERM');
    await Promise.all(members.map((m) => m.exited()));
    for (const member of members) rmSync(member.tempRoot, { recursive: true, force: true });
  };
  try {
    await Promise.all(members.map((m) => m.start()));
    if (persisted) {
      await waitForPrimary(
        members.map((m) => m.address),
        PRIMARY_TIMEOUT_MS,
      );
      const hosts = members.map((m) => m.address).join(',');
      return { uri: `mongodb://${hosts}/?replicaSet=${encodeURIComponent(replSetName)}`, replSetName, members, stop };
    }
    const config = {
      _id: replSetName,
      members: members.map((m, index) => ({ _id: index, host: m.address, ...(options.memberConfig?.[index] ?? {}) })),
      ...(options.writeConcernMajorityJournalDefault !== undefined
        ? { writeConcernMajorityJournalDefault: options.writeConcernMajorityJournalDefault }
        : {}),
      settings: {
        ...(options.electionTimeoutMillis !== undefined
          ? { electionTimeoutMillis: options.electionTimeoutMillis }
          : {}),
        ...(options.heartbeatIntervalMillis !== undefined
          ? { heartbeatIntervalMillis: options.heartbeatIntervalMillis }
          : {}),
      },
    };
    const client = new PeerClient(members[0]!.address);
    try {
      const reply = await client.command('admin', { replSetInitiate: config }, PRIMARY_TIMEOUT_MS);
      if (reply.ok !== 1) throw new Error(`replSetInitiate failed: ${String(reply.errmsg)}`);
    } finally {
      client.close();
    }
    await waitForPrimary(
      members.map((m) => m.address),
      PRIMARY_TIMEOUT_MS,
    );
  } catch (error) {
    for (const member of members) member.kill('SIGKILL');
    await Promise.all(members.map((m) => m.exited()));
    for (const member of members) rmSync(member.tempRoot, { recursive: true, force: true });
    throw error;
  }
  const hosts = members.map((m) => m.address).join(',');
  return { uri: `mongodb://${hosts}/?replicaSet=${encodeURIComponent(replSetName)}`, replSetName, members, stop };
}

/**
 * The member addresses of a set already kept in `dbpaths` (each member's persisted config), or
 * undefined for fresh directories. A mix of both, or another set's directories, is refused.
 */
function existingConfig(dbpaths: string[], replSetName: string): string[] | undefined {
  const states = dbpaths.map((dir) => (existsSync(dir) ? readReplState(dir) : undefined));
  if (states.every((s) => s === undefined)) return undefined;
  const config = states.find((s) => s !== undefined)!.config;
  if (String(config._id) !== replSetName)
    throw new Error(`${dbpaths[0]} holds replica set ${String(config._id)}, not ${replSetName}`);
  const hosts = (config.members as Document[]).map((m) => String(m.host));
  if (hosts.length !== dbpaths.length)
    throw new Error(`the set kept in ${dirname(dbpaths[0]!)} has ${hosts.length} members, not ${dbpaths.length}`);
  return hosts;
}

/** Polls hello on every member until one is primary and every member says so. */
export async function waitForPrimary(addresses: string[], timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  const clients = addresses.map((a) => new PeerClient(a));
  try {
    for (;;) {
      const replies = await Promise.all(
        clients.map((c) => c.command('admin', { hello: 1 }, 1000).catch(() => undefined)),
      );
      const primaries = replies.filter((r) => r?.isWritablePrimary === true);
      const settled = replies.every((r) => r && (r.isWritablePrimary === true || r.secondary === true));
      if (primaries.length === 1 && settled) return String(primaries[0]!.me);
      if (Date.now() > deadline) throw new Error(`no primary among ${addresses.join(', ')} in ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } finally {
    for (const client of clients) client.close();
  }
}
