import { CommandError } from '../../errors.ts';
import type { CommandContext } from '../types.ts';

/**
 * Where a retryable write commits a statement (or, for insert, a batch), mongod evaluates
 * `onPrimaryTransactionalWrite`: the client's connection ends at once (the command still runs
 * to its end, its reply is lost), and `failBeforeCommitExceptionCode` makes this write fail
 * unapplied. Callers evaluate it only for retryable-write statements not already applied under
 * the txnNumber (a retried statement commits nothing; a transaction's statements carry none).
 */
export function onPrimaryTransactionalWrite(context: CommandContext): void {
  const action = context.server.failPoints.transactionalWriteAction();
  if (!action) return;
  if (action.closeConnection) context.connection.close();
  const code = action.failBeforeCommitExceptionCode;
  if (code !== undefined) {
    const txn = `${context.session?.key ?? '?'}:${String(context.command.txnNumber)}`;
    throw CommandError.withCode(code, `Failing write for ${txn} due to failpoint. The write must not be reflected.`);
  }
}
