import type { Socket } from 'node:net';
import type { Document } from '../engine/types.ts';
import { decodeMessage, type WireRequest } from './decodeMessage.ts';
import { encodeOpMsgReply, encodeOpReply } from './encodeReply.ts';
import { MessageFramer } from './MessageFramer.ts';

/** What the command layer wants done with one request. */
export type WireResponse =
  | { action: 'reply'; document: Document }
  /** Send `document` with moreToCome, then each document `next()` yields, until it yields null. */
  | { action: 'exhaust'; document: Document; next: () => Promise<Document | null> }
  /** No reply: the client sent moreToCome (e.g. an unacknowledged write). */
  | { action: 'none' }
  /** Close the socket without a reply (the failCommand fail point's closeConnection). */
  | { action: 'close' };

export interface RequestHandler {
  handle(request: WireRequest, connection: Connection): Promise<WireResponse>;
}

export interface ConnectionLogger {
  warn(message: string): void;
}

/** Requests read ahead of the one being served before the socket stops being read. */
const PENDING_REQUESTS_MAX = 64;

let lastReplyId = 0;
function nextReplyId(): number {
  lastReplyId = lastReplyId >= 0x7fffffff ? 1 : lastReplyId + 1;
  return lastReplyId;
}

/**
 * One client socket: frames and decodes its messages, serves them one at a time (as mongod
 * does per connection), and writes the replies. Anything malformed closes this socket only.
 */
export class Connection {
  readonly id: number;
  readonly remoteAddress: string;
  /** The handshake's client.application.name, which failCommand's `appName` matches. */
  appName: string | undefined;
  clientMetadata: Document | undefined;
  /** Another replica-set member (its hello carried `internalClient`), as mongod tells internal clients apart. */
  internalClient = false;
  /** Aborted when the socket closes, so a waiting handler (awaitable hello, blockConnection) ends. */
  private readonly closed = new AbortController();
  private readonly framer = new MessageFramer();
  private readonly pending: WireRequest[] = [];
  private serving = false;

  constructor(
    id: number,
    private readonly socket: Socket,
    private readonly handler: RequestHandler,
    private readonly logger: ConnectionLogger,
  ) {
    this.id = id;
    this.remoteAddress = `${socket.remoteAddress}:${socket.remotePort}`;
    socket.setNoDelay(true);
    socket.on('data', (chunk) => this.onData(chunk));
    socket.on('error', () => this.close());
    socket.on('close', () => this.closed.abort());
  }

  get closeSignal(): AbortSignal {
    return this.closed.signal;
  }

  get isClosed(): boolean {
    return this.closed.signal.aborted;
  }

  close(): void {
    this.closed.abort();
    this.socket.destroy();
  }

  private onData(chunk: Buffer): void {
    try {
      for (const frame of this.framer.push(chunk)) this.pending.push(decodeMessage(frame));
    } catch (error) {
      this.logger.warn(`connection ${this.id} closed: ${(error as Error).message}`);
      this.close();
      return;
    }
    if (this.pending.length >= PENDING_REQUESTS_MAX) this.socket.pause();
    void this.serve();
  }

  private async serve(): Promise<void> {
    if (this.serving) return;
    this.serving = true;
    try {
      for (let request = this.pending.shift(); request && !this.isClosed; request = this.pending.shift()) {
        if (this.pending.length < PENDING_REQUESTS_MAX) this.socket.resume();
        await this.serveOne(request);
      }
    } catch (error) {
      this.logger.warn(`connection ${this.id} closed after an internal error: ${(error as Error).stack}`);
      this.close();
    } finally {
      this.serving = false;
    }
  }

  private async serveOne(request: WireRequest): Promise<void> {
    const response = await this.handler.handle(request, this);
    if (this.isClosed) return;
    switch (response.action) {
      case 'none':
        return;
      case 'close':
        this.close();
        return;
      case 'reply':
        this.write(request, response.document, false, request.requestId);
        return;
      case 'exhaust': {
        let responseTo = this.write(request, response.document, true, request.requestId);
        for (let next = await response.next(); next && !this.isClosed; next = await response.next()) {
          responseTo = this.write(request, next, true, responseTo);
        }
        return;
      }
    }
  }

  /** Writes one reply in the request's protocol; returns its requestID. */
  private write(request: WireRequest, document: Document, moreToCome: boolean, responseTo: number): number {
    const replyId = nextReplyId();
    const bytes =
      request.kind === 'query'
        ? encodeOpReply(document, replyId, responseTo)
        : encodeOpMsgReply(document, replyId, responseTo, { moreToCome });
    this.socket.write(bytes);
    return replyId;
  }
}
