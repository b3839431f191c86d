import type { Catalog } from '../engine/catalog.ts';
import type { Document } from '../engine/types.ts';
import { CommandError, ErrorCodes } from '../errors.ts';
import type { LogicalSession } from '../session/SessionRegistry.ts';
import { COMMIT_OR_ABORT, parseSessionOptions } from './sessionOptions.ts';
import type { Transaction } from './Transaction.ts';
import type { TransactionCoordinator } from './TransactionCoordinator.ts';
import { writeTargets } from './writeTargets.ts';

/** Commands that take readConcern snapshot outside a transaction (mongod 5.0+). */
const SNAPSHOT_READ_COMMANDS: ReadonlySet<string> = new Set(['aggregate', 'distinct', 'find']);

/**
 * What a statement needs of the server: the live catalog, the transactions, and the stop. Named
 * here so that txn/ stays below the server state, which wires every layer together (the
 * server's ServerState fits this shape).
 */
export interface StatementServer {
  readonly catalog: Catalog;
  readonly transactions: TransactionCoordinator;
  readonly stopSignal: AbortSignal;
}

/**
 * What a statement needs of the command it runs, named here so that txn/ stays below commands/
 * (commands' CommandDefinition and CommandContext fit these shapes).
 */
export interface StatementCommand {
  /** The canonical name first. */
  readonly names: readonly string[];
  readonly retryableWrite?: boolean;
}

export interface StatementContext {
  readonly server: StatementServer;
  readonly connection: { readonly closeSignal: AbortSignal };
  readonly db: string;
  /** The command name as sent. */
  readonly name: string;
  readonly command: Document;
}

/** How one command runs with respect to transactions; see `enterStatement`. */
export interface StatementScope {
  /**
   * What the command sees: the catalog it reads and writes (the transaction's or a snapshot's
   * view; undefined: the server's own), the transaction itself (commit and abort included), and
   * the command document, without its txnNumber inside a transaction since statements there are
   * not retryable writes.
   */
  readonly context: { catalog: Catalog | undefined; transaction: Transaction | undefined; command: Document };
  /** Runs before the command: a plain write waits for transactions holding its keys. */
  prepare(context: StatementContext): Promise<void>;
  /** Shapes a successful reply; a statement that failed inside a transaction aborts it. */
  finish(reply: Document): Document;
  /** The command threw: a transaction it ran in is aborted, as mongod's abort guard does. */
  fail(): void;
}

// Shared, not made per command: tsx (esbuild keepNames) names every closure it creates, and
// that defineProperty per closure was ~8% of a findAndModify.
const NOTHING_TO_PREPARE = async () => undefined;
const KEEP_REPLY = (reply: Document) => reply;
const NOTHING_TO_UNDO = () => undefined;

/** A plain (non-transaction) write waits for the open transactions holding the keys it writes. */
function waitForWriteKeys(context: StatementContext): Promise<void> {
  const { server, command } = context;
  const deadlineMs =
    typeof command.maxTimeMS === 'number' && command.maxTimeMS > 0 ? Date.now() + command.maxTimeMS : undefined;
  return server.transactions.waitForKeys(
    () => writeTargets(server.catalog, context.db, context.name, command),
    deadlineMs,
    [context.connection.closeSignal, server.stopSignal],
  );
}

/**
 * Places one command: inside its session's transaction (begun or continued here, reading and
 * writing the snapshot), as a snapshot read, or as a plain command that must not overwrite what
 * an open transaction holds. Throws mongod's errors for transaction fields that do not fit.
 */
export function enterStatement(
  server: StatementServer,
  definition: StatementCommand,
  command: Document,
  session: LogicalSession | undefined,
): StatementScope {
  const canonical = definition.names[0]!;
  const options = parseSessionOptions(command, session !== undefined);
  const transaction = server.transactions.statement(session, canonical, command, options);
  if (transaction) return inTransaction(server, command, transaction, COMMIT_OR_ABORT.has(canonical));
  const readConcern = command.readConcern as Document | undefined;
  if (readConcern?.level === 'snapshot') return snapshotRead(server, command, canonical, readConcern);
  const prepare = definition.retryableWrite ? waitForWriteKeys : NOTHING_TO_PREPARE;
  return {
    context: { catalog: undefined, transaction: undefined, command },
    prepare,
    finish: KEEP_REPLY,
    fail: NOTHING_TO_UNDO,
  };
}

function inTransaction(
  server: StatementServer,
  command: Document,
  transaction: Transaction,
  commitOrAbort: boolean,
): StatementScope {
  if (commitOrAbort) {
    return {
      context: { catalog: undefined, transaction, command },
      prepare: NOTHING_TO_PREPARE,
      finish: KEEP_REPLY,
      fail: NOTHING_TO_UNDO,
    };
  }
  const abort = () => server.transactions.abort(transaction, 'a statement failed');
  const { txnNumber: _txnNumber, ...statement } = command;
  return {
    context: { catalog: transaction.catalog, transaction, command: statement },
    prepare: NOTHING_TO_PREPARE,
    finish(reply) {
      // Inside a transaction a write error fails the whole command (and so the transaction).
      const writeError = (reply.writeErrors as Document[] | undefined)?.[0];
      if (writeError) {
        abort();
        const { index: _index, code, errmsg, ...extra } = writeError;
        return { ok: 0, errmsg, code, codeName: codeNameOf(Number(code)), ...extra };
      }
      return reply;
    },
    fail: abort,
  };
}

function snapshotRead(server: StatementServer, command: Document, name: string, readConcern: Document): StatementScope {
  if (!SNAPSHOT_READ_COMMANDS.has(name)) {
    throw new CommandError(
      'InvalidOptions',
      `read concern level snapshot is not supported on ${name} outside of a multi-document transaction`,
    );
  }
  const catalog = server.transactions.snapshotAt(readConcern.atClusterTime as never);
  const atClusterTime = catalog.time;
  return {
    context: { catalog, transaction: undefined, command },
    prepare: NOTHING_TO_PREPARE,
    finish(reply) {
      const cursor = reply.cursor as Document | undefined;
      return cursor ? { ...reply, cursor: { ...cursor, atClusterTime } } : { ...reply, atClusterTime };
    },
    fail: NOTHING_TO_UNDO,
  };
}

const CODE_NAMES = new Map<number, string>(Object.entries(ErrorCodes).map(([codeName, code]) => [code, codeName]));

function codeNameOf(code: number): string {
  return CODE_NAMES.get(code) ?? `Location${code}`;
}
