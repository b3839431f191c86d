// The error labels mongod gives change-stream errors (ErrorLabelBuilder): the driver resumes a
// stream after an error labelled ResumableChangeStreamError and never after one labelled
// NonResumableChangeStreamError.
import type { Document } from '../engine/types.ts';
import { CommandError } from '../errors.ts';
import { isChangeStreamPipeline } from './streamSpec.ts';

export const RESUMABLE_LABEL = 'ResumableChangeStreamError';
export const NON_RESUMABLE_LABEL = 'NonResumableChangeStreamError';

/**
 * mongod 7.0's isRetriableError, isNetworkError and isNeedRetargettingError categories, plus
 * RetryChangeStream and FailedToSatisfyReadPreference (error_codes.yml).
 */
const RESUMABLE_CODES: ReadonlySet<number> = new Set([
  6, // HostUnreachable
  7, // HostNotFound
  89, // NetworkTimeout
  91, // ShutdownInProgress
  133, // FailedToSatisfyReadPreference
  134, // ReadConcernMajorityNotAvailableYet
  150, // StaleEpoch
  189, // PrimarySteppedDown
  234, // RetryChangeStream
  262, // ExceededTimeLimit
  317, // ConnectionPoolExpired
  358, // InternalTransactionNotSupported
  9001, // SocketException
  10107, // NotWritablePrimary
  11600, // InterruptedAtShutdown
  11602, // InterruptedDueToReplStateChange
  13388, // StaleConfig
  13435, // NotPrimaryNoSecondaryOk
  13436, // NotPrimaryOrSecondary
]);

/**
 * An error a change stream's getMore raised once it held its cursor: a resumable code gets the
 * label (mongod finds the stream through the cursor's originating command, which a fail point
 * acting before the checkout never sees, so such errors stay unlabelled).
 */
export function labelStreamError(error: unknown): unknown {
  if (error instanceof CommandError && error.errorLabels.length === 0 && RESUMABLE_CODES.has(error.code)) {
    return CommandError.withCode(error.code, error.message, { errorLabels: [RESUMABLE_LABEL], extra: error.extra });
  }
  return error;
}

/** The label of a failed `aggregate` reply (no labels chosen yet) that opened a change stream. */
export function changeStreamAggregateLabels(reply: Document, command: Document): string[] {
  const { pipeline } = command;
  const opensStream = Array.isArray(pipeline) && isChangeStreamPipeline(pipeline as Document[]);
  return opensStream &&
    reply.ok === 0 &&
    reply.writeConcernError === undefined &&
    RESUMABLE_CODES.has(Number(reply.code))
    ? [RESUMABLE_LABEL]
    : [];
}
