// The documents of local.oplog.rs, in mongod 7.0's format and field order (src/mongo/db/repl/
// oplog_entry.idl: the session fields lsid/txnNumber first, then op, ns, ui, o, o2, stmtId, then
// ts, t, v, wall, prevOpTime). They hold references to the stored versions they log (immutable),
// so formatting one copies nothing; readers get copies (find clones what it returns).
import { Timestamp } from 'bson';
import { transientSize } from '../engine/documentSize.ts';
import type { Document } from '../engine/types.ts';
import type { OplogOperation } from './Oplog.ts';

/** mongod's term: one election, never stepped down. */
export const TERM = 1n;
/** The oplog entry format version mongod 7.0 writes. */
const OPLOG_VERSION = 2n;
/** prevOpTime of a session's first write under a txnNumber (repl::OpTime's null optime). */
export const NULL_OPTIME: Document = Object.freeze({ ts: new Timestamp({ t: 0, i: 0 }), t: -1n });
/**
 * A transaction's operations go into one applyOps entry until the next would take it past
 * BSONObjMaxUserSize; then the entries before the last are `partialTxn` and the last carries the
 * operation `count` (src/mongo/db/transaction/transaction_operations.cpp, getApplyOpsInfo).
 */
export const APPLY_OPS_MAX_BYTES = 16 * 1024 * 1024;

/** The session fields of a retryable write or a transaction. */
export interface SessionFields {
  /** The logical session itself: its previous write's optime (prevOpTime) is kept against it. */
  owner: object;
  lsid: Document;
  txnNumber: bigint;
  /** Retryable writes only: the statement's id. */
  stmtId?: number;
}

/** One write's operation as an applyOps element and as the body of its own entry: op, ns, ui, o, o2 (into `into`). */
export function operationFields(operation: OplogOperation, into: Document = {}): Document {
  if (operation.op === 'crud') {
    const { change, collectionUUID } = operation;
    into.op = change.op === 'insert' ? 'i' : change.op === 'delete' ? 'd' : 'u';
    into.ns = `${change.db}.${change.coll}`;
    if (collectionUUID) into.ui = collectionUUID;
    if (change.op === 'delete') {
      into.o = change.documentKey;
      return into;
    }
    into.o = change.op === 'update' ? { $v: 2, diff: change.delta } : change.fullDocument;
    into.o2 = change.documentKey;
    return into;
  }
  return Object.assign(into, commandFields(operation));
}

function commandFields(operation: Exclude<OplogOperation, { op: 'crud' }>): Document {
  if ('view' in operation) return viewDefinitionFields(operation);
  switch (operation.op) {
    case 'noop':
      return { op: 'n', ns: '', o: { msg: operation.msg } };
    case 'dropDatabase':
      return { op: 'c', ns: `${operation.db}.$cmd`, o: { dropDatabase: 1 } };
    case 'drop':
      return { op: 'c', ns: `${operation.db}.$cmd`, ...uuid(operation.collectionUUID), o: { drop: operation.coll } };
    case 'rename':
      return {
        op: 'c',
        ns: `${operation.db}.$cmd`,
        ...uuid(operation.collectionUUID),
        o: {
          renameCollection: `${operation.db}.${operation.coll}`,
          to: `${operation.to.db}.${operation.to.coll}`,
          stayTemp: false,
          ...(operation.dropTarget ? { dropTarget: operation.dropTarget } : {}),
        },
      };
    case 'create':
      return {
        op: 'c',
        ns: `${operation.db}.$cmd`,
        ui: operation.collectionUUID,
        o: { create: operation.coll, ...operation.operationDescription },
      };
    case 'createIndexes': {
      // One entry per index (a direct build); a two-phase build's commitIndexBuild lists them all.
      const indexes = operation.operationDescription.indexes as Document[];
      const o =
        indexes.length === 1
          ? { createIndexes: operation.coll, ...indexes[0] }
          : { commitIndexBuild: operation.coll, indexes };
      return { op: 'c', ns: `${operation.db}.$cmd`, ui: operation.collectionUUID, o };
    }
    case 'dropIndexes': {
      const [spec] = operation.operationDescription.indexes as Document[];
      return {
        op: 'c',
        ns: `${operation.db}.$cmd`,
        ui: operation.collectionUUID,
        o: { dropIndexes: operation.coll, index: spec!.name },
        o2: spec,
      };
    }
    case 'modify':
      return {
        op: 'c',
        ns: `${operation.db}.$cmd`,
        ui: operation.collectionUUID,
        o: { collMod: operation.coll, ...operation.operationDescription },
        ...(operation.stateBeforeChange
          ? { o2: { collectionOptions_old: operation.stateBeforeChange.collectionOptions } }
          : {}),
      };
  }
  throw new Error(`no oplog format for ${(operation as { op: string }).op}`);
}

