// The checkpoint file (checkpoint.bson): every collection (options, indexes, documents), view,
// the oplog and the sessions' retryable-write and transaction records (mongod's
// config.transactions) at one point in time, as framed records (records.ts) between a header and
// an end record that counts them, so an incomplete file is found. mongod's equivalent is the
// WiredTiger checkpoint its replication recovery starts from (replication_recovery.cpp).
import { readFileSync } from 'node:fs';
import { Binary, deserialize, serialize, type Timestamp } from 'bson';
import { BSON_READ_OPTIONS, type Document } from '../engine/types.ts';
import type { Catalog } from '../engine/catalog.ts';
import type { ChangeStreams } from '../changes/ChangeStreams.ts';
import type { ClusterClock } from '../session/ClusterClock.ts';
import type { SessionRegistry } from '../session/SessionRegistry.ts';
import type { TransactionCoordinator } from '../txn/TransactionCoordinator.ts';
import { BSON_WRITE_OPTIONS, frame, readRecords, StorageError } from './records.ts';

/** The data directory's format, named in its meta file and in every checkpoint's header. */
export const FORMAT = 'precondition-mongo-emulator';
export const FORMAT_VERSION = 1;
/** Documents (or oplog entries, or sessions) per checkpoint record. */
const CHECKPOINT_BATCH = 1_000;

/** The server a checkpoint is taken of, or restored into. */
export interface StorageTarget {
  catalog: Catalog;
  changeStreams: ChangeStreams;
  sessions: SessionRegistry;
  transactions: TransactionCoordinator;
  clock: ClusterClock;
}

export interface OpTimeLike {
  ts: Timestamp;
  t: bigint;
}

/** A checkpoint as read back: its records between header and end, and where the journal after it starts. */
export interface Checkpoint {
  journalFrom: number;
  ts: Timestamp;
  records: Document[];
}

/**
 * The records of a checkpoint of `target` at this instant, without copying documents: collections
 * are copy-on-write clones (O(1)) and stored document versions are immutable, so the records can
 * be serialised while the server goes on.
 */
export function checkpointChunks(
  target: StorageTarget,
  at: { journalFrom: number; opTime: OpTimeLike },
): () => Generator<Buffer> {
  const { catalog, changeStreams, sessions, transactions } = target;
  const collections: {
    db: string;
    name: string;
    options: Document;
    uuid: Binary;
    indexes: Document[];
    docs: Iterable<Document>;
  }[] = [];
  const views: Document[] = [];
  for (const db of catalog.listDatabaseNames()) {
    for (const info of catalog.listCollections(db)) {
      if (info.type === 'view') {
        views.push({ kind: 'view', db, name: info.name, viewOn: info.options.viewOn, pipeline: info.options.pipeline });
        continue;
      }
      const collection = catalog.getCollection(db, info.name)!;
      const indexes = collection
        .listIndexes()
        .filter((spec) => spec.name !== '_id_')
        .map(({ v: _v, ...spec }) => spec);
      collections.push({
        db,
        name: info.name,
        options: { ...collection.options },
        uuid: collection.uuid,
        indexes,
        docs: collection.frozenDocuments(),
      });
    }
  }
  const oplog = changeStreams.oplog.records().map((r) => r.doc);
  const savedSessions = sessions.entries().map((s) => ({
    key: s.key,
    txnNumber: s.txnNumber,
    executed: [...s.executed.entries()],
    committed: transactions.committedTxnNumber(s.key) === s.txnNumber,
  }));
  const header = {
    kind: 'header',
    format: FORMAT,
    version: FORMAT_VERSION,
    journalFrom: at.journalFrom,
    ts: at.opTime.ts,
    t: at.opTime.t,
    createdAt: new Date(),
  };
  function* chunks(): Generator<Buffer> {
    let count = 0;
    const record = (doc: Document) => {
      count += 1;
      return frame(serialize(doc, BSON_WRITE_OPTIONS));
    };
    yield record(header);
    for (const c of collections) {
      yield record({
        kind: 'collection',
        db: c.db,
        name: c.name,
        options: c.options,
        uuid: c.uuid,
        indexes: c.indexes,
      });
      let docs: Document[] = [];
      for (const doc of c.docs) {
        docs.push(doc);
        if (docs.length === CHECKPOINT_BATCH) {
          yield record({ kind: 'docs', db: c.db, name: c.name, docs });
          docs = [];
        }
      }
      if (docs.length > 0) yield record({ kind: 'docs', db: c.db, name: c.name, docs });
    }
    for (const view of views) yield record(view);
    for (let i = 0; i < oplog.length; i += CHECKPOINT_BATCH)
      yield record({ kind: 'oplog', docs: oplog.slice(i, i + CHECKPOINT_BATCH) });
    for (let i = 0; i < savedSessions.length; i += CHECKPOINT_BATCH)
      yield record({ kind: 'sessions', sessions: savedSessions.slice(i, i + CHECKPOINT_BATCH) });
    yield record({ kind: 'end', records: count + 1 });
  }
  return chunks;
}

