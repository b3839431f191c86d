// Applies one document of the sync source's local.oplog.rs to this member, as mongod's oplog
// applier does (src/mongo/db/repl/oplog_applier_utils.cpp, applyOplogEntryOrGroupedInserts; the
// per-op rules in src/mongo/db/repl/oplog.cpp, applyOperation_inlock and applyCommand_inlock).
// Every write goes through the engine, so this member's change events, indexes and write history
// follow; the entry itself is logged verbatim (same ts, t, wall, session fields), so optimes and
// resume tokens are the same on every member that holds it.
//
// `idempotent` is initial sync's mode (oplog.cpp's kInitialSync): the clone may already hold a
// write the tail replays, so an update or delete of a missing document, or a command on a missing
// namespace, is skipped. An insert of an existing _id replaces it in either mode.
import type { Timestamp } from 'bson';
import type { Catalog } from '../engine/catalog.ts';
import { isPlainObject } from '../engine/updatePath.ts';
import type { Document } from '../engine/types.ts';
import type { ChangeStreams } from '../changes/ChangeStreams.ts';
import type { SessionRegistry } from '../session/SessionRegistry.ts';
import type { TransactionCoordinator } from '../txn/TransactionCoordinator.ts';

export interface ApplyTarget {
  catalog: Catalog;
  changeStreams: ChangeStreams;
  sessions: SessionRegistry;
  transactions: TransactionCoordinator;
}

/** Applies one oplog document; throws when the entry cannot be applied (the applier stops, as mongod's fasserts). */
export function applyEntry(target: ApplyTarget, entry: Document, idempotent: boolean): void {
  const txn =
    entry.op === 'c' &&
    isPlainObject(entry.o) &&
    Array.isArray((entry.o as Document).applyOps) &&
    entry.lsid !== undefined
      ? { lsid: entry.lsid as Document, txnNumber: BigInt(entry.txnNumber as bigint) }
      : undefined;
  target.changeStreams.replicate(entry, txn, () => {
    const result = applyOperation(target.catalog, entry, idempotent);
    if (entry.lsid !== undefined && entry.stmtId !== undefined && txn === undefined)
      recordRetryableWrite(target.sessions, entry, result);
  });
  if (txn) {
    const session = target.sessions.touch(txn.lsid);
    if (session) target.transactions.recordReplicatedCommit(session, txn.lsid, txn.txnNumber);
  }
}

type OpResult = { kind: 'insert' | 'update' | 'delete' | 'command' | 'skipped'; after?: Document | null };

function applyOperation(catalog: Catalog, entry: Document, idempotent: boolean): OpResult {
  const op = entry.op as string;
  const ns = String(entry.ns ?? '');
  const dot = ns.indexOf('.');
  const db = ns.slice(0, dot);
  const coll = ns.slice(dot + 1);
  const o = entry.o as Document;
  switch (op) {
    case 'n':
      return { kind: 'command' };
    case 'i': {
      if (coll === 'system.views') {
        const { _id, viewOn, pipeline, ...rest } = o;
        const name = String(_id).slice(db.length + 1);
        if (idempotent && catalog.view(db, name)) return { kind: 'skipped' };
        catalog.createView(db, name, {
          viewOn: String(viewOn),
          pipeline: (pipeline as Document[]) ?? [],
          ...rest,
        } as never);
        return { kind: 'command' };
      }
      const collection = catalog.getOrCreateCollection(db, coll);
      const key = (entry.o2 as Document | undefined) ?? { _id: o._id };
      // An insert of an _id this member holds replaces it: in initial sync the clone may hold it,
      // and the emulator's $out logs the new contents' inserts without the old ones' removal.
      if (collection.find(key, { limit: 1 }).length > 0) {
        collection.withoutValidation(() => collection.update({ q: key, u: o }));
        return { kind: 'insert', after: o };
      }
      collection.withoutValidation(() => collection.insertOne(o));
      return { kind: 'insert', after: o };
    }
    case 'u': {
      const collection = catalog.getCollection(db, coll);
      const key = entry.o2 as Document;
      const current = collection?.find(key, { limit: 1 })[0];
      if (!collection || !current) {
        if (idempotent) return { kind: 'skipped' };
        throw new Error(`cannot apply an update to a missing document of ${ns}: ${JSON.stringify(key)}`);
      }
      collection.withoutValidation(() => collection.update({ q: key, u: updateFor(o, current) }));
      return { kind: 'update', after: collection.find(key, { limit: 1 })[0] ?? null };
    }
    case 'd': {
      if (coll === 'system.views') {
        catalog.dropCollection(db, String(o._id).slice(db.length + 1));
        return { kind: 'command' };
      }
      const collection = catalog.getCollection(db, coll);
      if (!collection) {
        if (idempotent) return { kind: 'skipped' };
        throw new Error(`cannot apply a delete to missing collection ${ns}`);
      }
      collection.delete({ q: o, limit: 1 });
      return { kind: 'delete' };
    }
    case 'c':
      applyCommand(catalog, db, o, entry, idempotent);
      return { kind: 'command' };
    default:
      throw new Error(`unknown oplog op '${op}'`);
  }
}

