// The contract between the wire/command layer (src/wire, src/commands, src/server.ts) and the
// storage/query engine (src/engine). Command handlers translate a command document into calls on
// these interfaces; the engine knows nothing of sockets, sessions or fail points.
//
// Value representation: documents are what `bson.deserialize(buf, BSON_READ_OPTIONS)` returns.
// int32 and double are JS numbers, int64 is a `bigint` (so a `long` stays a `long` on the way
// back out), decimal128 is `Decimal128`, and every other BSON type is its `bson` class
// (ObjectId, Binary, Timestamp, BSONRegExp, MinKey, MaxKey, Code, ...). A JS number that is an
// integer in int32 range serializes as int32, so a whole double (1.0) comes back as int32: a
// recorded difference from mongod.
//
// Every engine call is synchronous. Node runs one call at a time, which is what makes every
// single-document write atomic; handlers must not await between the read and the write of one
// operation.

export type Document = Record<string, unknown>;

/** Options the bson package is called with for every document the server reads off the wire. */
export const BSON_READ_OPTIONS = {
  useBigInt64: true,
  promoteBuffers: false,
  promoteValues: true,
  bsonRegExp: true,
} as const;

export interface Collation {
  locale: string;
  strength?: number;
  caseLevel?: boolean;
  numericOrdering?: boolean;
}

export interface FindOptions {
  sort?: Document;
  projection?: Document;
  skip?: number;
  /** 0 or undefined: no limit. */
  limit?: number;
  hint?: string | Document;
  collation?: Collation;
  /** Values of `let` variables, usable as `$$name` in `$expr`. */
  let?: Document;
}

export interface IndexSpec {
  key: Document;
  name: string;
  unique?: boolean;
  sparse?: boolean;
  partialFilterExpression?: Document;
  expireAfterSeconds?: number;
  collation?: Collation;
  [option: string]: unknown;
}

/**
 * One document-level change, in the order applied. The wire layer turns these into retryable
 * write records and (later) oplog entries and change-stream events.
 */
export type ChangeRecord =
  | { op: 'insert'; db: string; coll: string; documentKey: Document; fullDocument: Document }
  | {
      op: 'update';
      db: string;
      coll: string;
      documentKey: Document;
      fullDocumentBefore: Document;
      fullDocument: Document;
      /** The `diff` of its `$v: 2` oplog entry (non-enumerable, made on first read). */
      delta: Document;
      updateDescription: {
        updatedFields: Document;
        removedFields: string[];
        truncatedArrays: { field: string; newSize: number }[];
        /** Reported only to streams with showExpandedEvents. */
        disambiguatedPaths: Document;
      };
    }
  | {
      op: 'replace';
      db: string;
      coll: string;
      documentKey: Document;
      fullDocumentBefore: Document;
      fullDocument: Document;
    }
  | { op: 'delete'; db: string; coll: string; documentKey: Document; fullDocumentBefore: Document };

export interface UpdateSpec {
  /** A filter document. */
  q: Document;
  /** An update-operator document, a replacement document, or an aggregation pipeline. */
  u: Document | Document[];
  multi?: boolean;
  upsert?: boolean;
  arrayFilters?: Document[];
  collation?: Collation;
  hint?: string | Document;
  /** updateOne's `sort` (MongoDB 8 syntax; accepted for completeness). */
  sort?: Document;
  let?: Document;
}

export interface UpdateResult {
  matched: number;
  modified: number;
  upsertedId?: unknown;
  changes: ChangeRecord[];
}

export interface DeleteSpec {
  q: Document;
  /** 0: all matching, 1: the first. */
  limit: 0 | 1;
  collation?: Collation;
  hint?: string | Document;
  let?: Document;
}

export interface FindAndModifySpec {
  query?: Document;
  sort?: Document;
  remove?: boolean;
  update?: Document | Document[];
  new?: boolean;
  fields?: Document;
  upsert?: boolean;
  arrayFilters?: Document[];
  collation?: Collation;
  hint?: string | Document;
  let?: Document;
}

export interface FindAndModifyResult {
  /** The document before or after the change (per `new`), projected; null when none matched. */
  value: Document | null;
  lastErrorObject: { n: number; updatedExisting?: boolean; upserted?: unknown };
  changes: ChangeRecord[];
}
