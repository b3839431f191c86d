import { serialize } from 'bson';
import type { Document } from '../engine/types.ts';
import { HEADER_LENGTH_BYTES, OP_REPLY_AWAIT_CAPABLE, OpCode, OpMsgFlags } from './constants.ts';

/** An OP_MSG reply with one body section; `moreToCome` marks one reply of an exhaust stream. */
export function encodeOpMsgReply(
  reply: Document,
  requestId: number,
  responseTo: number,
  options: { moreToCome?: boolean } = {},
): Buffer {
  const body = serialize(reply);
  const prefixBytes = HEADER_LENGTH_BYTES + 4 + 1;
  const message = Buffer.allocUnsafe(prefixBytes + body.length);
  writeHeader(message, requestId, responseTo, OpCode.OP_MSG);
  message.writeUInt32LE(options.moreToCome ? OpMsgFlags.moreToCome : 0, HEADER_LENGTH_BYTES);
  message.writeUInt8(0, HEADER_LENGTH_BYTES + 4);
  message.set(body, prefixBytes);
  return message;
}

/** An OP_REPLY carrying one document: the answer to a legacy OP_QUERY handshake. */
export function encodeOpReply(reply: Document, requestId: number, responseTo: number): Buffer {
  const body = serialize(reply);
  const prefixBytes = HEADER_LENGTH_BYTES + 4 + 8 + 4 + 4;
  const message = Buffer.allocUnsafe(prefixBytes + body.length);
  writeHeader(message, requestId, responseTo, OpCode.OP_REPLY);
  let offset = HEADER_LENGTH_BYTES;
  offset = message.writeInt32LE(OP_REPLY_AWAIT_CAPABLE, offset);
  offset = message.writeBigInt64LE(0n, offset); // cursorID
  offset = message.writeInt32LE(0, offset); // startingFrom
  offset = message.writeInt32LE(1, offset); // numberReturned
  message.set(body, offset);
  return message;
}

function writeHeader(message: Buffer, requestId: number, responseTo: number, opCode: number): void {
  message.writeInt32LE(message.length, 0);
  message.writeInt32LE(requestId, 4);
  message.writeInt32LE(responseTo, 8);
  message.writeInt32LE(opCode, 12);
}
