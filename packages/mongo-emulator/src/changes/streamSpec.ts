// Parsing an aggregate whose first stage is `$changeStream`: its options, what it watches, where
// it starts and the stages after it, with mongod's error codes and messages.
import { Timestamp } from 'bson';
import type { Document } from '../engine/types.ts';
import { CommandError } from '../errors.ts';
import { bsonTypeName } from '../engine/bsonTypeName.ts';
import { decodeToken, type ResumeTokenData } from './resumeToken.ts';

export type StreamScope =
  | { kind: 'collection'; db: string; coll: string }
  | { kind: 'database'; db: string }
  | { kind: 'cluster' };

export type StreamStart =
  | { kind: 'now' }
  | { kind: 'resumeAfter'; token: ResumeTokenData }
  | { kind: 'startAfter'; token: ResumeTokenData }
  | { kind: 'startAtOperationTime'; clusterTime: Timestamp };

export type FullDocumentMode = 'default' | 'updateLookup' | 'whenAvailable' | 'required';
export type FullDocumentBeforeChangeMode = 'off' | 'whenAvailable' | 'required';

export interface ChangeStreamSpec {
  scope: StreamScope;
  start: StreamStart;
  fullDocument: FullDocumentMode;
  fullDocumentBeforeChange: FullDocumentBeforeChangeMode;
  /** 6.0+: DDL events (create, createIndexes, dropIndexes, modify), collectionUUID, operationDescription. */
  showExpandedEvents: boolean;
  /** The stages after `$changeStream`, applied to each event. */
  pipeline: Document[];
}

const FULL_DOCUMENT_MODES: ReadonlySet<string> = new Set(['default', 'updateLookup', 'whenAvailable', 'required']);
const FULL_DOCUMENT_BEFORE_CHANGE_MODES: ReadonlySet<string> = new Set(['off', 'whenAvailable', 'required']);

const OPTIONS = new Set([
  'resumeAfter',
  'startAfter',
  'startAtOperationTime',
  'fullDocument',
  'fullDocumentBeforeChange',
  'allChangesForCluster',
  'showExpandedEvents',
  'showSystemEvents',
  'showRawUpdateDescription',
]);

/** Stages mongod allows after `$changeStream` (each keeps one event one document). */
const EVENT_STAGES = new Set([
  '$match',
  '$project',
  '$addFields',
  '$set',
  '$unset',
  '$replaceRoot',
  '$replaceWith',
  '$redact',
]);

/** Stages mongod knows but refuses in a change stream (others are unrecognized). */
const OTHER_KNOWN_STAGES = new Set([
  '$sort',
  '$limit',
  '$skip',
  '$group',
  '$count',
  '$lookup',
  '$unwind',
  '$facet',
  '$sortByCount',
  '$bucket',
  '$bucketAuto',
  '$sample',
  '$documents',
  '$unionWith',
  '$graphLookup',
  '$setWindowFields',
  '$densify',
  '$fill',
  '$out',
  '$merge',
  '$geoNear',
  '$indexStats',
  '$collStats',
  '$currentOp',
  '$listSessions',
  '$planCacheStats',
  '$changeStreamSplitLargeEvent',
]);

export function isChangeStreamPipeline(pipeline: Document[]): boolean {
  return pipeline.some((stage) => stage !== null && typeof stage === 'object' && '$changeStream' in stage);
}

/** Reads the command; `coll` is null for `aggregate: 1`. */
export function parseChangeStream(db: string, coll: string | null, pipeline: Document[]): ChangeStreamSpec {
  const [first, ...rest] = pipeline;
  if (!first || !('$changeStream' in first)) {
    throw new CommandError('Location40602', '$changeStream is only valid as the first stage in a pipeline');
  }
  const options = first.$changeStream;
  if (
    options === null ||
    typeof options !== 'object' ||
    Array.isArray(options) ||
    (options as { _bsontype?: string })._bsontype
  ) {
    throw new CommandError('Location50808', '$changeStream stage expects a document as argument');
  }
  const spec = options as Document;
  for (const field of Object.keys(spec)) {
    if (!OPTIONS.has(field))
      throw new CommandError('Location40415', `BSON field '$changeStream.${field}' is an unknown field.`);
  }
  checkUserStages(rest);
  return {
    scope: scopeOf(db, coll, spec.allChangesForCluster === true),
    start: startOf(spec),
    fullDocument: enumOption(spec, 'fullDocument', FULL_DOCUMENT_MODES, 'default') as FullDocumentMode,
    fullDocumentBeforeChange: enumOption(
      spec,
      'fullDocumentBeforeChange',
      FULL_DOCUMENT_BEFORE_CHANGE_MODES,
      'off',
    ) as FullDocumentBeforeChangeMode,
    showExpandedEvents: booleanOption(spec, 'showExpandedEvents'),
    pipeline: rest,
  };
}

