// Oplog entries as change events, field for field in mongod 7.0's order
// (change_stream_event_transform.cpp, document_source_change_stream_check_invalidate.cpp).
import type { Document } from '../engine/types.ts';
import type { OplogEntry } from './Oplog.ts';
import { decodeToken, encodeToken } from './resumeToken.ts';
import type { StreamScope } from './streamSpec.ts';

/** Databases a whole-cluster stream never reports. */
const INTERNAL_DATABASES = new Set(['admin', 'config', 'local']);

/** Looks a document up by its key for `fullDocument: 'updateLookup'`; null when it is gone. */
export type DocumentLookup = (db: string, coll: string, documentKey: Document) => Document | null;

/** Whether the stream reports this entry at all. */
export function inScope(entry: OplogEntry, scope: StreamScope): boolean {
  const { operation } = entry;
  if (operation.op === 'noop') return false;
  const db = operation.op === 'crud' ? operation.change.db : operation.db;
  const coll = operation.op === 'crud' ? operation.change.coll : operation.op === 'dropDatabase' ? undefined : operation.coll;
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

export function buildEvent(entry: OplogEntry, fullDocument: 'default' | 'updateLookup', lookup: DocumentLookup): Document {
  const { operation } = entry;
  const event: Document = {};
  if (operation.op === 'rename') event.to = { ...operation.to };
  if (entry.txn) {
    event.txnNumber = entry.txn.txnNumber;
    event.lsid = entry.txn.lsid;
  }
  event._id = entry.token;
  switch (operation.op) {
    case 'crud': {
      const { change } = operation;
      Object.assign(event, { operationType: change.op, clusterTime: entry.ts, wallTime: entry.wallTime });
      if (change.op === 'insert' || change.op === 'replace') event.fullDocument = change.fullDocument;
      event.ns = { db: change.db, coll: change.coll };
      event.documentKey = change.documentKey;
      if (change.op === 'update') {
        event.updateDescription = change.updateDescription;
        if (fullDocument === 'updateLookup') event.fullDocument = lookup(change.db, change.coll, change.documentKey);
      }
      return event;
    }
    case 'drop':
    case 'rename':
      return Object.assign(event, { operationType: operation.op, clusterTime: entry.ts, wallTime: entry.wallTime, ns: { db: operation.db, coll: operation.coll } });
    case 'dropDatabase':
      return Object.assign(event, { operationType: 'dropDatabase', clusterTime: entry.ts, wallTime: entry.wallTime, ns: { db: operation.db } });
    case 'noop':
      throw new Error('noop oplog entries are never events');
  }
}
