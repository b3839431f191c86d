import { CommandError } from '../errors.ts';
import type { Document } from '../engine/types.ts';

/**
 * What one firing of mongod's `onPrimaryTransactionalWrite` does to a retryable write (see
 * SERVER-29606 and the retryable-writes spec README): it fires where the write would commit,
 * closes the client's connection (unless `closeConnection: false`), and with
 * `failBeforeCommitExceptionCode` fails the write so that it is not reflected.
 */
export interface TransactionalWriteAction {
  closeConnection: boolean;
  failBeforeCommitExceptionCode?: number;
}

export function parseTransactionalWriteData(data: unknown): TransactionalWriteAction {
  if (data === undefined) return { closeConnection: true };
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new CommandError('BadValue', "'data' must be an object for onPrimaryTransactionalWrite");
  }
  const d = data as Document;
  const action: TransactionalWriteAction = { closeConnection: d.closeConnection !== false };
  if (d.failBeforeCommitExceptionCode !== undefined)
    action.failBeforeCommitExceptionCode = Number(d.failBeforeCommitExceptionCode);
  return action;
}
