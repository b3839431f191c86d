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

export const RETRYABLE_WRITE_ERROR_LABEL = 'RetryableWriteError';

/**
 * Adds mongod's automatic labels to a finished reply of a retryable write (one carrying a
 * txnNumber outside a transaction): on a retryable top-level error or writeConcernError.
 */
export function addAutomaticLabels(reply: Document): Document {
  if (reply.errorLabels !== undefined) return reply;
  const topLevel = reply.ok === 0 ? Number(reply.code) : undefined;
  const writeConcernCode = Number((reply.writeConcernError as Document | undefined)?.code);
  if (RETRYABLE_WRITE_CODES.has(topLevel ?? NaN) || RETRYABLE_WRITE_CODES.has(writeConcernCode)) {
    return { ...reply, errorLabels: [RETRYABLE_WRITE_ERROR_LABEL] };
  }
  return reply;
}
