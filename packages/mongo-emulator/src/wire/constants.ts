// Wire-protocol numbers, as in mongod's src/mongo/rpc/message.h and the OP_MSG specification.

export const OpCode = Object.freeze({
  OP_REPLY: 1,
  OP_QUERY: 2004,
  OP_COMPRESSED: 2012,
  OP_MSG: 2013,
} as const);

/** OP_MSG flagBits. Bits 0-15 are "required": an unknown one among them must be refused. */
export const OpMsgFlags = Object.freeze({
  checksumPresent: 1 << 0,
  moreToCome: 1 << 1,
  exhaustAllowed: 1 << 16,
} as const);

export const OP_MSG_REQUIRED_FLAGS_MASK = 0xffff;

/** OP_REPLY responseFlags: AwaitCapable, which mongod always sets. */
export const OP_REPLY_AWAIT_CAPABLE = 1 << 3;

export const HEADER_LENGTH_BYTES = 16;

/** The largest message mongod accepts (and advertises as maxMessageSizeBytes). */
export const MAX_MESSAGE_SIZE_BYTES = 48_000_000;

/** The largest user document (maxBsonObjectSize). */
export const MAX_BSON_OBJECT_SIZE_BYTES = 16 * 1024 * 1024;

/** Commands may exceed the user-document limit by this much (mongod's BSONObjMaxInternalSize). */
export const MAX_COMMAND_SIZE_BYTES = MAX_BSON_OBJECT_SIZE_BYTES + 16 * 1024;
