import type { Document } from '../engine/types.ts';
import type { ServerState } from '../serverState.ts';
import type { LogicalSession } from '../session/SessionRegistry.ts';
import type { Transaction } from '../txn/Transaction.ts';

/**
 * The client connection a command runs on, as commands see it. The wire layer's Connection
 * provides it; commands name this interface so they never import the layer that calls them.
 */
export interface ClientConnection {
  readonly id: number;
  readonly remoteAddress: string;
  /** The handshake's client.application.name, which failCommand's `appName` matches. */
  appName: string | undefined;
  clientMetadata: Document | undefined;
  /** Another replica-set member (its hello carried `internalClient`): failCommand spares it unless failInternalCommands. */
  internalClient: boolean;
  /** Aborted when the socket closes, so a waiting command (awaitable hello, blockConnection) ends. */
  readonly closeSignal: AbortSignal;
  readonly isClosed: boolean;
  close(): void;
}

export interface CommandContext {
  readonly server: ServerState;
  readonly connection: ClientConnection;
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
