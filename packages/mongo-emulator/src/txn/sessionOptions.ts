import { CommandError } from '../errors.ts';
import type { Document } from '../engine/types.ts';

/** The transaction fields of a command, checked as mongod's initializeOperationSessionInfo does. */
export interface SessionOptions {
  txnNumber: bigint | undefined;
  /** Present (and then always false) on every statement of a transaction. */
  autocommit: false | undefined;
  startTransaction: boolean;
}

/** Commands mongod lets run inside a multi-document transaction (txnCmdAllowlist, 7.0). */
export const TRANSACTION_COMMANDS: ReadonlySet<string> = new Set([
  'abortTransaction',
  'aggregate',
  'commitTransaction',
  'create',
  'createIndexes',
  'delete',
  'distinct',
  'find',
  'findAndModify',
  'getMore',
  'insert',
  'killCursors',
  'update',
]);

export const COMMIT_OR_ABORT: ReadonlySet<string> = new Set(['commitTransaction', 'abortTransaction']);

/** Read concern levels a transaction may start with. */
const TRANSACTION_READ_CONCERN_LEVELS: ReadonlySet<string> = new Set(['local', 'majority', 'snapshot']);

export function parseSessionOptions(command: Document, hasSession: boolean): SessionOptions {
  const { txnNumber, autocommit, startTransaction } = command;
  if (txnNumber !== undefined && !hasSession) {
    throw new CommandError('InvalidOptions', 'Transaction number requires a session ID to also be specified');
  }
  if (autocommit !== undefined) {
    if (txnNumber === undefined)
      throw new CommandError('InvalidOptions', "'autocommit' field requires a transaction number to also be specified");
    if (autocommit !== false) throw new CommandError('InvalidOptions', 'Specifying autocommit=true is not allowed.');
  } else if (startTransaction !== undefined) {
    throw new CommandError(
      'InvalidOptions',
      "'startTransaction' field requires 'autocommit' field to also be specified",
    );
  }
  if (startTransaction !== undefined && startTransaction !== true) {
    throw new CommandError('InvalidOptions', 'Specifying startTransaction=false is not allowed.');
  }
  return {
    txnNumber: txnNumber === undefined ? undefined : BigInt(txnNumber as bigint | number),
    autocommit: autocommit === false ? false : undefined,
    startTransaction: startTransaction === true,
  };
}

/** The checks on a statement's own options once it is known to run in a transaction. */
export function checkTransactionStatement(name: string, command: Document, options: SessionOptions): void {
  if (!TRANSACTION_COMMANDS.has(name)) {
    throw new CommandError(
      'OperationNotSupportedInTransaction',
      `Cannot run '${name}' in a multi-document transaction.`,
    );
  }
  if (command.writeConcern !== undefined && !COMMIT_OR_ABORT.has(name)) {
    throw new CommandError('InvalidOptions', 'writeConcern is not allowed within a multi-statement transaction');
  }
  const readConcern = command.readConcern as Document | undefined;
  if (readConcern === undefined) return;
  if (!options.startTransaction) {
    throw new CommandError('InvalidOptions', 'Only the first command in a transaction may specify a readConcern');
  }
  const level = readConcern.level;
  if (level !== undefined && !TRANSACTION_READ_CONCERN_LEVELS.has(String(level))) {
    throw new CommandError(
      'InvalidOptions',
      "The readConcern level must be either 'local' (default), 'majority' or 'snapshot' in order to run in a transaction",
    );
  }
}