function applyCommand(catalog: Catalog, db: string, o: Document, entry: Document, idempotent: boolean): void {
  const name = Object.keys(o)[0];
  const skipMissing = <T>(collection: T | undefined, what: string): T | undefined => {
    if (collection === undefined && !idempotent) throw new Error(`cannot apply ${what}: namespace missing`);
    return collection;
  };
  switch (name) {
    case 'applyOps':
      for (const inner of o.applyOps as Document[]) applyOperation(catalog, inner, idempotent);
      return;
    case 'create': {
      const { create, ...options } = o;
      // Already there: a transaction's insert created it when this member applied the applyOps
      // that the primary logged before the create entry of its implicit creation.
      if (catalog.getCollection(db, String(create))) return;
      if (options.viewOn !== undefined) {
        catalog.createView(db, String(create), {
          viewOn: String(options.viewOn),
          pipeline: (options.pipeline as Document[]) ?? [],
        } as never);
        return;
      }
      delete options.idIndex;
      catalog.createCollection(db, String(create), options);
      return;
    }
    case 'drop':
      catalog.dropCollection(db, String(o.drop));
      return;
    case 'dropDatabase':
      catalog.dropDatabase(db);
      return;
    case 'renameCollection': {
      const [fromDb, ...fromRest] = String(o.renameCollection).split('.');
      const [toDb, ...toRest] = String(o.to).split('.');
      if (idempotent && !catalog.getCollection(fromDb!, fromRest.join('.'))) return;
      catalog.renameCollection(
        { db: fromDb!, coll: fromRest.join('.') },
        { db: toDb!, coll: toRest.join('.') },
        { dropTarget: o.dropTarget !== undefined },
      );
      return;
    }
    case 'createIndexes': {
      const { createIndexes, ...spec } = o;
      skipMissing(catalog.getOrCreateCollection(db, String(createIndexes)), 'createIndexes')?.createIndexes([
        spec as never,
      ]);
      return;
    }
    case 'commitIndexBuild':
      catalog.getOrCreateCollection(db, String(o.commitIndexBuild)).createIndexes(o.indexes as never[]);
      return;
    case 'dropIndexes': {
      const collection = skipMissing(catalog.getCollection(db, String(o.dropIndexes)), 'dropIndexes');
      if (collection?.listIndexes().some((index) => index.name === o.index))
        collection.dropIndexes(String(o.index));
      return;
    }
    case 'collMod': {
      const { collMod, ...changes } = o;
      skipMissing(catalog.getCollection(db, String(collMod)), 'collMod')?.setOptions(changes);
      return;
    }
    default:
      throw new Error(`cannot apply oplog command '${String(name)}' (${JSON.stringify(entry.ns)})`);
  }
}

/**
 * The update that makes the logged change: a `$v: 2` diff as operators on its paths; a logged
 * replacement, or a diff naming a `$`-prefixed or dotted field (which update operators cannot
 * address), as a pipeline replacing the document with its new value taken literally.
 */
function updateFor(o: Document, current: Document): Document | Document[] {
  if (o.$v === undefined) return [{ $replaceWith: { $literal: o } }];
  const diff = o.diff as Document;
  if (namesUnaddressableField(diff)) return [{ $replaceWith: { $literal: applyDocumentDiff(diff, current) } }];
  return diffToOperators(diff, current);
}

function namesUnaddressableField(diff: Document): boolean {
  for (const [key, section] of Object.entries(diff)) {
    if (key === 'a' || key === 'l') continue;
    if (key === 'u' || key === 'i' || key === 'd') {
      if (Object.keys(section as Document).some((field) => field.startsWith('$') || field.includes('.'))) return true;
    } else if (key.startsWith('s')) {
      const field = key.slice(1);
      if (field.startsWith('$') || field.includes('.') || namesUnaddressableField(section as Document)) return true;
    }
  }
  return false;
}

/**
 * A `$v: 2` diff as update operators on paths ($set, $unset), so the member's own change event
 * is an update of the same fields. An array that shrank (`l`) is set whole: its elements and
 * their new size come from applying the diff to the current value.
 */