function checkUserStages(stages: Document[]): void {
  for (const stage of stages) {
    const name = Object.keys(stage ?? {})[0] ?? '';
    if (name === '$changeStream')
      throw new CommandError('Location40602', '$changeStream is only valid as the first stage in a pipeline');
    if (EVENT_STAGES.has(name)) continue;
    if (OTHER_KNOWN_STAGES.has(name))
      throw new CommandError('IllegalOperation', `${name} is not permitted in a $changeStream pipeline`);
    throw new CommandError('Location40324', `Unrecognized pipeline stage name: '${name}'`);
  }
}

function scopeOf(db: string, coll: string | null, allChangesForCluster: boolean): StreamScope {
  if (allChangesForCluster && (db !== 'admin' || coll !== null)) {
    const ns = coll === null ? `${db}.$cmd.aggregate` : `${db}.${coll}`;
    throw new CommandError(
      'InvalidOptions',
      `A $changeStream with 'allChangesForCluster:true' may only be opened on the 'admin' database, and with no collection name; found ${ns}`,
    );
  }
  if (db === 'admin') {
    if (allChangesForCluster) return { kind: 'cluster' };
    throw new CommandError('InvalidNamespace', '$changeStream may not be opened on the internal admin database');
  }
  if (db === 'local' || db === 'config')
    throw new CommandError('InvalidNamespace', `$changeStream may not be opened on the internal ${db} database`);
  if (coll === null) return { kind: 'database', db };
  if (coll.startsWith('system.'))
    throw new CommandError(
      'InvalidNamespace',
      `$changeStream may not be opened on the internal ${db}.${coll} collection`,
    );
  return { kind: 'collection', db, coll };
}

function startOf(spec: Document): StreamStart {
  if (spec.resumeAfter !== undefined && spec.startAfter !== undefined) {
    throw new CommandError(
      'Location50865',
      "Do not specify both 'resumeAfter' and 'startAfter' in a $changeStream stage",
    );
  }
  const tokenField =
    spec.resumeAfter !== undefined ? 'resumeAfter' : spec.startAfter !== undefined ? 'startAfter' : undefined;
  if (tokenField && spec.startAtOperationTime !== undefined) {
    throw new CommandError('Location40674', 'Only one type of resume option is allowed, but multiple were found');
  }
  if (tokenField) {
    const token = decodeToken(spec[tokenField]);
    if (tokenField === 'resumeAfter' && token.fromInvalidate) {
      throw new CommandError(
        'InvalidResumeToken',
        "Attempting to resume a change stream using 'resumeAfter' is not allowed from an invalidate notification",
      );
    }
    return { kind: tokenField, token };
  }
  if (spec.startAtOperationTime !== undefined) {
    if (!(spec.startAtOperationTime instanceof Timestamp)) {
      throw new CommandError(
        'TypeMismatch',
        `BSON field '$changeStream.startAtOperationTime' is the wrong type '${bsonTypeName(spec.startAtOperationTime)}', expected type 'timestamp'`,
      );
    }
    return { kind: 'startAtOperationTime', clusterTime: spec.startAtOperationTime };
  }
  return { kind: 'now' };
}

/** A string option with a fixed set of values, as mongod's IDL enums check them. */
function enumOption(spec: Document, field: string, values: ReadonlySet<string>, fallback: string): string {
  const value = spec[field];
  if (value === undefined) return fallback;
  if (typeof value !== 'string') {
    throw new CommandError(
      'TypeMismatch',
      `BSON field '$changeStream.${field}' is the wrong type '${bsonTypeName(value)}', expected type 'string'`,
    );
  }
  if (!values.has(value))
    throw new CommandError(
      'BadValue',
      `Enumeration value '${value}' for field '$changeStream.${field}' is not a valid value.`,
    );
  return value;
}

function booleanOption(spec: Document, field: string): boolean {
  const value = spec[field];
  if (value === undefined) return false;
  if (typeof value !== 'boolean') {
    throw new CommandError(
      'TypeMismatch',
      `BSON field '$changeStream.${field}' is the wrong type '${bsonTypeName(value)}', expected type 'bool'`,
    );
  }
  return value;
}
