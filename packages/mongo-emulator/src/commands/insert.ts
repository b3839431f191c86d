import type { Document } from '../engine/types.ts';
import { validatedWrite } from './lib/bypassValidation.ts';
import { writableCollectionName } from './lib/namespace.ts';
import { requiredArray } from '../engine/documentFields.ts';
import { batchReplyFields, runWriteBatch } from './lib/writeBatch.ts';
import type { CommandDefinition } from './types.ts';

/** `insert`: each document on its own; the collection is created on first insert. */
export const insert: CommandDefinition = {
  names: ['insert'],
  acceptsWriteConcern: true,
  retryableWrite: true,
  run(context) {
    const coll = writableCollectionName(context);
    const documents = requiredArray(context.command, 'documents', 'insert');
    const { catalog, counters } = context.server;
    const outcome = runWriteBatch(
      context,
      documents,
      (document: Document) => {
        counters.opcounters.insert += 1;
        validatedWrite(context, catalog.getOrCreateCollection(context.db, coll), (c) => c.insertOne(document));
        return { n: 1 };
      },
      { groupCommit: true },
    );
    return { n: outcome.results.length, ...batchReplyFields(outcome) };
  },
};
