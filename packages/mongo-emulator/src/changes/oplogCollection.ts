// local.oplog.rs as clients read it on mongod 7.0: find (natural order, `sort: {$natural: -1}`,
// filter, projection, skip, limit), aggregate (a leading `$collStats`), collStats and its listing
// in local. What `db.getReplicationInfo()` reads: the first and last entries by $natural and
// collStats' `size` and `maxSize`. Every document handed out is a copy: the stored entries share
// the documents' stored versions.
import { cloneValue } from '../engine/clone.ts';
import { aggregateDocuments } from '../engine/aggregate.ts';
import { compileFilter } from '../engine/match.ts';
import { project } from '../engine/projection.ts';
import { compileSort } from '../engine/sort.ts';
import type { Document, FindOptions } from '../engine/types.ts';
import { CommandError } from '../errors.ts';
import type { Oplog } from './Oplog.ts';

export const OPLOG_DB = 'local';
export const OPLOG_COLL = 'oplog.rs';

export function isOplog(db: string, coll: string | null): boolean {
  return db === OPLOG_DB && coll === OPLOG_COLL;
}

/** `find` on local.oplog.rs. */
export function findInOplog(oplog: Oplog, filter: Document, options: FindOptions): Document[] {
  const now = new Date();
  const matches = Object.keys(filter).length === 0 ? undefined : compileFilter(filter, { now });
  let docs = oplog.records().map((r) => r.doc);
  if (matches) docs = docs.filter(matches);
  const sort = options.sort ?? {};
  const natural = sort.$natural;
  if (natural !== undefined) {
    if (Object.keys(sort).length > 1)
      throw new CommandError('BadValue', '$natural sort cannot be set to a value other than -1 or 1');
    if (Number(natural) < 0) docs.reverse();
  } else if (Object.keys(sort).length > 0) {
    docs = [...docs].sort(compileSort(sort));
  }
  const skip = options.skip ?? 0;
  const end = options.limit ? skip + Math.abs(options.limit) : undefined;
  return docs.slice(skip, end).map((d) => cloneValue(project(d, options.projection, { filter, now })));
}

/** collStats' storage figures for local.oplog.rs (sizes divided by `scale`, as mongod's). */
export function oplogStorageStats(oplog: Oplog, scale = 1): Document {
  const count = oplog.entries;
  const size = oplog.bytes;
  return {
    size: Math.floor(size / scale),
    count,
    avgObjSize: count === 0 ? 0 : Math.floor(size / count),
    numOrphanDocs: 0,
    storageSize: Math.floor(size / scale),
    freeStorageSize: 0,
    capped: true,
    maxSize: Math.floor(oplog.maxBytes / scale),
    nindexes: 0,
    indexDetails: {},
    indexBuilds: [],
    totalIndexSize: 0,
    totalSize: Math.floor(size / scale),
    indexSizes: {},
    scaleFactor: scale,
  };
}

/** The `collStats` command's reply on local.oplog.rs. */
export function oplogCollStats(oplog: Oplog, scale: number): Document {
  return { ns: `${OPLOG_DB}.${OPLOG_COLL}`, ...oplogStorageStats(oplog, scale) };
}

/** `aggregate` on local.oplog.rs: `$collStats` (first stage) or the entries in natural order. */
export function aggregateOplog(oplog: Oplog, pipeline: Document[], host: string): Document[] {
  const [first, ...rest] = pipeline;
  const now = new Date();
  let source: Document[];
  let stages = pipeline;
  if (first && '$collStats' in first) {
    const spec = (first.$collStats ?? {}) as Document;
    const stats: Document = { ns: `${OPLOG_DB}.${OPLOG_COLL}`, host, localTime: now };
    if (spec.storageStats !== undefined) {
      const scale = Number((spec.storageStats as Document).scale ?? 1);
      stats.storageStats = oplogStorageStats(oplog, scale);
    }
    if (spec.count !== undefined) stats.count = oplog.entries;
    source = [stats];
    stages = rest;
  } else {
    source = oplog.records().map((r) => cloneValue(r.doc));
  }
  return aggregateDocuments(source, stages, { now, clusterTime: oplog.latest!.ts, resolve: () => [] });
}

/** local.oplog.rs in listCollections of local, as mongod lists it. */
export function oplogCollectionInfo(oplog: Oplog): Document {
  return {
    name: OPLOG_COLL,
    type: 'collection',
    options: { capped: true, size: oplog.maxBytes, autoIndexId: false },
    info: { readOnly: false },
  };
}
