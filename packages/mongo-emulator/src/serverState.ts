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
}

/**
 * Everything the commands share, wired together: the clock ticks on every write, then the oplog
 * records it. Apart from the network (server.ts), so the bench can time commands without TCP.
 */
export function createServerState(options: ServerStateOptions): ServerState {
  const { logger, stopSignal, oplogMaxEntries, oplogSizeMB } = options;
  const clock = new ClusterClock();
  const catalog = new Catalog({ clock: () => ({ now: new Date(), clusterTime: clock.now() }), freezeDocuments: options.freezeDocuments });
  // Every document-level change is one write on the logical clock.
  catalog.observe(() => clock.tick());
  const transactions = new TransactionCoordinator(catalog, clock, {
    transactionLifetimeLimitMs: (options.transactionLifetimeLimitSeconds ?? DEFAULT_TRANSACTION_LIFETIME_LIMIT_SECONDS) * 1000,
    logger,
  });
  const changeStreams = new ChangeStreams({ catalog, clock, oplogMaxEntries, oplogSizeMB, stopSignal });
  // Registered after the clock's observer, so each entry takes the time its write just got.
  catalog.observe((change) => changeStreams.recordChange(change));
  return {
    node: identity(options.address, options.replSetName),
    clock,
    catalog,
    cursors: new CursorManager(),
    changeStreams,
    sessions: new SessionRegistry(),
    transactions,
    failPoints: new FailPointRegistry(),
    startOptions: {
      argv: options.argv ?? ['mongo-emulator'],
      parsed: { net: { bindIp: options.host, port: options.port }, replication: { replSet: options.replSetName, oplogSizeMB, oplogMaxEntries } },
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
