// Resume tokens: `{_data: '<hex>'}`, opaque to clients, ordered like the oplog. As on mongod the
// hex starts with 0x82 and the 8-byte cluster time, so the time of any mongod-style token can be
// read (a token from another deployment then fails as history lost or not found, as it would on
// a different mongod). Layout after the time: format, token type, txnOpIndex, fromInvalidate,
// an 8-byte digest of the event's identity, and a terminator.
import { createHash } from 'node:crypto';
import { Timestamp } from 'bson';
import type { Document } from '../engine/types.ts';
import { CommandError } from '../errors.ts';
import { formatDocument } from '../engine/format.ts';

const MARKER = 0x82;
const FORMAT = 0x01;
const TERMINATOR = 0x04;
const TOKEN_BYTES = 25;
const HIGH_WATER_MARK = 0x00;
const EVENT = 0x80;
const NO_DIGEST = '0000000000000000';

export interface ResumeTokenData {
  clusterTime: Timestamp;
  /** A high-water mark names a point in time; an event token names one oplog entry. */
  tokenType: 'highWaterMark' | 'event';
  txnOpIndex: number;
  fromInvalidate: boolean;
  /** Identifies the event (namespace, operation, document key); foreign tokens match nothing. */
  eventDigest: string;
}

/** A cluster time as one ordered number: seconds in the high 32 bits, increment in the low. */
export function timeKey(ts: Timestamp): bigint {
  return (BigInt(ts.t) << 32n) | BigInt(ts.i);
}

export function eventDigest(identity: Document): string {
  return createHash('sha1').update(formatDocument(identity)).digest('hex').slice(0, 16).toUpperCase();
}

export function highWaterMark(clusterTime: Timestamp): ResumeTokenData {
  return { clusterTime, tokenType: 'highWaterMark', txnOpIndex: 0, fromInvalidate: false, eventDigest: NO_DIGEST };
}

export function encodeToken(data: ResumeTokenData): Document {
  const bytes = Buffer.alloc(TOKEN_BYTES);
  bytes[0] = MARKER;
  bytes.writeUInt32BE(data.clusterTime.t, 1);
  bytes.writeUInt32BE(data.clusterTime.i, 5);
  bytes[9] = FORMAT;
  bytes[10] = data.tokenType === 'event' ? EVENT : HIGH_WATER_MARK;
  bytes.writeUInt32BE(data.txnOpIndex, 11);
  bytes[15] = data.fromInvalidate ? 1 : 0;
  Buffer.from(data.eventDigest, 'hex').copy(bytes, 16);
  bytes[24] = TERMINATOR;
  return { _data: bytes.toString('hex').toUpperCase() };
}

/** Reads a client's token, failing with mongod's codes for tokens that cannot be read at all. */
export function decodeToken(token: unknown): ResumeTokenData {
  const data = (token as Document | null)?._data;
  if (token === null || typeof token !== 'object' || typeof data !== 'string') {
    throw new CommandError(
      'Location40647',
      `Bad resume token: _data of missing or of wrong type. Expected string, got ${formatDocument((token ?? {}) as Document)}`,
    );
  }
  if (!/^([0-9a-fA-F]{2})*$/.test(data))
    throw new CommandError('FailedToParse', 'resume token string was not a valid hex string');
  const bytes = Buffer.from(data, 'hex');
  if (bytes.length < 9 || bytes[0] !== MARKER)
    throw new CommandError('FailedToParse', `resume token does not start with a cluster time: ${data}`);
  const clusterTime = new Timestamp({ t: bytes.readUInt32BE(1), i: bytes.readUInt32BE(5) });
  const ours =
    bytes.length === TOKEN_BYTES &&
    bytes[9] === FORMAT &&
    bytes[24] === TERMINATOR &&
    (bytes[10] === EVENT || bytes[10] === HIGH_WATER_MARK);
  if (!ours)
    return { clusterTime, tokenType: 'event', txnOpIndex: 0, fromInvalidate: false, eventDigest: `foreign:${data}` };
  return {
    clusterTime,
    tokenType: bytes[10] === EVENT ? 'event' : 'highWaterMark',
    txnOpIndex: bytes.readUInt32BE(11),
    fromInvalidate: bytes[15] === 1,
    eventDigest: bytes.subarray(16, 24).toString('hex').toUpperCase(),
  };
}
