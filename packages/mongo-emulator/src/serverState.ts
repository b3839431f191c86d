import { ObjectId } from 'bson';
import { ChangeStreams } from './changes/ChangeStreams.ts';
import { CursorManager } from './commands/lib/CursorManager.ts';
import type { EmulatorLogger, NodeIdentity, ServerCounters, ServerState } from './commands/types.ts';
import { Catalog } from './engine/catalog.ts';
import { FailPointRegistry } from './failpoints/FailPointRegistry.ts';
import { ClusterClock } from './session/ClusterClock.ts';
import { SessionRegistry } from './session/SessionRegistry.ts';
import { TransactionCoordinator } from './txn/TransactionCoordinator.ts';

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
  const catalog = new Catalog({ clock: () => ({ now: new Date(), clusterTime: clock.now() }) });
  // Every document-level change is one write on the logical clock.
  catalog.observe(() => clock.tick());
  const transactions = new TransactionCoordinator(catalog, clock, {
    transactionLifetimeLimitMs: (options.transactionLifetimeLimitSeconds ?? 60) * 1000,
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
  };
}
