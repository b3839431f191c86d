// `npx tsx packages/mongo-emulator/bench/pipeline.bench.ts`: the server's own CPU per command,
// without TCP or a client sharing the cores: the driver's exact findAndModify (lsid, txnNumber,
// $clusterTime) taken from bytes through decode, dispatch (fail points, sessions, retryable-write
// bookkeeping, clock, oplog) and reply encoding. CPU time per batch, so other processes on the
// machine skew it less than wall time; p10 and median of the batches are printed.
import { Socket } from 'node:net';
import { Binary, Long, serialize, UUID } from 'bson';
import { CommandDispatcher } from '../src/wire/dispatch.ts';
import { CommandRegistry } from '../src/commands/registry.ts';
import { createServerState } from '../src/serverState.ts';
import { Connection } from '../src/wire/Connection.ts';
import { decodeMessage } from '../src/wire/decodeMessage.ts';
import { encodeOpMsgReply } from '../src/wire/encodeReply.ts';
import { OpCode } from '../src/wire/constants.ts';

const DOCUMENTS = 1000;
const SESSIONS = 16;
const WARMUP_OPS = 5000;
const BATCHES = 80;
const OPS_PER_BATCH = 500;
const HEADER_AND_FLAGS_BYTES = 21;

const stop = new AbortController();
const logger = { info: () => undefined, warn: () => undefined };
const state = createServerState({
  address: '127.0.0.1:0',
  host: '127.0.0.1',
  port: 0,
  replSetName: 'rs0',
  oplogMaxEntries: 10_000,
  logger,
  stopSignal: stop.signal,
});
const dispatcher = new CommandDispatcher(state, new CommandRegistry());
const connection = new Connection(1, new Socket(), dispatcher, logger);
const collection = state.catalog.getOrCreateCollection('bench', 'items');
for (let i = 0; i < DOCUMENTS; i++) collection.insertOne({ _id: i, n: 0 });
const sessions = Array.from({ length: SESSIONS }, () => ({ lsid: { id: new UUID() }, txnNumber: 0n }));

/** The OP_MSG bytes the driver sends for findOneAndUpdate({_id}, {$inc: {n: 1}}, {returnDocument: 'after'}). */
function request(i: number): Buffer {
  const session = sessions[i % SESSIONS]!;
  session.txnNumber += 1n;
  const body = serialize({
    findAndModify: 'items',
    query: { _id: i % DOCUMENTS },
    remove: false,
    new: true,
    upsert: false,
    update: { $inc: { n: 1 } },
    lsid: session.lsid,
    txnNumber: Long.fromBigInt(session.txnNumber),
    $clusterTime: { clusterTime: state.clock.now(), signature: { hash: new Binary(Buffer.alloc(20)), keyId: 0 } },
    $db: 'bench',
  });
  const message = Buffer.alloc(HEADER_AND_FLAGS_BYTES + body.length);
  message.writeInt32LE(message.length, 0);
  message.writeInt32LE(i, 4);
  message.writeInt32LE(OpCode.OP_MSG, 12);
  message.set(body, HEADER_AND_FLAGS_BYTES);
  return message;
}

async function serve(frame: Buffer): Promise<void> {
  const response = await dispatcher.handle(decodeMessage(frame), connection);
  if (response.action !== 'reply' || response.document.ok !== 1)
    throw new Error(`findAndModify failed: ${JSON.stringify(response)}`);
  encodeOpMsgReply(response.document, 1, 1);
}

let next = 0;
for (let i = 0; i < WARMUP_OPS; i++) await serve(request(next++));
const cpuUsPerOp: number[] = [];
for (let b = 0; b < BATCHES; b++) {
  const frames = Array.from({ length: OPS_PER_BATCH }, () => request(next++));
  const before = process.cpuUsage();
  for (const frame of frames) await serve(frame);
  const used = process.cpuUsage(before);
  cpuUsPerOp.push((used.user + used.system) / OPS_PER_BATCH);
}
cpuUsPerOp.sort((a, b) => a - b);
const at = (q: number) => cpuUsPerOp[Math.floor(q * (cpuUsPerOp.length - 1))]!.toFixed(1);
console.log(
  `findAndModify through decode, dispatch and encode: CPU per op p10 ${at(0.1)} µs, median ${at(0.5)} µs (${BATCHES} batches of ${OPS_PER_BATCH}, node ${process.version})`,
);
stop.abort();
state.transactions.stop();
connection.close();
