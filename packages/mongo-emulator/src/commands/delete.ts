import { CommandError } from '../errors.ts';
import type { DeleteSpec, Document } from '../engine/types.ts';
import { letVariables } from './lib/letVariables.ts';
import { writableCollectionName } from './lib/namespace.ts';
import { optionalDocument, refuseUnknownFields, requiredArray } from '../engine/documentFields.ts';
import { batchReplyFields, runWriteBatch } from './lib/writeBatch.ts';
import type { CommandDefinition } from './types.ts';

/** `delete`: each statement on its own; `limit` 1 deletes one match, 0 all. */
export const deleteCommand: CommandDefinition = {
  names: ['delete'],
  acceptsWriteConcern: true,
  retryableWrite: true,
  run(context) {
    const coll = writableCollectionName(context);
    const variables = letVariables(context);
    const statements = requiredArray(context.command, 'deletes', 'delete').map((s) => toSpec(s, variables));
    const { catalog, counters } = context.server;
    const outcome = runWriteBatch(context, statements, (spec) => {
      counters.opcounters.delete += 1;
      const collection = catalog.getCollection(context.db, coll);
      return { n: collection ? collection.delete(spec).deleted : 0 };
    });
    return { n: outcome.results.reduce((sum, { result }) => sum + result.n, 0), ...batchReplyFields(outcome) };
  },
};

/** The fields of one delete statement in mongod 7.0 (write_ops.idl DeleteOpEntry). */
const STATEMENT_FIELDS: ReadonlySet<string> = new Set(['q', 'limit', 'collation', 'hint', 'sampleId']);

function toSpec(statement: Document, variables: Document | undefined): DeleteSpec {
  refuseUnknownFields(statement, STATEMENT_FIELDS, 'delete.deletes');
  const q = optionalDocument(statement, 'q');
  if (q === undefined)
    throw new CommandError('Location40414', "BSON field 'delete.deletes.q' is missing but a required field");
  const limit = Number(statement.limit);
  if (limit !== 0 && limit !== 1) {
    throw new CommandError(
      'FailedToParse',
      `The limit field in delete objects must be 0 or 1. Got ${String(statement.limit)}`,
    );
  }
  const spec: DeleteSpec = { q, limit };
  if (statement.collation !== undefined) spec.collation = statement.collation as DeleteSpec['collation'];
  if (statement.hint !== undefined) spec.hint = statement.hint as DeleteSpec['hint'];
  if (variables) spec.let = variables;
  return spec;
}
