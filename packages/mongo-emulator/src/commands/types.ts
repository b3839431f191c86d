import type { ObjectId } from 'bson';
import type { ChangeStreams } from '../changes/ChangeStreams.ts';
import type { Catalog } from '../engine/catalog.ts';
import type { Document } from '../engine/types.ts';
import type { FailPointRegistry } from '../failpoints/FailPointRegistry.ts';
import type { ClusterClock } from '../session/ClusterClock.ts';
import type { Transaction } from '../txn/Transaction.ts';
import type { TransactionCoordinator } from '../txn/TransactionCoordinator.ts';
import type { LogicalSession, SessionRegistry } from '../session/SessionRegistry.ts';
import type { CursorManager } from './lib/CursorManager.ts';
import type { Connection } from '../wire/Connection.ts';

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

export interface CommandContext {
  readonly server: ServerState;
  readonly connection: Connection;
  readonly db: string;
  /** The command name as sent (an alias such as `ismaster` stays as sent). */
  readonly name: string;
  readonly command: Document;
  /** The logical session named by `lsid`, if any. */
  readonly session: LogicalSession | undefined;
  /** The transaction this command is a statement of (commitTransaction/abortTransaction included). */
  readonly transaction?: Transaction;
}

export interface CommandDefinition {
  /** The canonical name, then any aliases mongod accepts. */
  readonly names: readonly string[];
  /** May answer the awaitable hello in exhaust mode (OP_MSG exhaustAllowed). */
  readonly exhaustible?: boolean;
  /** Takes a writeConcern (validated before, satisfied or not after the command runs). */
  readonly acceptsWriteConcern?: boolean;
  /** insert/update/delete/findAndModify: with a txnNumber, a retryable write. */
  readonly retryableWrite?: boolean;
  /** Only runs against the admin database, as mongod's adminOnly commands. */
  readonly adminOnly?: boolean;
  run(context: CommandContext): Document | Promise<Document>;
}
