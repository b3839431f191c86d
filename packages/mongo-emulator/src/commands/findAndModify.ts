import { CommandError } from '../errors.ts';
import type { Document, FindAndModifySpec } from '../engine/types.ts';
import { RetryableWrite } from '../session/RetryableWrite.ts';
import { validatedWrite } from './lib/bypassValidation.ts';
import { letVariables } from './lib/letVariables.ts';
import { writableCollectionName } from './lib/namespace.ts';
import { optionalBoolean, optionalDocument } from '../engine/documentFields.ts';
import { onPrimaryTransactionalWrite } from './lib/transactionalWriteFailPoint.ts';
import type { CommandDefinition } from './types.ts';

/**
 * `findAndModify`: one atomic find-then-update (or remove). Retried under the same
 * txnNumber, it returns the first reply instead of modifying again.
 */
export const findAndModify: CommandDefinition = {
  names: ['findAndModify', 'findandmodify'],
  acceptsWriteConcern: true,
  retryableWrite: true,
  run(context) {
    const coll = writableCollectionName(context);
    const spec = toSpec(context.command, letVariables(context));
    const retryable = RetryableWrite.begin(context.session, context.command);
    const previous = retryable?.previousResult<Document>(0);
    if (previous) return { ...previous, retriedStmtId: retryable!.retriedStmtIds[0] };
    if (retryable) onPrimaryTransactionalWrite(context);
    const { catalog, counters } = context.server;
    if (spec.remove) counters.opcounters.delete += 1;
    else counters.opcounters.update += 1;
    const collection = spec.upsert
      ? catalog.getOrCreateCollection(context.db, coll)
      : catalog.getCollection(context.db, coll);
    const reply: Document = collection
      ? (({ value, lastErrorObject }) => ({ lastErrorObject, value }))(
          retryable
            ? context.server.changeStreams.withStatement(retryable.sessionFields(context.command, 0), () =>
                validatedWrite(context, collection, (c) => c.findAndModify(spec)),
              )
            : validatedWrite(context, collection, (c) => c.findAndModify(spec)),
        )
      : { lastErrorObject: spec.remove ? { n: 0 } : { n: 0, updatedExisting: false }, value: null };
    retryable?.record(0, reply);
    return reply;
  },
};

function toSpec(command: Document, variables: Document | undefined): FindAndModifySpec {
  const remove = optionalBoolean(command, 'remove') ?? false;
  const update = command.update;
  const returnNew = optionalBoolean(command, 'new') ?? false;
  const upsert = optionalBoolean(command, 'upsert') ?? false;
  if (remove && update !== undefined)
    throw new CommandError('FailedToParse', 'Cannot specify both an update and remove=true');
  if (!remove && update === undefined)
    throw new CommandError('FailedToParse', 'Either an update or remove=true must be specified');
  if (remove && returnNew) {
    throw new CommandError(
      'FailedToParse',
      "Cannot specify both new=true and remove=true; 'remove' always returns the deleted document",
    );
  }
  if (remove && upsert) throw new CommandError('FailedToParse', 'Cannot specify both upsert=true and remove=true');
  if (update !== undefined && (update === null || typeof update !== 'object')) {
    throw new CommandError('FailedToParse', 'Update argument must be either an object or an array');
  }
  const spec: FindAndModifySpec = { remove, new: returnNew, upsert };
  const query = optionalDocument(command, 'query');
  const sort = optionalDocument(command, 'sort');
  const fields = optionalDocument(command, 'fields');
  if (query) spec.query = query;
  if (sort) spec.sort = sort;
  if (fields) spec.fields = fields;
  if (variables) spec.let = variables;
  if (update !== undefined) spec.update = update as Document | Document[];
  if (Array.isArray(command.arrayFilters)) spec.arrayFilters = command.arrayFilters as Document[];
  if (command.collation !== undefined) spec.collation = command.collation as FindAndModifySpec['collation'];
  if (command.hint !== undefined) spec.hint = command.hint as FindAndModifySpec['hint'];
  return spec;
}
