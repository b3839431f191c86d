import { idleSessionReports } from '../txn/idleSessions.ts';
import {
  aggregateCurrentOp,
  aggregateOplog,
  isChangeStreamPipeline,
  isCurrentOpPipeline,
  isOplog,
} from '../changes/index.ts';
import { CommandError } from '../errors.ts';
import type { Document } from '../engine/types.ts';
import { bsonTypeName } from '../engine/bsonTypeName.ts';
import { collectionName } from './lib/namespace.ts';
import { letVariables } from './lib/letVariables.ts';
import { expandListLocalSessions } from './lib/listLocalSessions.ts';
import { optionalCount, optionalDocument, requiredArray } from '../engine/documentFields.ts';
import { checkOutputStage, checkPipelineNamespace } from './lib/pipelineRules.ts';
import { checkViewCollation } from './lib/viewReads.ts';
import type { CommandContext, CommandDefinition } from './types.ts';

/** `aggregate` on a collection or (`aggregate: 1`) on the database; results through a cursor. */
export const aggregate: CommandDefinition = {
  names: ['aggregate'],
  acceptsWriteConcern: true,
  run(context) {
    const { command, db, server } = context;
    const coll = command.aggregate === 1 ? null : collectionName(context);
    const requested = requiredArray(command, 'pipeline', 'aggregate');
    // mongod's order: the read concern a stage supports, each stage's own parse, then the namespace.
    checkOutputStage(requested, command, context.transaction !== undefined);
    const pipeline = expandListLocalSessions(coll === null, requested, server.sessions);
    checkPipelineNamespace(db, coll === null, requested);
    if (command.explain !== undefined && command.explain !== false) {
      throw new CommandError('CommandNotSupported', 'mongo-emulator does not explain aggregations');
    }
    const cursorOptions = cursorOption(command);
    const batchSize = optionalCount(cursorOptions, 'batchSize');
    if (isChangeStreamPipeline(pipeline)) return server.changeStreams.open({ db, coll, pipeline, batchSize, command });
    if (coll !== null && server.catalog.view(db, coll)) checkViewCollation(optionalDocument(command, 'collation'));
    const variables = letVariables(context);
    const results = isCurrentOpPipeline(pipeline)
      ? aggregateCurrentOp({ db, coll, pipeline, variables }, server.changeStreams, server.node.address, () =>
          idleSessionReports(server.transactions, server.node.address),
        )
      : isOplog(db, coll)
        ? aggregateOplog(server.changeStreams.oplog, pipeline, server.node.address)
        : server.catalog.aggregate(db, coll, pipeline, {
            ...(variables ? { let: variables } : {}),
            ...(command.collation !== undefined ? { collation: command.collation as never } : {}),
          });
    const ns = coll === null ? `${db}.$cmd.aggregate` : `${db}.${coll}`;
    return { cursor: server.cursors.open(ns, results, { batchSize }) };
  },
};

function cursorOption(command: CommandContext['command']): Document {
  if (command.cursor === undefined) {
    throw new CommandError(
      'FailedToParse',
      "The 'cursor' option is required, except for aggregate with the explain argument",
    );
  }
  const cursor = optionalDocument(command, 'cursor');
  if (!cursor)
    throw new CommandError('TypeMismatch', `cursor field must be an object, got ${bsonTypeName(command.cursor)}`);
  return cursor;
}
