// `$currentOp` and the `currentOp` command, for what the emulator can have in progress: open
// change streams and open transactions. A stream whose getMore is waiting shows as an operation
// (`type: 'op'`); one between getMores as an idle cursor (`type: 'idleCursor'`, with
// `idleCursors: true`), as on mongod, so a test can count the streams a process holds open. An
// open transaction between statements is an idle session (`type: 'idleSession'`, listed unless
// `idleSessions: false`: mongod's default is true, src/mongo/db/pipeline/
// document_source_current_op.h), built by txn/ and handed in here.
import { Timestamp } from 'bson';
import { aggregateDocuments } from '../engine/aggregate.ts';
import type { Document } from '../engine/types.ts';
import { CommandError } from '../errors.ts';
import { optionalBoolean, optionalDocument } from '../engine/documentFields.ts';
import type { ChangeStreams, OpenStream } from './ChangeStreams.ts';

const CURRENT_OP_OPTIONS = new Set([
  'allUsers',
  'idleConnections',
  'idleCursors',
  'idleSessions',
  'localOps',
  'backtrace',
  'truncateOps',
  'targetAllNodes',
]);

/** Reads the `$currentOp` stage (first in an `aggregate: 1` on admin) and lists its documents. */
/** The idle sessions to list (txn/idleSessions.ts), passed in so changes/ stays beside txn/. */
export type IdleSessionLister = () => Document[];

export function currentOpStage(
  db: string,
  isCollectionless: boolean,
  stage: Document,
  streams: ChangeStreams,
  host: string,
  idleSessions: IdleSessionLister,
): Document[] {
  if (db !== 'admin' || !isCollectionless) {
    throw new CommandError(
      'InvalidNamespace',
      "$currentOp must be run against the 'admin' database with {aggregate: 1}",
    );
  }
  const options = optionalDocument(stage, '$currentOp') ?? {};
  for (const field of Object.keys(options)) {
    if (!CURRENT_OP_OPTIONS.has(field))
      throw new CommandError('FailedToParse', `Unrecognized option '${field}' in $currentOp stage.`);
  }
  const operations = currentOperations(streams, host, optionalBoolean(options, 'idleCursors') ?? false);
  return (optionalBoolean(options, 'idleSessions') ?? true) ? [...operations, ...idleSessions()] : operations;
}

export function currentOperations(streams: ChangeStreams, host: string, idleCursors: boolean): Document[] {
  const now = new Date();
  const out: Document[] = [];
  for (const stream of streams.streams()) {
    if (stream.active) out.push(activeOp(stream, stream.active, host, now));
    else if (idleCursors) out.push(idleCursor(stream, host));
  }
  return out;
}

function cursorInfo(stream: OpenStream, opid?: number): Document {
  const { cursor } = stream;
  return {
    cursorId: stream.id,
    createdDate: cursor.createdDate,
    lastAccessDate: cursor.lastAccessDate,
    nDocsReturned: BigInt(cursor.nDocsReturned),
    nBatchesReturned: BigInt(cursor.nBatchesReturned),
    noCursorTimeout: false,
    tailable: true,
    awaitData: true,
    originatingCommand: stream.originatingCommand,
    ...(opid === undefined ? {} : { operationUsingCursorId: BigInt(opid) }),
  };
}

function idleCursor(stream: OpenStream, host: string): Document {
  return {
    type: 'idleCursor',
    host,
    ns: stream.ns,
    ...(stream.lsid ? { lsid: stream.lsid } : {}),
    planSummary: 'COLLSCAN',
    cursor: cursorInfo(stream),
  };
}

function activeOp(stream: OpenStream, op: NonNullable<OpenStream['active']>, host: string, now: Date): Document {
  const runningMicros = (now.getTime() - op.startedAt.getTime()) * 1000;
  const { lsid: _lsid, $clusterTime: _clusterTime, ...command } = op.command;
  return {
    type: 'op',
    host,
    desc: `conn${op.connection.id}`,
    connectionId: op.connection.id,
    client: op.connection.remoteAddress,
    ...(op.connection.appName ? { appName: op.connection.appName } : {}),
    ...(op.connection.clientMetadata ? { clientMetadata: op.connection.clientMetadata } : {}),
    active: true,
    currentOpTime: now.toISOString(),
    opid: op.opid,
    ...(stream.lsid ? { lsid: stream.lsid } : {}),
    secs_running: BigInt(Math.floor(runningMicros / 1_000_000)),
    microsecs_running: BigInt(runningMicros),
    op: 'getmore',
    ns: stream.ns,
    command,
    planSummary: 'COLLSCAN',
    cursor: cursorInfo(stream, op.opid),
    numYields: 0,
    waitingForLock: false,
  };
}

export function isCurrentOpPipeline(pipeline: Document[]): boolean {
  return pipeline[0] !== null && typeof pipeline[0] === 'object' && '$currentOp' in pipeline[0];
}

/** An aggregate starting with `$currentOp`: its documents through the stages after it. */
export function aggregateCurrentOp(
  request: { db: string; coll: string | null; pipeline: Document[]; variables: Document | undefined },
  streams: ChangeStreams,
  host: string,
  idleSessions: IdleSessionLister,
): Document[] {
  const [stage, ...rest] = request.pipeline;
  const source = currentOpStage(request.db, request.coll === null, stage!, streams, host, idleSessions);
  return aggregateDocuments(source, rest, {
    now: new Date(),
    clusterTime: new Timestamp({ t: 0, i: 0 }),
    variables: request.variables,
    resolve: () => [],
  });
}
