import { ObjectId } from 'bson';
import type { Document } from '../engine/types.ts';
import { MAX_BSON_OBJECT_SIZE_BYTES, MAX_MESSAGE_SIZE_BYTES } from '../wire/constants.ts';
import { CommandError } from '../errors.ts';
import { sleep } from './lib/sleep.ts';
import { topologyVersionOf } from './lib/topologyVersion.ts';
import type { CommandContext, CommandDefinition } from './types.ts';
import { MemberState } from '../repl/memberState.ts';
import type { ReplCoordinator } from '../repl/ReplCoordinator.ts';

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
    recordClientMetadata(context.command, context.connection);
    await awaitTopologyChange(context);
    const reply = describeNode(context);
    // An exhaust stream re-runs this same request: the next reply waits for a change after this one.
    if (context.server.repl && context.command.topologyVersion !== undefined)
      context.command.topologyVersion = reply.topologyVersion;
    return reply;
  },
};

/**
 * The first handshake on a connection carries client metadata (appName for failCommand).
 * runCommand records it before failCommand is evaluated, as mongod "preloads ClientMetadata ahead
 * of our first hello request" (src/mongo/db/service_entry_point_common.cpp,
 * ExecCommandDatabase::_initiateCommand): a fail point with `appName` then matches the handshake
 * itself, which the SDAM spec tests (hello-command-error, backpressure-*) rely on.
 */
export function recordClientMetadata(command: Document, connection: CommandContext['connection']): void {
  if (command.internalClient !== undefined) connection.internalClient = true;
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
  const repl = server.repl;
  if (repl) {
    // A member answers as soon as its topology changes (a step-down, an election, a new config).
    if (sameProcess)
      await repl.waitForTopologyChange(BigInt(asked.counter as bigint | number), Math.min(waitMs, AWAIT_TIME_MAX_MS), [
        connection.closeSignal,
        server.stopSignal,
      ]);
    return;
  }
  const current = sameProcess && BigInt(asked.counter as bigint | number) === server.node.topologyCounter;
  if (!current) return;
  await sleep(Math.min(waitMs, AWAIT_TIME_MAX_MS), [connection.closeSignal, server.stopSignal]);
}

function describeNode(context: CommandContext): Document {
  if (context.server.repl) return describeMember(context, context.server.repl);
  const { command, name, server, connection } = context;
  const { node, clock } = server;
  const opTime = { ts: clock.now(), t: node.term };
  const lastWriteDate = clock.lastWriteDate;
  const reply: Document = {
    topologyVersion: topologyVersionOf(server),
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

/**
 * hello on a member of a replica set of processes, as the drivers' SDAM spec reads it and mongod
 * builds it (src/mongo/db/repl/hello_response.cpp): the visible hosts, `me`, the primary it knows,
 * exactly one of isWritablePrimary/secondary when it is either, electionId (the term's) on the
 * primary, and lastWrite with this member's own last applied and majority-committed optimes.
 * topologyVersion moves with every change of state, config or known primary, and an awaitable
 * hello (the drivers' streaming monitor) is answered as soon as it moves.
 */
function describeMember({ command, name, server, connection }: CommandContext, repl: ReplCoordinator): Document {
  const config = repl.config;
  const primaryKey = name === 'hello' ? 'isWritablePrimary' : 'ismaster';
  const limits = {
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
  const helloOk = command.helloOk === true ? { helloOk: true } : {};
  if (!config || repl.selfIndex < 0) {
    return {
      topologyVersion: topologyVersionOf(server),
      [primaryKey]: false,
      secondary: false,
      info: 'Does not have a valid replica set config',
      isreplicaset: true,
      ...limits,
      ...helloOk,
    };
  }
  const self = config.members[repl.selfIndex]!;
  const applied = repl.lastApplied;
  const majority = repl.majorityReadPoint;
  const reply: Document = {
    topologyVersion: topologyVersionOf(server),
    hosts: repl.visibleHosts(),
    setName: config._id,
    setVersion: config.version,
    [primaryKey]: repl.isPrimary,
    secondary: repl.state === MemberState.SECONDARY,
  };
  const primary = repl.primaryAddress;
  if (primary) reply.primary = primary;
  if (self.hidden) reply.hidden = true;
  if (self.priority === 0 && !self.hidden) reply.passive = true;
  if (Object.keys(self.tags).length > 0) reply.tags = self.tags;
  reply.me = self.host;
  if (repl.isPrimary) reply.electionId = repl.electionId;
  reply.lastWrite = {
    opTime: applied,
    lastWriteDate: repl.lastAppliedWall,
    majorityOpTime: majority,
    majorityWriteDate: new Date(majority.ts.high * 1000),
  };
  return { ...reply, ...limits, ...helloOk };
}
