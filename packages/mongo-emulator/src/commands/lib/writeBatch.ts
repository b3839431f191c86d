import { CommandError } from '../../errors.ts';
import type { Document } from '../../engine/types.ts';
import { RetryableWrite } from '../../session/RetryableWrite.ts';
import { optionalBoolean } from '../../engine/documentFields.ts';
import { onPrimaryTransactionalWrite } from './transactionalWriteFailPoint.ts';
import type { CommandContext } from '../types.ts';

/** mongod's maxWriteBatchSize: statements per insert/update/delete command. */
export const WRITE_BATCH_SIZE_MAX = 100_000;

export interface BatchOutcome<R> {
  /** Results of the statements that succeeded (first results for retried ones), by index. */
  results: { index: number; result: R }[];
  writeErrors: Document[];
  retriedStmtIds: number[];
}

/**
 * Runs the statements of an insert/update/delete command in order: each one atomic, a failed
 * one reported as a writeError (and, when `ordered`, ending the batch), and under a retryable
 * write each applied at most once. `apply` must be synchronous so no other command runs
 * between a statement's retry check and its write.
 */
export function runWriteBatch<S, R>(
  context: CommandContext,
  statements: S[],
  apply: (statement: S, index: number) => R,
  options: { groupCommit?: boolean } = {},
): BatchOutcome<R> {
  if (statements.length === 0)
    throw new CommandError('InvalidLength', 'Write batch sizes must be between 1 and 100000. Got 0 operations.');
  if (statements.length > WRITE_BATCH_SIZE_MAX) {
    throw new CommandError(
      'InvalidLength',
      `Write batch sizes must be between 1 and ${WRITE_BATCH_SIZE_MAX}. Got ${statements.length} operations.`,
    );
  }
  const ordered = optionalBoolean(context.command, 'ordered') ?? true;
  const retryable = RetryableWrite.begin(context.session, context.command);
  const outcome: BatchOutcome<R> = { results: [], writeErrors: [], retriedStmtIds: [] };
  const unapplied = retryable ? statements.filter((_, index) => !retryable.isApplied(index)).length : 0;
  const commitPerStatement = !(options.groupCommit && unapplied > 1 && groupCommitSucceeds(context));
  for (let index = 0; index < statements.length; index++) {
    const previous = retryable?.previousResult<R>(index);
    if (previous !== undefined) {
      outcome.results.push({ index, result: previous });
      continue;
    }
    try {
      if (retryable && commitPerStatement) onPrimaryTransactionalWrite(context);
      const result = retryable
        ? context.server.changeStreams.withStatement(retryable.sessionFields(context.command, index), () =>
            apply(statements[index]!, index),
          )
        : apply(statements[index]!, index);
      retryable?.record(index, result);
      outcome.results.push({ index, result });
    } catch (error) {
      if (!(error instanceof CommandError)) throw error;
      outcome.writeErrors.push({ index, code: error.code, errmsg: error.message, ...error.extra });
      if (ordered) break;
    }
  }
  outcome.retriedStmtIds = retryable?.retriedStmtIds ?? [];
  return outcome;
}

/**
 * mongod inserts a batch of documents in one commit and, when that commit fails, again one
 * document at a time: so the commit fail point is evaluated once for the batch, then per
 * statement only if it failed the batch.
 */
function groupCommitSucceeds(context: CommandContext): boolean {
  try {
    onPrimaryTransactionalWrite(context);
    return true;
  } catch (error) {
    if (error instanceof CommandError) return false;
    throw error;
  }
}

/** The reply fields every write command shares. */
export function batchReplyFields(outcome: BatchOutcome<unknown>): Document {
  const reply: Document = {};
  if (outcome.writeErrors.length > 0) reply.writeErrors = outcome.writeErrors;
  if (outcome.retriedStmtIds.length > 0) reply.retriedStmtIds = outcome.retriedStmtIds;
  return reply;
}
