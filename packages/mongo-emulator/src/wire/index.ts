export * from './constants.ts';
export { Connection, type RequestHandler, type WireResponse, type ConnectionLogger } from './Connection.ts';
export { decodeMessage, type WireRequest } from './decodeMessage.ts';
export { encodeOpMsgReply, encodeOpReply } from './encodeReply.ts';
export { MessageFramer } from './MessageFramer.ts';
export { WireProtocolError } from './WireProtocolError.ts';