export function diffToOperators(diff: Document, current: Document): Document {
  const $set: Document = {};
  const $unset: Document = {};
  walkDocumentDiff(diff, [], current, $set, $unset);
  const update: Document = {};
  if (Object.keys($set).length > 0) update.$set = $set;
  if (Object.keys($unset).length > 0) update.$unset = $unset;
  // An update that changed nothing still logs; an empty $set is refused, so set _id to itself.
  if (Object.keys(update).length === 0) update.$set = { _id: current._id };
  return update;
}

function walkDocumentDiff(diff: Document, path: string[], value: unknown, $set: Document, $unset: Document): void {
  for (const [key, section] of Object.entries(diff)) {
    if (key === 'd') for (const field of Object.keys(section as Document)) $unset[[...path, field].join('.')] = '';
    else if (key === 'u' || key === 'i')
      for (const [field, v] of Object.entries(section as Document)) $set[[...path, field].join('.')] = v;
    else if (key.startsWith('s')) {
      const field = key.slice(1);
      const sub = section as Document;
      const inner = isPlainObject(value) ? (value as Document)[field] : undefined;
      if (sub.a === true) walkArrayDiff(sub, [...path, field], inner, $set, $unset);
      else walkDocumentDiff(sub, [...path, field], inner, $set, $unset);
    }
  }
}

function walkArrayDiff(diff: Document, path: string[], value: unknown, $set: Document, $unset: Document): void {
  if (diff.l !== undefined) {
    $set[path.join('.')] = applyArrayDiff(diff, Array.isArray(value) ? value : []);
    return;
  }
  for (const [key, section] of Object.entries(diff)) {
    if (key === 'a') continue;
    const index = Number(key.slice(1));
    if (key.startsWith('u')) $set[[...path, String(index)].join('.')] = section;
    else if (key.startsWith('s')) {
      const sub = section as Document;
      const inner = Array.isArray(value) ? value[index] : undefined;
      if (sub.a === true) walkArrayDiff(sub, [...path, String(index)], inner, $set, $unset);
      else walkDocumentDiff(sub, [...path, String(index)], inner, $set, $unset);
    }
  }
}

/** document_diff_applier.cpp's rules, on plain values: the new value a diff makes of `value`. */
function applyArrayDiff(diff: Document, value: unknown[]): unknown[] {
  const out = value.slice(0, diff.l === undefined ? value.length : Number(diff.l));
  for (const [key, section] of Object.entries(diff)) {
    if (key === 'a' || key === 'l') continue;
    const index = Number(key.slice(1));
    if (key.startsWith('u')) out[index] = section;
    else {
      const sub = section as Document;
      out[index] =
        sub.a === true
          ? applyArrayDiff(sub, Array.isArray(out[index]) ? (out[index] as unknown[]) : [])
          : applyDocumentDiff(sub, (out[index] as Document) ?? {});
    }
  }
  return out;
}

function applyDocumentDiff(diff: Document, value: Document): Document {
  const out: Document = { ...value };
  for (const [key, section] of Object.entries(diff)) {
    if (key === 'd') for (const field of Object.keys(section as Document)) delete out[field];
    else if (key === 'u' || key === 'i') Object.assign(out, section as Document);
    else if (key.startsWith('s')) {
      const field = key.slice(1);
      const sub = section as Document;
      out[field] =
        sub.a === true
          ? applyArrayDiff(sub, Array.isArray(out[field]) ? (out[field] as unknown[]) : [])
          : applyDocumentDiff(sub, (out[field] as Document) ?? {});
    }
  }
  return out;
}

/**
 * The retryable-write record a replicated statement leaves (mongod's config.transactions, written
 * by the applier in the same batch), so a retry on this member once it is primary answers the
 * first result instead of applying the statement again. The result is the one each command
 * reports for one applied statement (insert n, update n/nModified, findAndModify's reply).
 */
function recordRetryableWrite(sessions: SessionRegistry, entry: Document, result: OpResult): void {
  const session = sessions.touch(entry.lsid);
  if (!session) return;
  const txnNumber = BigInt(entry.txnNumber as bigint);
  if (txnNumber < session.txnNumber) return;
  if (txnNumber > session.txnNumber) {
    session.txnNumber = txnNumber;
    session.executed.clear();
  }
  const updated = result.kind === 'update';
  const lastErrorObject: Document = result.kind === 'delete' ? { n: 1 } : { n: 1, updatedExisting: updated };
  session.executed.set(Number(entry.stmtId), {
    n: 1,
    nModified: updated ? 1 : 0,
    lastErrorObject,
    value: result.after ?? null,
  });
}

export function opTimeOf(entry: Document): { ts: Timestamp; t: bigint } {
  return { ts: entry.ts as Timestamp, t: BigInt(entry.t as bigint) };
}
