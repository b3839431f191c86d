import { ObjectId } from 'bson';
import { ChangeStreams } from './changes/ChangeStreams.ts';
import { CursorManager } from './cursors/CursorManager.ts';
import { Catalog } from './engine/catalog.ts';
import type { Document } from './engine/types.ts';
import { FailPointRegistry } from './failpoints/FailPointRegistry.ts';
import { ClusterClock } from './session/ClusterClock.ts';
import { SessionRegistry } from './session/SessionRegistry.ts';
import { TransactionCoordinator } from './txn/TransactionCoordinator.ts';
import { DEFAULT_TRANSACTION_LIFETIME_LIMIT_SECONDS } from './serverParameters.ts';
import { ReplCoordinator } from './repl/ReplCoordinator.ts';
import type { Storage } from './storage/Storage.ts';

export interface EmulatorLogger {
  info(message: string): void;
  warn(message: string): void;
}

/** Who this node is in its one-node replica set. */
export interface NodeIdentity {
  /** `host:port`, as the driver must address it. */
  readonly address: string;
  readonly setName: string;
  readonly setVersion: number;
  readonly term: bigint;
  readonly electionId: ObjectId;
  /** topologyVersion: processId changes per start; the counter would change on a state change. */
  readonly processId: ObjectId;
  readonly topologyCounter: bigint;
  readonly startedAt: Date;
}

export interface ServerCounters {
  connectionsCurrent: number;
  connectionsTotalCreated: number;
  opcounters: { insert: number; query: number; update: number; delete: number; getmore: number; command: number };
  /** serverStatus's metrics.commands: each command run, by its canonical name, and those that failed. */
  commands: Map<string, { total: number; failed: number }>;
}

/** Everything a command may use, shared by all connections of one emulator. */
export interface ServerState {
  readonly node: NodeIdentity;
  readonly clock: ClusterClock;
  readonly catalog: Catalog;
  readonly cursors: CursorManager;
  /** The oplog and the open change streams (src/changes). */
  readonly changeStreams: ChangeStreams;
  readonly sessions: SessionRegistry;
  /** Sessions' multi-document transactions, their snapshots and locks (src/txn). */
  readonly transactions: TransactionCoordinator;
  readonly failPoints: FailPointRegistry;
  /** The command line (or options) the server started with, for getCmdLineOpts. */
  readonly startOptions: { argv: string[]; parsed: Document };
  readonly counters: ServerCounters;
  readonly logger: EmulatorLogger;
  /** Aborted by stop(): every waiting command (awaitable hello, blockConnection) gives up. */
  readonly stopSignal: AbortSignal;
  /**
   * The member of a replica set of separate processes (src/repl); undefined for the one-node
   * emulator, which stays the primary of its own set and pays nothing for replication.
   */
  readonly repl: ReplCoordinator | undefined;
  /** Stops the whole process (the `shutdown` command); only the CLI, which owns its process, gives one. */
  readonly stopProcess: (() => void) | undefined;
  /** The data directory (--dbpath): journal, checkpoints, lock. Undefined in memory (the tests' default). */
  readonly storage: Storage | undefined;
}

/** A member of a replica set of processes (--nodes, --uninitiated). */
export interface ReplMemberOptions {
  electionTimeoutMillis?: number;
  heartbeatIntervalMillis?: number;
  rollbackDir: string;
  /** Closes every client connection (a rollback does). */
  closeClientConnections: () => void;
}

export interface ServerStateOptions {
  /** `host:port` as the driver addresses this node. */
  address: string;
  host: string;
  port: number;
  replSetName: string;
  oplogMaxEntries: number;
  /** Defaults to mongod's floor (DEFAULT_OPLOG_SIZE_MB). */
  oplogSizeMB?: number;
  transactionLifetimeLimitSeconds?: number;
  argv?: string[];
  /** Debug mode: freeze every stored document version (engine/storedDocument.ts). */
  freezeDocuments?: boolean;
  logger: EmulatorLogger;
  /** Aborted when the server stops. */
  stopSignal: AbortSignal;
  stopProcess?: () => void;
  /** Set for a replica-set member: it starts uninitiated and waits for replSetInitiate or a set's heartbeats. */
  replMember?: ReplMemberOptions;
  /** An opened data directory: its checkpoint and journal are restored into this server, which then journals to it. */
  storage?: Storage;
}

/**
 * Everything the commands share, wired together: the clock ticks on every write, then the oplog
 * records it. Apart from the network (server.ts), so the bench can time commands without TCP.
 */
export function createServerState(options: ServerStateOptions): ServerState {
  const { logger, stopSignal, oplogMaxEntries, oplogSizeMB } = options;
  const clock = new ClusterClock();
  const catalog = new Catalog({
    clock: () => ({ now: new Date(), clusterTime: clock.now() }),
    freezeDocuments: options.freezeDocuments,
  });
  // Every document-level change is one write on the logical clock.
  catalog.observe(() => clock.tick());
  const transactions = new TransactionCoordinator(catalog, clock, {
    transactionLifetimeLimitMs:
      (options.transactionLifetimeLimitSeconds ?? DEFAULT_TRANSACTION_LIFETIME_LIMIT_SECONDS) * 1000,
    logger,
  });
  const changeStreams = new ChangeStreams({ catalog, clock, oplogMaxEntries, oplogSizeMB, stopSignal });
  // Registered after the clock's observer, so each entry takes the time its write just got.
  catalog.observe((change) => changeStreams.recordChange(change));
  const sessions = new SessionRegistry();
  const failPoints = new FailPointRegistry();
  const member = options.replMember;
  const repl = member
    ? new ReplCoordinator(
        {
          address: options.address,
          setName: options.replSetName,
          catalog,
          changeStreams,
          sessions,
          transactions,
          failPoints,
          clock,
          logger,
          stopSignal,
          closeClientConnections: member.closeClientConnections,
          storage: options.storage,
        },
        member,
      )
    : undefined;
  const storage = options.storage;
  if (storage) {
    storage.attach({ catalog, changeStreams, sessions, transactions, clock });
    storage.flushPaused = () => failPoints.replicationStopped('pauseJournalFlusherThread');
    if (repl && storage.replState) repl.restore(storage.replState);
  }
  return {
    repl,
    storage,
    stopProcess: options.stopProcess,
    node: identity(options.address, options.replSetName),
    clock,
    catalog,
    cursors: new CursorManager(),
    changeStreams,
    sessions,
    transactions,
    failPoints,
    startOptions: {
      argv: options.argv ?? ['mongo-emulator'],
      parsed: {
        net: { bindIp: options.host, port: options.port },
        replication: { replSet: options.replSetName, oplogSizeMB, oplogMaxEntries },
      },
    },
    counters: newCounters(),
    logger,
    stopSignal,
  };
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
    commands: new Map(),
  };
}