/**
 * A view is a document of `<db>.system.views` (`_id` the view's namespace), so mongod logs its
 * creation as an insert there and its drop as a delete, and change streams read those entries back
 * as the view's create and drop events (src/mongo/db/pipeline/change_stream_filter_helpers.cpp,
 * buildViewDefinitionEventFilter; src/mongo/db/views/durable_view_catalog.cpp writes them).
 */
function viewDefinitionFields(operation: Extract<OplogOperation, { view: true }>): Document {
  const ns = `${operation.db}.system.views`;
  const _id = `${operation.db}.${operation.coll}`;
  if (operation.op === 'drop') return { op: 'd', ns, o: { _id } };
  return { op: 'i', ns, o: { _id, ...operation.operationDescription }, o2: { _id } };
}

function uuid(value: unknown): Document {
  return value ? { ui: value } : {};
}

/** The entry of one write outside a transaction (a retryable one carries its session fields). */
export function formatEntry(
  operation: OplogOperation,
  at: { ts: Timestamp; wallTime: Date },
  session?: SessionFields,
  prevOpTime?: Document,
  term: bigint = TERM,
): Document {
  // Built in place, field by field in mongod's order: every write makes one.
  const entry: Document = session ? { lsid: session.lsid, txnNumber: session.txnNumber } : {};
  operationFields(operation, entry);
  if (session) entry.stmtId = session.stmtId ?? 0;
  entry.ts = at.ts;
  entry.t = term;
  entry.v = OPLOG_VERSION;
  entry.wall = at.wallTime;
  if (session) entry.prevOpTime = prevOpTime ?? NULL_OPTIME;
  return entry;
}

/**
 * A committed transaction's entries: its operations packed into applyOps commands (`admin.$cmd`),
 * as many per entry as fit under APPLY_OPS_MAX_BYTES, chained by prevOpTime.
 */
export function formatTransaction(
  operations: OplogOperation[],
  times: () => { ts: Timestamp; wallTime: Date },
  session: Pick<SessionFields, 'lsid' | 'txnNumber'>,
  term: bigint = TERM,
): Document[] {
  const groups: Document[][] = [[]];
  let groupBytes = 0;
  for (const operation of operations) {
    const fields = operationFields(operation);
    const bytes = transientSize(fields);
    if (groups[groups.length - 1]!.length > 0 && groupBytes + bytes > APPLY_OPS_MAX_BYTES) {
      groups.push([]);
      groupBytes = 0;
    }
    groups[groups.length - 1]!.push(fields);
    groupBytes += bytes;
  }
  const entries: Document[] = [];
  let prevOpTime = NULL_OPTIME;
  groups.forEach((applyOps, index) => {
    const last = index === groups.length - 1;
    const o: Document = { applyOps };
    if (groups.length > 1) {
      if (last) o.count = operations.length;
      else o.partialTxn = true;
    }
    const at = times();
    entries.push({
      lsid: session.lsid,
      txnNumber: session.txnNumber,
      op: 'c',
      ns: 'admin.$cmd',
      o,
      ts: at.ts,
      t: term,
      v: OPLOG_VERSION,
      wall: at.wallTime,
      prevOpTime,
    });
    prevOpTime = { ts: at.ts, t: term };
  });
  return entries;
}
