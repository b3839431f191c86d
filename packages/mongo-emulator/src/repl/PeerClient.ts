// The connection one member keeps to another, as mongod's internal NetworkInterface does: OP_MSG
// requests over one TCP socket, replies matched by responseTo. Its own small codec, because the
// wire layer (src/wire) serves clients and nothing below it may import it.
import { createConnection, type Socket } from 'node:net';
import { deserialize, serialize } from 'bson';
import type { Document } from '../engine/types.ts';

const HEADER_BYTES = 16;
const OP_MSG = 2013;

/** A peer that did not answer, or closed: the caller treats the member as unreachable. */
export class PeerUnreachable extends Error {}

/** What the replication pieces need of a peer connection (tests hand them a scripted one). */
export interface PeerCommander {
  readonly address: string;
  command(db: string, command: Document, timeoutMs: number): Promise<Document>;
  close(): void;
}

/** One connection per peer for the member's life: heartbeats, votes and positions share it. */
export class PeerPool {
  readonly #clients = new Map<string, PeerClient>();

  get(host: string): PeerClient {
    let client = this.#clients.get(host);
    if (!client) {
      client = new PeerClient(host);
      this.#clients.set(host, client);
    }
    return client;
  }

  closeAll(): void {
    for (const client of this.#clients.values()) client.close();
  }
}

export class PeerClient {
  #socket: Socket | undefined;
  #connecting: Promise<Socket> | undefined;
  #nextRequestId = 1;
  readonly #pending = new Map<
    number,
    { resolve: (doc: Document) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }
  >();
  #buffered: Buffer = Buffer.alloc(0);
  #closed = false;

  constructor(readonly address: string) {}

  /** Runs one command on the peer; rejects with PeerUnreachable on a network failure or timeout. */
  async command(db: string, command: Document, timeoutMs: number): Promise<Document> {
    const fresh = !this.#socket;
    const socket = await this.#connect(timeoutMs);
    // A new connection first says it is a member (mongod's internalClient handshake field), so
    // failCommand spares it unless failInternalCommands.
    if (fresh && this.#socket === socket && !this.#handshaken.has(socket)) {
      this.#handshaken.add(socket);
      await this.#send(
        socket,
        'admin',
        { hello: 1, internalClient: { minWireVersion: 0, maxWireVersion: 21 } },
        timeoutMs,
      );
    }
    return this.#send(socket, db, command, timeoutMs);
  }

  readonly #handshaken = new WeakSet<Socket>();

  #send(socket: Socket, db: string, command: Document, timeoutMs: number): Promise<Document> {
    const requestId = this.#nextRequestId++;
    const body = serialize({ ...command, $db: db });
    const message = Buffer.allocUnsafe(HEADER_BYTES + 5 + body.length);
    message.writeInt32LE(message.length, 0);
    message.writeInt32LE(requestId, 4);
    message.writeInt32LE(0, 8);
    message.writeInt32LE(OP_MSG, 12);
    message.writeUInt32LE(0, HEADER_BYTES);
    message.writeUInt8(0, HEADER_BYTES + 4);
    message.set(body, HEADER_BYTES + 5);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(requestId);
        // A reply that never came leaves the stream unusable (a late reply would be misread).
        this.reset(new PeerUnreachable(`${this.address}: no reply in ${timeoutMs} ms`));
        reject(new PeerUnreachable(`${this.address}: no reply in ${timeoutMs} ms`));
      }, timeoutMs);
      this.#pending.set(requestId, { resolve, reject, timer });
      socket.write(message);
    });
  }

  /** Drops the connection (the next command reconnects) and fails what waits on it. */
  reset(error: Error = new PeerUnreachable(`${this.address}: connection closed`)): void {
    const socket = this.#socket;
    this.#socket = undefined;
    this.#connecting = undefined;
    this.#buffered = Buffer.alloc(0);
    socket?.destroy();
    for (const [id, pending] of this.#pending) {
      clearTimeout(pending.timer);
      this.#pending.delete(id);
      pending.reject(error);
    }
  }

  close(): void {
    this.#closed = true;
    this.reset();
  }

  #connect(timeoutMs: number): Promise<Socket> {
    if (this.#closed) return Promise.reject(new PeerUnreachable(`${this.address}: client closed`));
    if (this.#socket) return Promise.resolve(this.#socket);
    if (this.#connecting) return this.#connecting;
    const colon = this.address.lastIndexOf(':');
    const host = this.address.slice(0, colon).replace(/^\[|\]$/g, '');
    const port = Number(this.address.slice(colon + 1));
    const connecting: Promise<Socket> = new Promise<Socket>((resolve, reject) => {
      const socket = createConnection({ host, port });
      socket.setNoDelay(true);
      const timer = setTimeout(() => {
        // This attempt is over: the next command connects anew. Kept, its rejection would answer
        // every later command, and a live peer would look down for good (a loop stalled past the
        // timeout fires it before the socket's 'connect' is read).
        if (this.#connecting === connecting) this.#connecting = undefined;
        socket.destroy();
        reject(new PeerUnreachable(`${this.address}: connect timed out`));
      }, timeoutMs);
      socket.once('connect', () => {
        clearTimeout(timer);
        this.#socket = socket;
        this.#connecting = undefined;
        resolve(socket);
      });
      socket.on('error', (error) => {
        clearTimeout(timer);
        if (this.#socket !== socket) {
          if (this.#connecting === connecting) this.#connecting = undefined;
          reject(new PeerUnreachable(`${this.address}: ${error.message}`));
        }
      });
      socket.on('close', () => {
        if (this.#socket === socket) this.reset();
      });
      socket.on('data', (chunk: Buffer) => this.#onData(chunk));
    });
    this.#connecting = connecting;
    return connecting;
  }

  #onData(chunk: Buffer): void {
    this.#buffered = this.#buffered.length === 0 ? chunk : Buffer.concat([this.#buffered, chunk]);
    while (this.#buffered.length >= 4) {
      const length = this.#buffered.readInt32LE(0);
      if (this.#buffered.length < length) return;
      const frame = this.#buffered.subarray(0, length);
      this.#buffered = this.#buffered.subarray(length);
      const responseTo = frame.readInt32LE(8);
      const pending = this.#pending.get(responseTo);
      if (!pending) continue;
      this.#pending.delete(responseTo);
      clearTimeout(pending.timer);
      try {
        // Section kind 0 right after the flags: the reply body (mongod never answers with sequences).
        pending.resolve(deserialize(frame.subarray(HEADER_BYTES + 5), { useBigInt64: true, promoteValues: true }));
      } catch (error) {
        pending.reject(error as Error);
      }
    }
  }
}