/** Rebuilds a fresh server from a checkpoint: collections, indexes, documents, views, the oplog and the sessions' records. */
export function restoreCheckpoint(target: StorageTarget, checkpoint: Checkpoint): void {
  const { catalog, changeStreams, sessions, transactions } = target;
  const oplog: Document[] = [];
  changeStreams.quiet(() => {
    for (const record of checkpoint.records) {
      switch (record.kind) {
        case 'collection': {
          const collection = catalog.createCollection(
            String(record.db),
            String(record.name),
            record.options as Document,
            record.uuid as Binary,
          );
          const indexes = record.indexes as Document[];
          if (indexes.length > 0) collection.createIndexes(indexes as never[]);
          break;
        }
        case 'docs': {
          const collection = catalog.getCollection(String(record.db), String(record.name))!;
          collection.withoutValidation(() => {
            for (const doc of record.docs as Document[]) collection.insertOne(doc);
          });
          break;
        }
        case 'view':
          catalog.createView(String(record.db), String(record.name), {
            viewOn: String(record.viewOn),
            pipeline: record.pipeline as Document[],
          } as never);
          break;
        case 'oplog':
          oplog.push(...(record.docs as Document[]));
          break;
        case 'sessions':
          for (const saved of record.sessions as Document[]) {
            const lsid = { id: new Binary(Buffer.from(String(saved.key), 'hex'), Binary.SUBTYPE_UUID) };
            const session = sessions.touch(lsid)!;
            const txnNumber = BigInt(saved.txnNumber as bigint);
            if (saved.committed === true) transactions.recordReplicatedCommit(session, lsid, txnNumber);
            session.txnNumber = txnNumber;
            for (const [stmtId, result] of saved.executed as [number, unknown][])
              session.executed.set(Number(stmtId), result);
          }
          break;
      }
    }
  });
  changeStreams.restoreOplog(oplog);
  target.clock.advanceTo(checkpoint.ts);
}

/** Reads a checkpoint back, refusing (StorageError, naming the file) one that is torn, undecodable or incomplete. */
export function readCheckpoint(file: string): Checkpoint {
  const bytes = readFileSync(file);
  const { records, tornAt } = readRecords(bytes, file);
  if (tornAt !== undefined)
    throw new StorageError('DataDirectoryDamaged', `${file} is damaged: it ends in a partial record at byte ${tornAt}`);
  let docs: Document[];
  try {
    docs = records.map((r) => deserialize(r, BSON_READ_OPTIONS) as Document);
  } catch (error) {
    throw new StorageError(
      'DataDirectoryDamaged',
      `${file} is damaged: a record does not decode (${(error as Error).message})`,
    );
  }
  const header = docs[0];
  const end = docs.at(-1);
  if (header?.kind !== 'header' || header.format !== FORMAT)
    throw new StorageError('DataDirectoryDamaged', `${file} is damaged: it does not start with a checkpoint header`);
  if (end?.kind !== 'end' || Number(end.records) !== docs.length)
    throw new StorageError(
      'DataDirectoryDamaged',
      `${file} is damaged: it is incomplete (${docs.length} records, no matching end record)`,
    );
  return { journalFrom: Number(header.journalFrom), ts: header.ts as Timestamp, records: docs.slice(1, -1) };
}
