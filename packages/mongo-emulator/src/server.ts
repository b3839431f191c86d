import { setMaxListeners } from 'node:events';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommandRegistry } from './commands/registry.ts';
import { DEFAULT_OPLOG_SIZE_MB } from './changes/Oplog.ts';
import { createServerState, type EmulatorLogger } from './serverState.ts';
import { Connection } from './wire/Connection.ts';
import { Storage } from './storage/Storage.ts';
import { CommandDispatcher } from './wire/dispatch.ts';

export interface EmulatorOptions {
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  replSetName?: string;
  /** Oplog entries kept for change streams before the oldest are dropped. */
  oplogMaxEntries?: number;
  /** The oplog's size in megabytes (mongod's --oplogSizeMB): the oldest entries go first, by BSON size. */
  oplogSizeMB?: number;
  logger?: EmulatorLogger;
  /** What getCmdLineOpts reports as argv (the CLI passes its own). */
  argv?: string[];
  /** mongod's transactionLifetimeLimitSeconds: open transactions older than this are aborted (default 60). */
  transactionLifetimeLimitSeconds?: number;
  /**
   * Freeze every stored document version, so code that mutates shared history throws at the
   * culprit (a debug mode that costs a walk of what each write copied). Defaults to the
   * environment's EMULATOR_FREEZE_DOCUMENTS=1, which the test suite sets: this entry is the one
   * place the emulator reads it.
   */
  freezeDocuments?: boolean;
  /** What the `shutdown` command calls to stop the process (the CLI's own stop); without it `shutdown` is refused. */
  onShutdownCommand?: () => void;
  /**
   * A member of a replica set of processes: starts uninitiated (as mongod with --replSet) and
   * waits for replSetInitiate or for the heartbeats of a set whose configuration names it.
   * Without it the emulator is today's one-node set, the primary from its start.
   */
  replMember?: { electionTimeoutMillis?: number; heartbeatIntervalMillis?: number; rollbackDir?: string };
  /**
   * mongod's --dbpath: the data directory, durable as mongod (storage/Storage.ts). Opened before
   * the port is bound: a directory in use (DBPathInUse), foreign or damaged refuses the start
   * with a StorageError. Without it the emulator is in memory.
   */
  dbpath?: string;
  /** mongod's --syncdelay: seconds between checkpoints (default 60). */
  syncDelaySecs?: number;
  /** mongod's journalCommitInterval: milliseconds between group flushes of the journal (default 100). */
  journalCommitIntervalMs?: number;
}

export interface RunningEmulator {
  /** The data directory's storage (--dbpath), for tests and status; undefined in memory. */
  readonly storage: Storage | undefined;
  /** A connection string the official driver accepts as-is. */
  readonly uri: string;
  readonly host: string;
  readonly port: number;
  readonly replSetName: string;
  /** Closes every connection, cancels waiting commands, and stops listening. */
  stop(): Promise<void>;
}

export const DEFAULT_OPLOG_MAX_ENTRIES = 10_000;
export { DEFAULT_OPLOG_SIZE_MB };
/** Open client sockets at once; beyond this, new ones are refused (mongod's maxIncomingConnections). */
const CONNECTIONS_MAX = 10_000;

const SILENT_LOGGER: EmulatorLogger = { info: () => undefined, warn: () => undefined };

/** Starts an emulator listening on TCP; resolves once it accepts connections. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const host = options.host ?? '127.0.0.1';
  const replSetName = options.replSetName ?? 'rs0';
  const logger = options.logger ?? SILENT_LOGGER;
  const storage =
    options.dbpath === undefined
      ? undefined
      : Storage.open({
          dir: options.dbpath,
          logger,
          syncDelaySecs: options.syncDelaySecs,
          commitIntervalMs: options.journalCommitIntervalMs,
        });
  const listener = createServer();
  try {
    await listen(listener, options.port ?? 0, host);
  } catch (error) {
    await storage?.close();
    throw error;
  }
  const port = (listener.address() as AddressInfo).port;
  const address = `${host.includes(':') ? `[${host}]` : host}:${port}`;

  const stopController = new AbortController();
  // Every waiting command (each monitoring connection's awaitable hello) listens for the stop:
  // that many listeners are expected, not a leak.
  setMaxListeners(CONNECTIONS_MAX, stopController.signal);
  const connections = new Set<Connection>();
  const sockets = new Set<Socket>();
  const member = options.replMember;
  let state: ReturnType<typeof createServerState>;
  try {
    state = createServerState({
      stopProcess: options.onShutdownCommand,
      replMember: member && {
        ...member,
        // mongod writes rollback files under <dbpath>/rollback.
        rollbackDir:
          member.rollbackDir ??
          (options.dbpath !== undefined
            ? join(options.dbpath, 'rollback')
            : join(tmpdir(), `mongo-emulator-${port}-${process.pid}`, 'rollback')),
        closeClientConnections: () => {
          for (const connection of connections) connection.close();
        },
      },
      address,
      host,
      port,
      replSetName,
      oplogMaxEntries: options.oplogMaxEntries ?? DEFAULT_OPLOG_MAX_ENTRIES,
      oplogSizeMB: options.oplogSizeMB ?? DEFAULT_OPLOG_SIZE_MB,
      transactionLifetimeLimitSeconds: options.transactionLifetimeLimitSeconds,
      argv: options.argv,
      freezeDocuments: options.freezeDocuments ?? process.env.EMULATOR_FREEZE_DOCUMENTS === '1',
      logger,
      stopSignal: stopController.signal,
      storage,
    });
  } catch (error) {
    // A journal that cannot be replayed refuses the start as a damaged directory would.
    storage?.abandon();
    await new Promise<void>((resolve) => listener.close(() => resolve()));
    throw error;
  }
  const dispatcher = new CommandDispatcher(state, new CommandRegistry());

  listener.on('connection', (socket) => {
    if (sockets.size >= CONNECTIONS_MAX) {
      logger.warn(`refusing connection: ${CONNECTIONS_MAX} connections already open`);
      socket.destroy();
      return;
    }
    sockets.add(socket);
    state.counters.connectionsTotalCreated += 1;
    const connection = new Connection(state.counters.connectionsTotalCreated, socket, dispatcher, logger);
    connections.add(connection);
    state.counters.connectionsCurrent = connections.size;
    socket.on('close', () => {
      sockets.delete(socket);
      connections.delete(connection);
      state.counters.connectionsCurrent = connections.size;
    });
  });

  return {
    uri: `mongodb://${address}/?replicaSet=${encodeURIComponent(replSetName)}`,
    host,
    port,
    replSetName,
    storage,
    async stop() {
      if (stopController.signal.aborted) return;
      stopController.abort();
      state.transactions.stop();
      const closed = new Promise<void>((resolve) => listener.close(() => resolve()));
      for (const connection of connections) connection.close();
      for (const socket of sockets) socket.destroy();
      await closed;
      await storage?.close();
    },
  };
}

function listen(listener: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(port, host, () => {
      listener.off('error', reject);
      resolve();
    });
  });
}
