// Oplog entries as change events, field for field in mongod 7.0's order
// (change_stream_event_transform.cpp, document_source_change_stream_check_invalidate.cpp).
import type { Document } from '../engine/types.ts';
import { postImage, preImage } from './images.ts';
import type { ExpandedEventType, OplogEntry, OplogOperation } from './Oplog.ts';
import { decodeToken, encodeToken } from './resumeToken.ts';
import type { ChangeStreamSpec, StreamScope } from './streamSpec.ts';

/** What shapes an event beyond its entry. */
export type EventOptions = Pick<ChangeStreamSpec, 'fullDocument' | 'fullDocumentBeforeChange' | 'showExpandedEvents'>;

const EXPANDED_EVENTS: ReadonlySet<string> = new Set<ExpandedEventType>([
  'create',
  'createIndexes',
  'dropIndexes',
  'modify',
]);

/** Databases a whole-cluster stream never reports. */
const INTERNAL_DATABASES = new Set(['admin', 'config', 'local']);

/** Looks a document up by its key for `fullDocument: 'updateLookup'`; null when it is gone. */
export type DocumentLookup = (db: string, coll: string, documentKey: Document) => Document | null;

/** Whether the stream reports this entry at all. */
export function inScope(entry: OplogEntry, spec: EventOptions & { scope: StreamScope }): boolean {
  const { operation } = entry;
  if (operation.op === 'noop') return false;
  if (EXPANDED_EVENTS.has(operation.op) && !spec.showExpandedEvents) return false;
  if ('view' in operation && (!spec.showExpandedEvents || spec.scope.kind === 'collection')) return false;
  const { scope } = spec;
  const db = operation.op === 'crud' ? operation.change.db : operation.db;
  const coll =
    operation.op === 'crud' ? operation.change.coll : operation.op === 'dropDatabase' ? undefined : operation.coll;
  switch (scope.kind) {
    case 'collection':
      if (operation.op === 'dropDatabase') return db === scope.db;
      if (operation.op === 'rename' && operation.to.db === scope.db && operation.to.coll === scope.coll) return true;
      return db === scope.db && coll === scope.coll;
    case 'database':
      return db === scope.db && !coll?.startsWith('system.');
    case 'cluster':
      return !INTERNAL_DATABASES.has(db) && !coll?.startsWith('system.');
  }
}

/** Whether the entry ends the stream with an `invalidate` after its own event. */
export function invalidates(entry: OplogEntry, scope: StreamScope): boolean {
  const { op } = entry.operation;
  if (scope.kind === 'collection') return op === 'drop' || op === 'rename' || op === 'dropDatabase';
  return scope.kind === 'database' && op === 'dropDatabase';
}

export function invalidateToken(entry: OplogEntry): Document {
  return encodeToken({ ...decodeToken(entry.token), fromInvalidate: true });
}

export function buildInvalidate(entry: OplogEntry): Document {
  return { _id: invalidateToken(entry), operationType: 'invalidate', clusterTime: entry.ts, wallTime: entry.wallTime };
}

/** Builds the event of an in-scope entry; throws NoMatchingDocument when a required image is missing. */
export function buildEvent(entry: OplogEntry, options: EventOptions, lookup: DocumentLookup): Document {
  const { operation } = entry;
  if (operation.op === 'noop') throw new Error('noop oplog entries are never events');
  const event: Document = {};
  // mongod adds `to` (renames) and the transaction's ids before the resume token.
  if (operation.op === 'rename') event.to = { ...operation.to };
  if (entry.txn) {
    event.txnNumber = entry.txn.txnNumber;
    event.lsid = entry.txn.lsid;
  }
  event._id = entry.token;
  event.operationType = operation.op === 'crud' ? operation.change.op : operation.op;
  event.clusterTime = entry.ts;
  if (options.showExpandedEvents && operation.op !== 'dropDatabase' && operation.collectionUUID)
    event.collectionUUID = operation.collectionUUID;
  event.wallTime = entry.wallTime;
  if (operation.op === 'crud') return Object.assign(event, crudFields(entry, operation, options, lookup));
  event.ns = operation.op === 'dropDatabase' ? { db: operation.db } : { db: operation.db, coll: operation.coll };
  if (options.showExpandedEvents) {
    const description = operationDescription(operation);
    if (description) event.operationDescription = description;
  }
  if (operation.op === 'modify' && operation.stateBeforeChange) event.stateBeforeChange = operation.stateBeforeChange;
  return event;
}

type CrudOperation = Extract<OplogOperation, { op: 'crud' }>;

/** A document change's fields after wallTime, in mongod's order (the transform's, then the image stages'). */
function crudFields(
  entry: OplogEntry,
  operation: CrudOperation,
  options: EventOptions,
  lookup: DocumentLookup,
): Document {
  const { change } = operation;
  const fields: Document = {};
  if (change.op === 'insert' || change.op === 'replace') fields.fullDocument = change.fullDocument;
  if (change.op === 'update') fields.fullDocument = undefined; // keeps the slot an image fills below
  fields.ns = { db: change.db, coll: change.coll };
  fields.documentKey = change.documentKey;
  if (change.op === 'update') {
    // disambiguatedPaths only for streams with showExpandedEvents (change_stream_event_transform.cpp).
    const { disambiguatedPaths, ...description } = change.updateDescription;
    fields.updateDescription = options.showExpandedEvents ? { ...description, disambiguatedPaths } : description;
  }
  if (change.op !== 'insert') {
    const before = preImage(entry, operation, change, options.fullDocumentBeforeChange);
    if (before !== undefined) fields.fullDocumentBeforeChange = before;
  }
  if (change.op === 'update') {
    if (options.fullDocument === 'updateLookup')
      fields.fullDocument = lookup(change.db, change.coll, change.documentKey);
    else if (options.fullDocument !== 'default')
      fields.fullDocument = postImage(entry, operation, change, options.fullDocument);
    else delete fields.fullDocument;
  }
  return fields;
}

/** showExpandedEvents' description of a namespace command (mongod: the oplog entry's `o` less its name). */
function operationDescription(
  operation: Exclude<OplogOperation, CrudOperation | { op: 'noop' }>,
): Document | undefined {
  switch (operation.op) {
    case 'rename':
      return { to: { ...operation.to }, ...(operation.dropTarget ? { dropTarget: operation.dropTarget } : {}) };
    case 'drop':
    case 'dropDatabase':
      return undefined;
    default:
      return operation.operationDescription;
  }
}
