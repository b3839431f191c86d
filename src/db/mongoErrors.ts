import { MongoBulkWriteError, MongoError, MongoNetworkError, MongoServerError, MongoServerSelectionError } from 'mongodb';

// mongod's codes this application reacts to (error_codes.yml), in one table.
const MongoCode = Object.freeze({
  DuplicateKey: 11000,
  WriteConflict: 112,
  MaxTimeMSExpired: 50,
  IndexOptionsConflict: 85,
  IndexKeySpecsConflict: 86,
  ChangeStreamFatalError: 280,
  ChangeStreamHistoryLost: 286,
  PrimarySteppedDown: 189,
  InterruptedAtShutdown: 11600,
  InterruptedDueToReplStateChange: 11602,
  NotWritablePrimary: 10107,
  NotPrimaryNoSecondaryOk: 13435,
  NotPrimaryOrSecondary: 13436,
} as const);

/** The codes of a member that is not (or no longer) primary: the set is electing one. */
const REPLICA_SET_STATE_CHANGE: ReadonlySet<number> = new Set([
  MongoCode.PrimarySteppedDown,
  MongoCode.InterruptedAtShutdown,
  MongoCode.InterruptedDueToReplStateChange,
  MongoCode.NotWritablePrimary,
  MongoCode.NotPrimaryNoSecondaryOk,
  MongoCode.NotPrimaryOrSecondary,
]);

/**
 * A command failed because the set is between primaries (a step-down, a killed primary, an
 * election): the driver retries retryable writes once by itself, but not commands such as
 * createIndexes, so their caller may try again once a primary is elected.
 */
export function isReplicaSetStateChange(error: unknown): boolean {
  if (error instanceof MongoServerSelectionError || error instanceof MongoNetworkError) return true;
  return error instanceof MongoServerError && error.code !== undefined && REPLICA_SET_STATE_CHANGE.has(Number(error.code));
}

export function isDuplicateKey(error: unknown): boolean {
  return error instanceof MongoServerError && error.code === MongoCode.DuplicateKey;
}

/** True when every write of a failed insertMany hit an existing key, and nothing else went wrong. */
export function isOnlyDuplicateKeys(error: unknown): boolean {
  if (!(error instanceof MongoBulkWriteError)) return isDuplicateKey(error);
  if (error.writeConcernError) return false;
  return [error.writeErrors].flat().every((writeError) => writeError.code === MongoCode.DuplicateKey);
}

/**
 * A change stream cannot resume from its token: the oplog no longer holds it (286), or a stream
 * passed the point without meeting the token (280 "the resume token was not found"). Either way
 * events were lost and only a fresh start plus a reconciliation helps.
 */
export function isChangeStreamHistoryLost(error: unknown): boolean {
  if (!(error instanceof MongoServerError)) return false;
  if (error.code === MongoCode.ChangeStreamHistoryLost) return true;
  return error.code === MongoCode.ChangeStreamFatalError && /resume token was not found/i.test(error.message);
}

/** createIndexes met an index of the same name or key declared differently (by another feature). */
export function isIndexConflict(error: unknown): boolean {
  return error instanceof MongoServerError && (error.code === MongoCode.IndexOptionsConflict || error.code === MongoCode.IndexKeySpecsConflict);
}

/** A read ran past its maxTimeMS. */
export function isMaxTimeExpired(error: unknown): boolean {
  return error instanceof MongoServerError && error.code === MongoCode.MaxTimeMSExpired;
}

/**
 * The positions of a failed bulk write's writes when every one of them hit an existing key (and
 * nothing else went wrong), else null: the caller may retry those alone.
 */
export function duplicateKeyWrites(error: unknown): number[] | null {
  if (!(error instanceof MongoBulkWriteError) || error.writeConcernError) return null;
  const writeErrors = [error.writeErrors].flat();
  if (writeErrors.length === 0 || !writeErrors.every((writeError) => writeError.code === MongoCode.DuplicateKey)) return null;
  return writeErrors.map((writeError) => writeError.index);
}

/**
 * Why a transaction may be run again, from the driver's labels (the driver's own withTransaction
 * reads the same two): its commit's outcome is unknown (it may have applied), another
 * transaction's write met one of its writes (WriteConflict, 112), or another transient failure
 * (a lost connection, an election). Null: not to be retried.
 */
export type TransactionRetryReason = 'writeConflict' | 'transient' | 'unknownCommitResult';

export function transactionRetryReasonOf(error: unknown): TransactionRetryReason | null {
  if (!(error instanceof MongoError)) return null;
  if (error.hasErrorLabel('UnknownTransactionCommitResult')) return 'unknownCommitResult';
  if (!error.hasErrorLabel('TransientTransactionError')) return null;
  return error.code === MongoCode.WriteConflict ? 'writeConflict' : 'transient';
}
