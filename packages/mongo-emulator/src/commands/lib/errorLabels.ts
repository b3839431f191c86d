import { changeStreamAggregateLabels } from '../../changes/changeStreamLabels.ts';
import type { Document } from '../../engine/types.ts';

/**
 * Codes after which a retryable write may be retried, per the retryable-writes specification;
 * mongod 4.4+ labels such errors `RetryableWriteError` itself.
 */
const RETRYABLE_WRITE_CODES: ReadonlySet<number> = new Set([
  6, // HostUnreachable
  7, // HostNotFound
  89, // NetworkTimeout
  91, // ShutdownInProgress
  189, // PrimarySteppedDown
  262, // ExceededTimeLimit
  9001, // SocketException
  10107, // NotWritablePrimary
  11600, // InterruptedAtShutdown
  11602, // InterruptedDueToReplStateChange
  13435, // NotPrimaryNoSecondaryOk
  13436, // NotPrimaryOrSecondary
]);

/**
 * Codes after which a whole transaction may be retried (mongod's isTransientTransactionError):
 * the transaction failed with no lasting effect.
 */
const TRANSIENT_TRANSACTION_CODES: ReadonlySet<number> = new Set([
  24, // LockTimeout
  112, // WriteConflict
  150, // StaleEpoch
  239, // SnapshotTooOld
  246, // SnapshotUnavailable
  267, // PreparedTransactionInProgress
  13388, // StaleConfig
]);
const NO_SUCH_TRANSACTION = 251;
/**
 * Not-primary codes (error_codes.yml's NotPrimaryError category): a statement inside a transaction
 * that fails with one can only be retried as a whole transaction (on the new primary), so it is
 * transient there; commit and abort are retried by themselves instead (RetryableWriteError).
 */
export const NOT_PRIMARY_CODES: ReadonlySet<number> = new Set([
  189, // PrimarySteppedDown
  10107, // NotWritablePrimary
  11602, // InterruptedDueToReplStateChange
  13435, // NotPrimaryNoSecondaryOk
  13436, // NotPrimaryOrSecondary
]);

export const RETRYABLE_WRITE_ERROR_LABEL = 'RetryableWriteError';
export const TRANSIENT_TRANSACTION_ERROR_LABEL = 'TransientTransactionError';

const COMMIT_OR_ABORT: ReadonlySet<string> = new Set(['commitTransaction', 'abortTransaction']);

/**
 * Adds the labels mongod's ErrorLabelBuilder adds to a finished reply, unless a fail point chose
 * them: `TransientTransactionError` on transient codes of transaction statements (NoSuchTransaction
 * on commit/abort only without a writeConcernError), `RetryableWriteError` on retryable codes of
 * retryable writes and of commitTransaction/abortTransaction, `ResumableChangeStreamError` on
 * resumable codes of a change stream's aggregate.
 */
export function addAutomaticLabels(
  reply: Document,
  { commandName, command }: { commandName: string; command: Document },
): Document {
  if (reply.errorLabels !== undefined) return reply;
  if (command.txnNumber === undefined) {
    // A change stream's aggregate (its getMores label their own errors: src/changes).
    const streamLabels = commandName === 'aggregate' ? changeStreamAggregateLabels(reply, command) : [];
    return streamLabels.length > 0 ? { ...reply, errorLabels: streamLabels } : reply;
  }
  const inTransaction = command.autocommit !== undefined;
  const commitOrAbort = COMMIT_OR_ABORT.has(commandName);
  const code = reply.ok === 0 ? Number(reply.code) : NaN;
  const writeConcernError = reply.writeConcernError as Document | undefined;
  const labels: string[] = [];
  if (inTransaction && isTransient(code, writeConcernError !== undefined, commitOrAbort))
    labels.push(TRANSIENT_TRANSACTION_ERROR_LABEL);
  if (
    (!inTransaction || commitOrAbort) &&
    (RETRYABLE_WRITE_CODES.has(code) || RETRYABLE_WRITE_CODES.has(Number(writeConcernError?.code)))
  ) {
    labels.push(RETRYABLE_WRITE_ERROR_LABEL);
  }
  return labels.length > 0 ? { ...reply, errorLabels: labels } : reply;
}

function isTransient(code: number, hasWriteConcernError: boolean, commitOrAbort: boolean): boolean {
  if (TRANSIENT_TRANSACTION_CODES.has(code)) return true;
  if (!commitOrAbort && NOT_PRIMARY_CODES.has(code)) return true;
  return code === NO_SUCH_TRANSACTION && !(commitOrAbort && hasWriteConcernError);
}
