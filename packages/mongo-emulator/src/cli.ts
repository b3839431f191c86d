import { parseArgs } from 'node:util';
import { DEFAULT_OPLOG_MAX_ENTRIES, DEFAULT_OPLOG_SIZE_MB, startEmulator, type EmulatorOptions } from './server.ts';
import {
  DEFAULT_TRANSACTION_LIFETIME_LIMIT_SECONDS,
  parseTransactionLifetimeLimitSeconds,
} from './serverParameters.ts';
import { startReplicaSet } from './replicaSet.ts';
import { resolve } from 'node:path';
import { StorageError } from './storage/Storage.ts';

const USAGE = `Usage: mongo-emulator [--port 27017] [--host 127.0.0.1] [--replSet rs0] [--oplogSizeMB ${DEFAULT_OPLOG_SIZE_MB}] [--oplogMaxEntries ${DEFAULT_OPLOG_MAX_ENTRIES}]
       [--setParameter name=value]... [--nodes N | --uninitiated] [--electionTimeoutMillis N] [--heartbeatIntervalMillis N]
       [--dbpath DIR [--syncdelay S] [--journalCommitInterval MS]]

A MongoDB-wire-compatible server that the official drivers accept as the primary of a one-node
replica set (or, with --nodes, a set of member processes). In memory unless --dbpath is given.
For tests and development only: no auth, no TLS.

  --port N              TCP port to listen on (0 picks a free one; default 27017)
  --host H              address to bind (default 127.0.0.1)
  --replSet NAME        replica set name (default rs0)
  --oplogSizeMB N       oplog size in MB, as mongod's: the oldest entries go first (default ${DEFAULT_OPLOG_SIZE_MB})
  --oplogMaxEntries N   oplog entries kept at most (default ${DEFAULT_OPLOG_MAX_ENTRIES})
  --setParameter P=V    a server parameter, as mongod's: transactionLifetimeLimitSeconds=N (default
                        ${DEFAULT_TRANSACTION_LIFETIME_LIMIT_SECONDS}), or enableTestCommands=1 (always on); repeatable
  --nodes N             start a replica set of N member processes on ports P, P+1, ... (0: free
                        ports), initiate it, wait for a primary and print the set's URI
  --uninitiated         one replica-set member that waits for replSetInitiate or for the heartbeats
                        of a set whose config names it, then syncs from it (a restarted member)
  --electionTimeoutMillis N    the set's electionTimeoutMillis (default 10000)
  --heartbeatIntervalMillis N  the set's heartbeatIntervalMillis (default 2000)
  --rollbackDir DIR     where a member writes rolled-back documents (default: DBPATH/rollback, else a temp directory)
  --dbpath DIR          keep the data in DIR, durable as mongod's (journal, checkpoints, mongod.lock);
                        with --nodes, member i in DIR/<i>, and the same command brings the set back
  --syncdelay S         seconds between checkpoints (default 60; with --dbpath)
  --journalCommitInterval MS  milliseconds between journal group flushes (default 100, 1-500; with --dbpath)
  --exitWhenStdinCloses stop when standard input closes (a launcher's members die with it)
  --help                show this help`;

const EXIT_USAGE = 2;
const EXIT_STORAGE = 100;

/** Parses argv into options; a usage error is returned as a message, never thrown. */
export interface CliOptions extends EmulatorOptions {
  /** Stop when stdin closes: the members a launcher (startReplicaSet) spawns never outlive it. */
  exitWhenStdinCloses?: boolean;
  /** --nodes: a replica set of this many member processes. */
  nodes?: number;
  /** The member flags that --nodes passes on to every member. */
  memberArgs?: string[];
}

