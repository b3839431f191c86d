// Optimes as mongod orders them (src/mongo/db/repl/optime.h): by term first, then timestamp.
import { ObjectId, Timestamp } from 'bson';
import type { Document } from '../engine/types.ts';

export interface OpTime {
  ts: Timestamp;
  t: bigint;
}

export const NULL_OP_TIME: OpTime = Object.freeze({ ts: new Timestamp({ t: 0, i: 0 }), t: -1n });

export function compareOpTime(a: OpTime, b: OpTime): number {
  if (a.t !== b.t) return a.t < b.t ? -1 : 1;
  if (a.ts.equals(b.ts)) return 0;
  return a.ts.greaterThan(b.ts) ? 1 : -1;
}

export function maxOpTime(a: OpTime, b: OpTime): OpTime {
  return compareOpTime(a, b) >= 0 ? a : b;
}

/** An optime read off the wire ({ts, t}); the null optime when absent. */
export function parseOpTime(value: unknown): OpTime {
  const doc = value as Document | undefined;
  if (!doc || !(doc.ts instanceof Timestamp)) return NULL_OP_TIME;
  return { ts: doc.ts, t: BigInt(doc.t as bigint | number) };
}

/**
 * The electionId a primary reports in hello: mongod's OID::fromTerm (src/mongo/bson/oid.cpp)
 * writes the max int32 0x7fffffff as the first four bytes and the term, big-endian, as the last
 * eight, so ids of later terms compare greater, as the drivers' SDAM rules require.
 */
export function electionIdForTerm(term: bigint): ObjectId {
  const bytes = Buffer.alloc(12);
  bytes.writeInt32BE(0x7fffffff, 0);
  bytes.writeBigInt64BE(term, 4);
  return new ObjectId(bytes);
}

/** Milliseconds of wall time between two optimes' timestamps (seconds resolution, as mongod's lag). */
export function wallOf(opTime: OpTime): Date {
  return new Date(opTime.ts.high * 1000);
}

/** An optime as mongod logs it: { ts: Timestamp(s, i), t: n }. */
export function formatOpTime(opTime: OpTime): string {
  return `{ ts: Timestamp(${opTime.ts.high}, ${opTime.ts.low}), t: ${opTime.t} }`;
}
