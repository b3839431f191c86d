import { setMaxListeners } from 'node:events';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { ObjectId } from 'bson';
import { CommandDispatcher } from './commands/dispatch.ts';
import { ChangeStreams } from './changes/ChangeStreams.ts';
import { CursorManager } from './commands/lib/CursorManager.ts';
import { CommandRegistry } from './commands/registry.ts';
import type { EmulatorLogger, NodeIdentity, ServerCounters, ServerState } from './commands/types.ts';
import { Catalog } from './engine/catalog.ts';
import { FailPointRegistry } from './failpoints/FailPointRegistry.ts';
import { ClusterClock } from './session/ClusterClock.ts';
import { SessionRegistry } from './session/SessionRegistry.ts';
import { TransactionCoordinator } from './txn/TransactionCoordinator.ts';
import { Connection } from './wire/Connection.ts';

export interface EmulatorOptions {
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  replSetName?: string;
  /** Oplog entries kept for change streams before the oldest are dropped. */
  oplogMaxEntries?: number;
  logger?: EmulatorLogger;
  /** What getCmdLineOpts reports as argv (the CLI passes its own). */
  argv?: string[];
  /** mongod's transactionLifetimeLimitSeconds: open transactions older than this are aborted (default 60). */
  transactionLifetimeLimitSeconds?: number;
}

export interface RunningEmulator {
  /** A connection string the official driver accepts as-is. */
  readonly uri: string;
  readonly host: string;
  readonly port: number;
  readonly replSetName: string;
  /** Closes every connection, cancels waiting commands, and stops listening. */
  stop(): Promise<void>;
}

export const DEFAULT_OPLOG_MAX_ENTRIES = 10_000;
/** Open client sockets at once; beyond this, new ones are refused (mongod's maxIncomingConnections). */
const CONNECTIONS_MAX = 10_000;

const SILENT_LOGGER: EmulatorLogger = { info: () => undefined, warn: () => undefined };

/** Starts an emulator listening on TCP; resolves once it accepts connections. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const host = options.host ?? '127.0.0.1';
  const replSetName = options.replSetName ?? 'rs0';
  const logger = options.logger ?? SILENT_LOGGER;
  const listener = createServer();
  await listen(listener, options.port ?? 0, host);
  const port = (listener.address() as AddressInfo).port;
  const address = `${host.includes(':') ? `[${host}]` : host}:${port}`;

  const stopController = new AbortController();
  // Every waiting command (each monitoring connection's awaitable hello) listens for the stop:
  // that many listeners are expected, not a leak.
  setMaxListeners(CONNECTIONS_MAX, stopController.signal);
  const clock = new ClusterClock();
  const catalog = new Catalog({ clock: () => ({ now: new Date(), clusterTime: clock.now() }) });
  // Every document-level change is one write on the logical clock.
  catalog.observe(() => clock.tick());
  const transactions = new TransactionCoordinator(catalog, clock, {
    transactionLifetimeLimitMs: (options.transactionLifetimeLimitSeconds ?? 60) * 1000,
    logger,
  });
  const oplogMaxEntries = options.oplogMaxEntries ?? DEFAULT_OPLOG_MAX_ENTRIES;
  const changeStreams = new ChangeStreams({ catalog, clock, oplogMaxEntries, stopSignal: stopController.signal });
  // Registered after the clock's observer, so each entry takes the time its write just got.
  catalog.observe((change) => changeStreams.recordChange(change));
  const state: ServerState = {
    node: identity(address, replSetName),
    clock,
    catalog,
    cursors: new CursorManager(),
    changeStreams,
    sessions: new SessionRegistry(),
    transactions,
    failPoints: new FailPointRegistry(),
    startOptions: {
      argv: options.argv ?? ['mongo-emulator'],
      parsed: { net: { bindIp: host, port }, replication: { replSet: replSetName, oplogMaxEntries } },
    },
    counters: newCounters(),
    logger,
    stopSignal: stopController.signal,
  };
  const dispatcher = new CommandDispatcher(state, new CommandRegistry());
  const connections = new Set<Connection>();
  const sockets = new Set<Socket>();

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
    async stop() {
      if (stopController.signal.aborted) return;
      stopController.abort();
      transactions.stop();
      const closed = new Promise<void>((resolve) => listener.close(() => resolve()));
      for (const connection of connections) connection.close();
      for (const socket of sockets) socket.destroy();
      await closed;
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

function identity(address: string, setName: string): NodeIdentity {
  return {
    address,
    setName,
    setVersion: 1,
    term: 1n,
    // mongod's electionId is the max-term marker 0x7fffffff followed by the term.
    electionId: new ObjectId('7fffffff0000000000000001'),
    processId: new ObjectId(),
    topologyCounter: 0n,
    startedAt: new Date(),
  };
}

function newCounters(): ServerCounters {
  return {
    connectionsCurrent: 0,
    connectionsTotalCreated: 0,
    opcounters: { insert: 0, query: 0, update: 0, delete: 0, getmore: 0, command: 0 },
  };
}
