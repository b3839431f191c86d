import { deserialize } from 'bson';
import { BSON_READ_OPTIONS, type Document } from '../engine/types.ts';
import {
  HEADER_LENGTH_BYTES,
  MAX_COMMAND_SIZE_BYTES,
  OP_MSG_REQUIRED_FLAGS_MASK,
  OpCode,
  OpMsgFlags,
} from './constants.ts';
import { crc32c } from './crc32c.ts';
import { WireProtocolError } from './WireProtocolError.ts';

/** A request as the command layer sees it: bytes gone, one command document left. */
export type WireRequest =
  | { kind: 'msg'; requestId: number; flags: number; command: Document }
  | { kind: 'query'; requestId: number; fullCollectionName: string; query: Document };

const KNOWN_REQUIRED_FLAGS = OpMsgFlags.checksumPresent | OpMsgFlags.moreToCome;

/** Decodes one whole message (header included). Throws WireProtocolError on anything malformed. */
export function decodeMessage(frame: Buffer): WireRequest {
  if (frame.length < HEADER_LENGTH_BYTES) throw new WireProtocolError('message shorter than its header');
  if (frame.readInt32LE(0) !== frame.length) throw new WireProtocolError('message length mismatch');
  const requestId = frame.readInt32LE(4);
  const opCode = frame.readInt32LE(12);
  const body = frame.subarray(HEADER_LENGTH_BYTES);
  if (opCode === OpCode.OP_MSG) return decodeOpMsg(requestId, frame, body);
  if (opCode === OpCode.OP_QUERY) return decodeOpQuery(requestId, body);
  throw new WireProtocolError(`unsupported opCode ${opCode}`);
}

function decodeOpMsg(requestId: number, frame: Buffer, body: Buffer): WireRequest {
  if (body.length < 4) throw new WireProtocolError('OP_MSG without flagBits');
  const flags = body.readUInt32LE(0);
  if ((flags & OP_MSG_REQUIRED_FLAGS_MASK & ~KNOWN_REQUIRED_FLAGS) !== 0) {
    throw new WireProtocolError(`OP_MSG has unknown required flag bits ${flags.toString(16)}`);
  }
  let end = body.length;
  if (flags & OpMsgFlags.checksumPresent) {
    if (end < 8) throw new WireProtocolError('OP_MSG checksum missing');
    end -= 4;
    const expected = body.readUInt32LE(end);
    const actual = crc32c(frame.subarray(0, frame.length - 4));
    if (expected !== actual) throw new WireProtocolError('OP_MSG checksum mismatch');
  }
  let command: Document | undefined;
  const sequences = new Map<string, Document[]>();
  let offset = 4;
  while (offset < end) {
    const sectionKind = body[offset]!;
    offset += 1;
    if (sectionKind === 0) {
      if (command) throw new WireProtocolError('OP_MSG has more than one body section');
      const size = readDocumentSize(body, offset, end);
      command = readDocument(body, offset, size);
      offset += size;
    } else if (sectionKind === 1) {
      offset = readSequence(body, offset, end, sequences);
    } else {
      throw new WireProtocolError(`OP_MSG has unknown section kind ${sectionKind}`);
    }
  }
  if (!command) throw new WireProtocolError('OP_MSG has no body section');
  for (const [identifier, documents] of sequences) {
    if (identifier in command) {
      throw new WireProtocolError(`OP_MSG document sequence '${identifier}' duplicates a body field`);
    }
    command[identifier] = documents;
  }
  return { kind: 'msg', requestId, flags, command };
}

/** Reads a kind-1 section (size, identifier, documents) into `sequences`; returns the new offset. */
function readSequence(body: Buffer, start: number, end: number, sequences: Map<string, Document[]>): number {
  if (start + 4 > end) throw new WireProtocolError('OP_MSG document sequence truncated');
  const sectionSize = body.readInt32LE(start);
  const sectionEnd = start + sectionSize;
  if (sectionSize < 5 || sectionEnd > end) throw new WireProtocolError('OP_MSG document sequence size invalid');
  const nul = body.indexOf(0, start + 4);
  if (nul < 0 || nul >= sectionEnd) throw new WireProtocolError('OP_MSG document sequence identifier unterminated');
  const identifier = body.toString('utf8', start + 4, nul);
  if (sequences.has(identifier)) throw new WireProtocolError(`OP_MSG repeats document sequence '${identifier}'`);
  const documents: Document[] = [];
  let offset = nul + 1;
  while (offset < sectionEnd) {
    const size = readDocumentSize(body, offset, sectionEnd);
    documents.push(readDocument(body, offset, size));
    offset += size;
  }
  sequences.set(identifier, documents);
  return sectionEnd;
}

function decodeOpQuery(requestId: number, body: Buffer): WireRequest {
  if (body.length < 4) throw new WireProtocolError('OP_QUERY without flags');
  const nul = body.indexOf(0, 4);
  if (nul < 0) throw new WireProtocolError('OP_QUERY collection name unterminated');
  const fullCollectionName = body.toString('utf8', 4, nul);
  const queryStart = nul + 1 + 8; // numberToSkip, numberToReturn
  const size = readDocumentSize(body, queryStart, body.length);
  const query = readDocument(body, queryStart, size);
  return { kind: 'query', requestId, fullCollectionName, query };
}

function readDocumentSize(buffer: Buffer, offset: number, end: number): number {
  if (offset + 5 > end) throw new WireProtocolError('BSON document truncated');
  const size = buffer.readInt32LE(offset);
  if (size < 5 || size > MAX_COMMAND_SIZE_BYTES || offset + size > end) {
    throw new WireProtocolError(`BSON document size ${size} invalid`);
  }
  return size;
}

function readDocument(buffer: Buffer, offset: number, size: number): Document {
  try {
    return deserialize(buffer.subarray(offset, offset + size), BSON_READ_OPTIONS) as Document;
  } catch (error) {
    throw new WireProtocolError(`invalid BSON: ${(error as Error).message}`);
  }
}
