import type { ObjectId } from 'bson';
import type { Document } from '../engine/types.ts';
import type { ClusterClock } from '../session/ClusterClock.ts';
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
}

export interface CommandDefinition {
  /** The canonical name, then any aliases mongod accepts. */
  readonly names: readonly string[];
  /** May answer the awaitable hello in exhaust mode (OP_MSG exhaustAllowed). */
  readonly exhaustible?: boolean;
  run(context: CommandContext): Document | Promise<Document>;
}
