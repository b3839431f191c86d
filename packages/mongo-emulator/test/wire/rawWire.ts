// A minimal wire client for tests that must send bytes the driver never would. It builds
// messages by hand (not with the server's encoder) so a shared bug cannot hide itself.
import { connect, type Socket } from 'node:net';
import { deserialize, serialize, type Document } from 'bson';

export const OP_REPLY = 1;
export const OP_QUERY = 2004;
export const OP_MSG = 2013;

let nextRequestId = 1;

function header(length: number, requestId: number, opCode: number): Buffer {
  const b = Buffer.alloc(16);
  b.writeInt32LE(length, 0);
  b.writeInt32LE(requestId, 4);
  b.writeInt32LE(0, 8);
  b.writeInt32LE(opCode, 12);
  return b;
}

/** An OP_MSG with a body section and optional kind-1 document sequences. */
export function opMsg(body: Document, sequences: Record<string, Document[]> = {}, flags = 0): Buffer {
  const parts: Uint8Array[] = [Buffer.from([0]), serialize(body)];
  for (const [identifier, documents] of Object.entries(sequences)) {
    const payload = Buffer.concat([Buffer.from(`${identifier}\0`), ...documents.map((d) => serialize(d))]);
    const size = Buffer.alloc(4);
    size.writeInt32LE(4 + payload.length);
    parts.push(Buffer.from([1]), size, payload);
  }
  const flagBits = Buffer.alloc(4);
  flagBits.writeUInt32LE(flags);
  const rest = Buffer.concat([flagBits, ...parts]);
  return Buffer.concat([header(16 + rest.length, nextRequestId++, OP_MSG), rest]);
}

/** A legacy OP_QUERY on `db.$cmd`, as drivers send the first handshake. */
export function opQuery(fullCollectionName: string, query: Document): Buffer {
  const flags = Buffer.alloc(4);
  const name = Buffer.from(`${fullCollectionName}\0`);
  const skipAndReturn = Buffer.alloc(8);
  skipAndReturn.writeInt32LE(-1, 4);
  const rest = Buffer.concat([flags, name, skipAndReturn, serialize(query)]);
  return Buffer.concat([header(16 + rest.length, nextRequestId++, OP_QUERY), rest]);
}

export interface RawReply {
  opCode: number;
  flags: number;
  document: Document;
}

/** One socket to the server: send bytes, read whole replies, see whether it was closed. */
export class RawConnection {
  private buffered = Buffer.alloc(0);
  private waiters: (() => void)[] = [];
  closed = false;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk) => {
      this.buffered = Buffer.concat([this.buffered, chunk]);
      this.wake();
    });
    socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
    socket.on('error', () => undefined);
  }

  static open(port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  send(bytes: Buffer): void {
    if (!this.closed) this.socket.write(bytes);
  }

  /** The next reply, or null when the server closed the socket first. */
  async reply(timeoutMs = 2000): Promise<RawReply | null> {
    const deadline = Date.now() + timeoutMs;
    while (this.buffered.length < 4 || this.buffered.length < this.buffered.readInt32LE(0)) {
      if (this.closed) return null;
      if (Date.now() > deadline) throw new Error('no reply in time');
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
    const length = this.buffered.readInt32LE(0);
    const frame = this.buffered.subarray(0, length);
    this.buffered = this.buffered.subarray(length);
    const opCode = frame.readInt32LE(12);
    if (opCode === OP_REPLY) return { opCode, flags: frame.readInt32LE(16), document: deserialize(frame.subarray(36)) };
    return { opCode, flags: frame.readUInt32LE(16), document: deserialize(frame.subarray(21)) };
  }

  /** Resolves true once the server has closed this socket (or false after the timeout). */
  async waitClosed(timeoutMs = 2000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!this.closed && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    return this.closed;
  }

  close(): void {
    this.socket.destroy();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}
