// A bench client process that sends the driver's exact findAndModify command (lsid, txnNumber,
// $clusterTime, $db) as raw OP_MSG, one request in flight per connection as a driver does, but
// without the driver's client-side work: it shows what the emulator sustains when the client
// costs little, on a machine whose cores the client shares.
import { connect, type Socket } from 'node:net';
import { once } from 'node:events';
import { deserialize, Long, serialize, UUID, type Document } from 'bson';
import { runClient, type ClientOrder } from './protocol.ts';
import { OpCode } from '../../src/wire/constants.ts';

const HEADER_BYTES = 16;

/** One socket with one request at a time. */
class WireConnection {
  readonly #socket: Socket;
  #buffered: Buffer = Buffer.alloc(0);
  #waiting: ((reply: Buffer) => void) | undefined;
  #nextRequestId = 1;

  constructor(socket: Socket) {
    this.#socket = socket;
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.#onData(chunk));
  }

  static async open(uri: string): Promise<WireConnection> {
    const { hostname, port } = new URL(uri);
    const socket = connect(Number(port), hostname);
    await once(socket, 'connect');
    return new WireConnection(socket);
  }

  command(body: Document): Promise<Document> {
    const bson = serialize(body);
    const message = Buffer.allocUnsafe(HEADER_BYTES + 5 + bson.length);
    message.writeInt32LE(message.length, 0);
    message.writeInt32LE(this.#nextRequestId++, 4);
    message.writeInt32LE(0, 8);
    message.writeInt32LE(OpCode.OP_MSG, 12);
    message.writeUInt32LE(0, HEADER_BYTES);
    message.writeUInt8(0, HEADER_BYTES + 4);
    message.set(bson, HEADER_BYTES + 5);
    const reply = new Promise<Buffer>((resolve) => (this.#waiting = resolve));
    this.#socket.write(message);
    return reply.then((frame) => deserialize(frame.subarray(HEADER_BYTES + 5)));
  }

  close(): void {
    this.#socket.destroy();
  }

  #onData(chunk: Buffer): void {
    this.#buffered = this.#buffered.length === 0 ? chunk : Buffer.concat([this.#buffered, chunk]);
    if (this.#buffered.length < 4 || this.#buffered.length < this.#buffered.readInt32LE(0)) return;
    const frame = this.#buffered;
    this.#buffered = Buffer.alloc(0);
    this.#waiting?.(frame);
  }
}

const order = JSON.parse(process.argv[2]!) as ClientOrder;
const connections = await Promise.all(Array.from({ length: order.connections }, () => WireConnection.open(order.uri)));
const sessions = connections.map(() => ({ lsid: { id: new UUID() }, txnNumber: 0n }));
let clusterTime: Document | undefined;
try {
  await runClient(order, async (k, i) => {
    const session = sessions[k]!;
    session.txnNumber += 1n;
    const reply = await connections[k]!.command({
      findAndModify: order.collection,
      query: { _id: i % order.documents },
      remove: false,
      new: true,
      upsert: false,
      update: { $inc: { n: 1 } },
      lsid: session.lsid,
      txnNumber: Long.fromBigInt(session.txnNumber),
      ...(clusterTime ? { $clusterTime: clusterTime } : {}),
      $db: order.db,
    });
    if (reply.ok !== 1 || !reply.value) throw new Error(`findAndModify failed: ${JSON.stringify(reply)}`);
    clusterTime = reply.$clusterTime as Document;
  });
} finally {
  for (const connection of connections) connection.close();
}
process.disconnect();
