import { CommandError } from '../errors.ts';
import type { Document, UpdateSpec } from '../engine/types.ts';
import { validatedWrite } from './lib/bypassValidation.ts';
import { letVariables } from './lib/letVariables.ts';
import { writableCollectionName } from './lib/namespace.ts';
import { optionalBoolean, optionalDocument, refuseUnknownFields, requiredArray } from '../engine/documentFields.ts';
import { batchReplyFields, runWriteBatch } from './lib/writeBatch.ts';
import type { CommandDefinition } from './types.ts';

interface StatementResult {
  n: number;
  nModified: number;
  upsertedId?: unknown;
}

/** `update`: each statement on its own; an upsert creates the collection if needed. */
export const update: CommandDefinition = {
  names: ['update'],
  acceptsWriteConcern: true,
  retryableWrite: true,
  run(context) {
    const coll = writableCollectionName(context);
    const variables = letVariables(context);
    const statements = requiredArray(context.command, 'updates', 'update').map((s) => toSpec(s, variables));
    const { catalog, counters } = context.server;
    const outcome = runWriteBatch(context, statements, (spec): StatementResult => {
      counters.opcounters.update += 1;
      const collection = spec.upsert
        ? catalog.getOrCreateCollection(context.db, coll)
        : catalog.getCollection(context.db, coll);
      if (!collection) return { n: 0, nModified: 0 };
      const result = validatedWrite(context, collection, (c) => c.update(spec));
      if (result.upsertedId !== undefined) return { n: 1, nModified: 0, upsertedId: result.upsertedId };
      return { n: result.matched, nModified: result.modified };
    });
    const upserted = outcome.results
      .filter(({ result }) => result.upsertedId !== undefined)
      .map(({ index, result }) => ({ index, _id: result.upsertedId }));
    const reply: Document = {
      n: outcome.results.reduce((sum, { result }) => sum + result.n, 0),
      nModified: outcome.results.reduce((sum, { result }) => sum + result.nModified, 0),
    };
    if (upserted.length > 0) reply.upserted = upserted;
    return { ...reply, ...batchReplyFields(outcome) };
  },
};

/** The fields of one update statement in mongod 7.0 (write_ops.idl UpdateOpEntry). */
const STATEMENT_FIELDS: ReadonlySet<string> = new Set([
  'q',
  'u',
  'c',
  'arrayFilters',
  'multi',
  'upsert',
  'upsertSupplied',
  'collation',
  'hint',
  'sampleId',
  'allowShardKeyUpdatesWithoutFullShardKeyInQuery',
]);

function toSpec(statement: Document, variables: Document | undefined): UpdateSpec {
  refuseUnknownFields(statement, STATEMENT_FIELDS, 'update.updates');
  const q = optionalDocument(statement, 'q');
  const u = statement.u;
  if (q === undefined)
    throw new CommandError('Location40414', "BSON field 'update.updates.q' is missing but a required field");
  if (u === null || typeof u !== 'object') {
    throw new CommandError('FailedToParse', "BSON field 'update.updates.u' is missing or not an object or pipeline");
  }
  const spec: UpdateSpec = { q, u: u as Document | Document[] };
  if (optionalBoolean(statement, 'multi')) spec.multi = true;
  if (optionalBoolean(statement, 'upsert')) spec.upsert = true;
  if (Array.isArray(statement.arrayFilters)) spec.arrayFilters = statement.arrayFilters as Document[];
  if (statement.collation !== undefined) spec.collation = statement.collation as UpdateSpec['collation'];
  if (statement.hint !== undefined) spec.hint = statement.hint as UpdateSpec['hint'];
  if (variables) spec.let = variables;
  return spec;
}