export function parseCli(argv: string[]): { help: true } | { options: CliOptions } | { error: string } {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string', default: '27017' },
        host: { type: 'string', default: '127.0.0.1' },
        replSet: { type: 'string', default: 'rs0' },
        oplogMaxEntries: { type: 'string', default: String(DEFAULT_OPLOG_MAX_ENTRIES) },
        oplogSizeMB: { type: 'string', default: String(DEFAULT_OPLOG_SIZE_MB) },
        setParameter: { type: 'string', multiple: true, default: [] },
        nodes: { type: 'string' },
        uninitiated: { type: 'boolean', default: false },
        electionTimeoutMillis: { type: 'string' },
        heartbeatIntervalMillis: { type: 'string' },
        rollbackDir: { type: 'string' },
        dbpath: { type: 'string' },
        syncdelay: { type: 'string' },
        journalCommitInterval: { type: 'string' },
        exitWhenStdinCloses: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    }));
  } catch (error) {
    return { error: (error as Error).message };
  }
  if (values.help) return { help: true };
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    return { error: `--port must be 0-65535, got '${values.port}'` };
  const oplogMaxEntries = Number(values.oplogMaxEntries);
  if (!Number.isInteger(oplogMaxEntries) || oplogMaxEntries < 1) {
    return { error: `--oplogMaxEntries must be a positive integer, got '${values.oplogMaxEntries}'` };
  }
  const oplogSizeMB = Number(values.oplogSizeMB);
  if (!Number.isFinite(oplogSizeMB) || oplogSizeMB <= 0)
    return { error: `--oplogSizeMB must be a positive number, got '${values.oplogSizeMB}'` };
  if (!/^[A-Za-z0-9_-]+$/.test(values.replSet)) return { error: `--replSet '${values.replSet}' is not a valid name` };
  const parameters = parseSetParameters(values.setParameter);
  if ('error' in parameters) return parameters;
  const options: CliOptions = {
    port,
    host: values.host,
    replSetName: values.replSet,
    oplogMaxEntries,
    oplogSizeMB,
    ...parameters,
    exitWhenStdinCloses: values.exitWhenStdinCloses,
  };
  const storageArgs: string[] = [];
  if (values.syncdelay !== undefined) {
    const secs = Number(values.syncdelay);
    if (!Number.isFinite(secs) || secs <= 0)
      return { error: `--syncdelay must be a positive number of seconds, got '${values.syncdelay}'` };
    options.syncDelaySecs = secs;
    storageArgs.push('--syncdelay', values.syncdelay);
  }
  if (values.journalCommitInterval !== undefined) {
    // mongod's range for storage.journal.commitIntervalMs: 1-500.
    const ms = Number(values.journalCommitInterval);
    if (!Number.isInteger(ms) || ms < 1 || ms > 500)
      return { error: `--journalCommitInterval must be 1-500 ms, got '${values.journalCommitInterval}'` };
    options.journalCommitIntervalMs = ms;
    storageArgs.push('--journalCommitInterval', values.journalCommitInterval);
  }
  if ((values.syncdelay !== undefined || values.journalCommitInterval !== undefined) && values.dbpath === undefined)
    return { error: '--syncdelay and --journalCommitInterval need --dbpath' };
  if (values.dbpath !== undefined) {
    if (values.dbpath === '') return { error: '--dbpath must name a directory' };
    options.dbpath = values.dbpath;
  }
  const millis: Record<string, number> = {};
  for (const name of ['electionTimeoutMillis', 'heartbeatIntervalMillis'] as const) {
    const raw = values[name];
    if (raw === undefined) continue;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 1) return { error: `--${name} must be a positive integer, got '${raw}'` };
    millis[name] = value;
  }
  if (values.nodes !== undefined) {
    const nodes = Number(values.nodes);
    if (!Number.isInteger(nodes) || nodes < 1 || nodes > 50)
      return { error: `--nodes must be 1-50, got '${values.nodes}'` };
    if (values.uninitiated) return { error: '--nodes and --uninitiated do not go together' };
    options.nodes = nodes;
    options.memberArgs = [
      '--oplogMaxEntries',
      String(oplogMaxEntries),
      '--oplogSizeMB',
      String(oplogSizeMB),
      ...values.setParameter.flatMap((p) => ['--setParameter', p]),
      ...storageArgs,
    ];
    Object.assign(options, {
      electionTimeoutMillis: millis.electionTimeoutMillis,
      heartbeatIntervalMillis: millis.heartbeatIntervalMillis,
    });
  } else if (values.uninitiated) {
    options.replMember = { ...millis, ...(values.rollbackDir ? { rollbackDir: values.rollbackDir } : {}) };
  } else if (Object.keys(millis).length > 0) {
    return { error: '--electionTimeoutMillis and --heartbeatIntervalMillis need --nodes or --uninitiated' };
  }
  return { options };
}

