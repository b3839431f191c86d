import { ObjectId } from 'bson';
import type { Document } from '../engine/types.ts';
import { MAX_BSON_OBJECT_SIZE_BYTES, MAX_MESSAGE_SIZE_BYTES } from '../wire/constants.ts';
import { CommandError } from '../errors.ts';
import { sleep } from './lib/sleep.ts';
import type { CommandContext, CommandDefinition } from './types.ts';

const MAX_WRITE_BATCH_SIZE = 100_000;
const LOGICAL_SESSION_TIMEOUT_MINUTES = 30;
const MIN_WIRE_VERSION = 0;
/** MongoDB 7.0. */
const MAX_WIRE_VERSION = 21;
/** The longest an awaitable hello may be asked to wait; longer asks are capped, not refused. */
const AWAIT_TIME_MAX_MS = 60_000;

/**
 * `hello` and its legacy spellings: this node is the writable primary of a one-node replica
 * set. With `topologyVersion` + `maxAwaitTimeMS` (the driver's streaming monitor) it answers
 * only when the topology changed or the wait is over.
 */
export const hello: CommandDefinition = {
  names: ['hello', 'isMaster', 'ismaster'],
  exhaustible: true,
  async run(context) {
    recordClient(context);
    await awaitTopologyChange(context);
    return describeNode(context);
  },
};

/** The first handshake on a connection carries client metadata (appName for failCommand). */
function recordClient({ command, connection }: CommandContext): void {
  const client = command.client as Document | undefined;
  if (!client || connection.clientMetadata) return;
  connection.clientMetadata = client;
  const application = client.application as Document | undefined;
  if (typeof application?.name === 'string') connection.appName = application.name;
}

async function awaitTopologyChange({ command, server, connection }: CommandContext): Promise<void> {
  const asked = command.topologyVersion as Document | undefined;
  const maxAwaitTimeMS = command.maxAwaitTimeMS;
  if (asked === undefined && maxAwaitTimeMS === undefined) return;
  if (asked === undefined) {
    throw new CommandError('Location31368', "A request with a 'maxAwaitTimeMS' must include a 'topologyVersion'");
  }
  if (maxAwaitTimeMS === undefined) {
    throw new CommandError('Location51760', "A request with a 'topologyVersion' must include 'maxAwaitTimeMS'");
  }
  const waitMs = Number(maxAwaitTimeMS);
  if (!Number.isFinite(waitMs) || waitMs < 0) {
    throw new CommandError('BadValue', 'maxAwaitTimeMS must be a non-negative integer');
  }
  const sameProcess = asked.processId instanceof ObjectId && asked.processId.equals(server.node.processId);
  const current = sameProcess && BigInt(asked.counter as bigint | number) === server.node.topologyCounter;
  if (!current) return;
  await sleep(Math.min(waitMs, AWAIT_TIME_MAX_MS), [connection.closeSignal, server.stopSignal]);
}

function describeNode({ command, name, server, connection }: CommandContext): Document {
  const { node, clock } = server;
  const opTime = { ts: clock.now(), t: node.term };
  const lastWriteDate = clock.lastWriteDate;
  const reply: Document = {
    topologyVersion: { processId: node.processId, counter: node.topologyCounter },
    hosts: [node.address],
    setName: node.setName,
    setVersion: node.setVersion,
    [name === 'hello' ? 'isWritablePrimary' : 'ismaster']: true,
    secondary: false,
    primary: node.address,
    me: node.address,
    electionId: node.electionId,
    lastWrite: { opTime, lastWriteDate, majorityOpTime: opTime, majorityWriteDate: lastWriteDate },
    maxBsonObjectSize: MAX_BSON_OBJECT_SIZE_BYTES,
    maxMessageSizeBytes: MAX_MESSAGE_SIZE_BYTES,
    maxWriteBatchSize: MAX_WRITE_BATCH_SIZE,
    localTime: new Date(),
    logicalSessionTimeoutMinutes: LOGICAL_SESSION_TIMEOUT_MINUTES,
    connectionId: connection.id,
    minWireVersion: MIN_WIRE_VERSION,
    maxWireVersion: MAX_WIRE_VERSION,
    readOnly: false,
  };
  if (command.helloOk === true) reply.helloOk = true;
  return reply;
}
