import {
  MongoBulkWriteError,
  MongoError,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoServerError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
} from 'mongodb';

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
  ShutdownInProgress: 91,
  HostUnreachable: 6,
  HostNotFound: 7,
  NetworkTimeout: 89,
  SocketException: 9001,
  ExceededTimeLimit: 262,
  ReadConcernMajorityNotAvailableYet: 134,
  WriteConcernFailed: 64,
} as const);

/** The codes of a member that is not (or no longer) primary: the set is electing one. */
const REPLICA_SET_STATE_CHANGE: ReadonlySet<number> = new Set([
  MongoCode.PrimarySteppedDown,
  MongoCode.InterruptedAtShutdown,
  MongoCode.InterruptedDueToReplStateChange,
  MongoCode.NotWritablePrimary,
  MongoCode.NotPrimaryNoSecondaryOk,
  MongoCode.NotPrimaryOrSecondary,
  MongoCode.ShutdownInProgress,
]);

/**
 * The driver's retryable codes (node_modules/mongodb/src/error.ts, RETRYABLE_READ_ERROR_CODES =
 * RETRYABLE_WRITE_ERROR_CODES, from the retryable-writes spec): the member is gone, going, or not
 * the primary; and 64, a write concern that timed out waiting for a majority (mongod's
 * WriteConcernFailed, error_codes.yml): the set cannot confirm it now. All say "later", none "wrong".
 */
const UNAVAILABLE_CODES: ReadonlySet<number> = new Set([
  ...REPLICA_SET_STATE_CHANGE,
  MongoCode.HostUnreachable,
  MongoCode.HostNotFound,
  MongoCode.NetworkTimeout,
  MongoCode.SocketException,
  MongoCode.ExceededTimeLimit,
  MongoCode.ReadConcernMajorityNotAvailableYet,
  MongoCode.WriteConcernFailed,
]);

/**
 * Labels the server or the driver put on an error that a retry may fix: a retryable write's
 * (RetryableWriteError), and a commit whose outcome the driver could not learn. A
 * TransientTransactionError alone is not one: a write conflict carries it, and contention is no fault.
 */
const UNAVAILABLE_LABELS = ['RetryableWriteError', 'UnknownTransactionCommitResult'] as const;

/** How deep a cause chain is followed (an error wrapped by a feature keeps the driver's as its cause). */
const CAUSE_DEPTH_MAX = 5;

/**
 * A command failed because the set is between primaries (a step-down, a killed primary, an
 * election): the driver retries retryable writes once by itself, but not commands such as
 * createIndexes, so their caller may try again once a primary is elected.
 */
export function isReplicaSetStateChange(error: unknown): boolean {
  if (error instanceof MongoServerSelectionError || error instanceof MongoNetworkError) return true;
  return (
    error instanceof MongoServerError && error.code !== undefined && REPLICA_SET_STATE_CHANGE.has(Number(error.code))
  );
}

/**
 * R5: the deployment cannot answer now (no primary, a member going away, a majority out of reach,
 * the client's connections gone) and the same call later can: answered as UNAVAILABLE (HTTP 503
 * with Retry-After), never as an internal fault. Follows `cause` a few levels down.
 */
export function isUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current != null && depth < CAUSE_DEPTH_MAX; depth++) {
    if (isReplicaSetStateChange(current)) return true;
    if (current instanceof MongoTopologyClosedError || current instanceof MongoNotConnectedError) return true;
    if (
      current instanceof MongoServerError &&
      current.code !== undefined &&
      UNAVAILABLE_CODES.has(Number(current.code))
    )
      return true;
    const mongoError = current instanceof MongoError ? current : null;
    if (mongoError && UNAVAILABLE_LABELS.some((label) => mongoError.hasErrorLabel(label))) return true;
    current = wrappedError(current);
  }
  return false;
}

/**
 * The error under `error`: its `cause`, or the driver's error that a bulk write met. The driver
 * wraps an error of its own (a closed connection, a pool cleared) thrown during a bulkWrite or an
 * insertMany in a MongoBulkWriteError that keeps the message and copies the fields, but neither the
 * class nor a `cause`: the wrapped error is left only as `errorResponse`
 * (node_modules/mongodb/src/bulk/common.ts, executeCommands; MongoServerError's constructor).
 */
function wrappedError(error: unknown): unknown {
  const cause = (error as { cause?: unknown }).cause;
  if (cause != null) return cause;
  if (error instanceof MongoBulkWriteError && error.errorResponse instanceof Error) return error.errorResponse;
  return undefined;
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
  return (
    error instanceof MongoServerError &&
    (error.code === MongoCode.IndexOptionsConflict || error.code === MongoCode.IndexKeySpecsConflict)
  );
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
  if (writeErrors.length === 0 || !writeErrors.every((writeError) => writeError.code === MongoCode.DuplicateKey))
    return null;
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