/** The --setParameter name=value pairs mongod accepts that the emulator knows. */
function parseSetParameters(pairs: string[]): { transactionLifetimeLimitSeconds?: number } | { error: string } {
  const out: { transactionLifetimeLimitSeconds?: number } = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    const name = eq < 0 ? pair : pair.slice(0, eq);
    const value = eq < 0 ? '' : pair.slice(eq + 1);
    if (name === 'transactionLifetimeLimitSeconds') {
      try {
        out.transactionLifetimeLimitSeconds = parseTransactionLifetimeLimitSeconds(value);
      } catch (error) {
        return { error: `--setParameter ${(error as Error).message}` };
      }
    } else if (name === 'enableTestCommands') {
      // Test commands (configureFailPoint, ...) are always on in the emulator.
      if (value !== '1' && value !== 'true')
        return { error: `--setParameter enableTestCommands=${value}: the emulator always enables test commands` };
    } else {
      return { error: `Illegal --setParameter parameter: "${name}"` };
    }
  }
  return out;
}

export async function main(argv: string[]): Promise<void> {
  const parsed = parseCli(argv);
  if ('help' in parsed) {
    console.log(USAGE);
    return;
  }
  if ('error' in parsed) {
    console.error(`mongo-emulator: ${parsed.error}\n\n${USAGE}`);
    process.exitCode = EXIT_USAGE;
    return;
  }
  const logger = { info: (m: string) => console.log(m), warn: (m: string) => console.warn(`[warn] ${m}`) };
  if (parsed.options.nodes !== undefined) {
    await runReplicaSet(parsed.options as CliOptions & { nodes: number });
    return;
  }
  let emulator: Awaited<ReturnType<typeof startEmulator>>;
  try {
    emulator = await startEmulator({
      ...parsed.options,
      logger,
      argv: ['mongo-emulator', ...argv],
      onShutdownCommand: () => shutdown('shutdown command'),
    });
  } catch (error) {
    if (!(error instanceof StorageError)) throw error;
    // mongod exits 100 when initAndListen fails (DBPathInUse, a damaged data directory).
    console.error(`mongo-emulator: ${error.codeName}: ${error.message}`);
    process.exit(EXIT_STORAGE);
  }
  // The signal handlers before the ready line: a supervisor that sends SIGTERM as soon as it
  // reads that line must find them (without them Node dies of the signal, skipping the last
  // checkpoint and leaving its lock behind).
  const shutdown = (signal: string) => {
    console.log(`mongo-emulator: ${signal} received, stopping`);
    emulator.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  const where = parsed.options.dbpath === undefined ? 'in-memory' : `data in ${resolve(parsed.options.dbpath)}`;
  if (parsed.options.replMember) {
    // A member alone is not what a client should connect to: its line names its address, not a
    // connection string, so nobody copies one member's URI for the set's (the launcher prints that).
    console.log(
      `mongo-emulator member ready on ${emulator.host}:${emulator.port} (a member of replica set ${emulator.replSetName}, ${where}; connect with the set's URI, not to this member)`,
    );
  } else {
    console.log(
      `mongo-emulator ready on ${emulator.uri} (replica set ${emulator.replSetName}, ${where}; not for production)`,
    );
  }
  if (parsed.options.exitWhenStdinCloses) {
    process.stdin.on('end', () => shutdown('end of stdin'));
    process.stdin.resume();
  }
}

/** --nodes: the member processes, until SIGINT/SIGTERM stops them all. */
async function runReplicaSet(options: CliOptions & { nodes: number }): Promise<void> {
  const set = await startReplicaSet({
    nodes: options.nodes,
    port: options.port,
    host: options.host,
    replSetName: options.replSetName,
    electionTimeoutMillis: (options as { electionTimeoutMillis?: number }).electionTimeoutMillis,
    heartbeatIntervalMillis: (options as { heartbeatIntervalMillis?: number }).heartbeatIntervalMillis,
    memberArgs: options.memberArgs,
    dbpath: options.dbpath,
    onOutput: (index, line) => console.log(`[member ${index}] ${line}`),
  });
  // Handlers first, as for one node: a supervisor may signal as soon as it reads the URI.
  const shutdown = (signal: string) => {
    console.log(`mongo-emulator: ${signal} received, stopping the members`);
    set.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  console.log(
    `mongo-emulator ready on ${set.uri} (replica set ${set.replSetName} of ${options.nodes} member processes, pids ${set.members.map((m) => m.pid).join(', ')}, ${options.dbpath === undefined ? 'in-memory' : `data in ${resolve(options.dbpath)}/<member>`}; not for production)`,
  );
  // The set's URI alone on the last line: the one to copy (the driver finds the primary through it
  // and follows failovers); the member lines above name addresses only.
  console.log('Connect with this URI (the whole set; not a single member):');
  console.log(set.uri);
}

await main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(`mongo-emulator: ${(error as Error).message}`);
  process.exitCode = 1;
});
