// The rules mongod checks on an aggregate's pipeline before running it, that depend on where it
// runs (a collection or `aggregate: 1`) and how (readConcern, a transaction).
import type { Document } from '../../engine/types.ts';
import { CommandError } from '../../errors.ts';
import { isPlainObject } from '../../engine/updatePath.ts';

/**
 * Stages that read no collection and so only run with `aggregate: 1` (their constraints'
 * isIndependentOfAnyCollection in mongod). `$changeStream` runs either way: on a collection, or
 * with `aggregate: 1` on a whole database (or the cluster, from admin).
 */
const COLLECTIONLESS_STAGES: ReadonlySet<string> = new Set(['$currentOp', '$listLocalSessions', '$documents']);
const EITHER_WAY_STAGES: ReadonlySet<string> = new Set(['$changeStream']);

function stageName(stage: unknown): string | undefined {
  return isPlainObject(stage) ? Object.keys(stage)[0] : undefined;
}

/**
 * mongod's validateTopLevelPipeline (pipeline.cpp): `{aggregate: 1}` needs a pipeline whose first
 * stage reads no collection, and a stage that reads no collection needs `{aggregate: 1}`.
 */
export function checkPipelineNamespace(db: string, collectionless: boolean, pipeline: Document[]): void {
  // Checked as the stage parses, before the pipeline's (document_source_current_op.cpp).
  if (pipeline.some((stage) => stageName(stage) === '$currentOp') && (db !== 'admin' || !collectionless)) {
    throw new CommandError(
      'InvalidNamespace',
      "$currentOp must be run against the 'admin' database with {aggregate: 1}",
    );
  }
  if (pipeline.length === 0) {
    if (collectionless)
      throw new CommandError('InvalidNamespace', '{aggregate: 1} is not valid for an empty pipeline.');
    return;
  }
  const first = stageName(pipeline[0]);
  if (first === undefined || EITHER_WAY_STAGES.has(first)) return;
  const independent = COLLECTIONLESS_STAGES.has(first);
  if (collectionless && !independent) {
    throw new CommandError('InvalidNamespace', `{aggregate: 1} is not valid for '${first}'; a collection is required.`);
  }
  if (!collectionless && independent)
    throw new CommandError('InvalidNamespace', `'${first}' can only be run with {aggregate: 1}`);
}

/**
 * $out and $merge as their stages parse (document_source_out.cpp, document_source_merge.cpp): not
 * inside a multi-document transaction, and never under a 'linearizable' read concern (their
 * supportsReadConcern refuses only that level; 'snapshot' outside a transaction is allowed).
 */
export function checkOutputStage(pipeline: Document[], command: Document, inTransaction: boolean): void {
  const last = stageName(pipeline.at(-1));
  if (last !== '$out' && last !== '$merge') return;
  const level = isPlainObject(command.readConcern) ? command.readConcern.level : undefined;
  if (level === 'linearizable')
    throw new CommandError('InvalidOptions', `${last} cannot be used with a 'linearizable' read concern level`);
  if (inTransaction)
    throw new CommandError('OperationNotSupportedInTransaction', `${last} cannot be used in a transaction`);
}
