import { Timestamp } from 'bson';
import type { Document } from '../engine/types.ts';
import { checkCanRunHere } from './lib/replicaSetRules.ts';
import { CommandError } from '../errors.ts';
import { failCommandErrorReply, type FailCommandAction } from '../failpoints/failCommand.ts';
import { errorReply } from './lib/errorReply.ts';
import { addAutomaticLabels, NOT_PRIMARY_CODES } from './lib/errorLabels.ts';
import { sleep } from './lib/sleep.ts';
import { topologyVersionOf } from './lib/topologyVersion.ts';
import { hello, recordClientMetadata } from './hello.ts';
import { checkReadConcern } from './lib/readConcern.ts';
import { checkWriteConcern } from './lib/writeConcern.ts';
import { enterStatement, type StatementScope } from '../txn/statementScope.ts';
import type { ServerState } from '../serverState.ts';
import type { ClientConnection, CommandContext, CommandDefinition } from './types.ts';

export type CommandOutcome = { kind: 'reply'; document: Document } | { kind: 'close' };

/**
 * One command, in mongod's order: refuse what this server does not do, let `failCommand` act
 * before the command (block, close, fail), validate the write concern, place the command in its
 * transaction (or snapshot, or behind the transactions holding what it writes), run, then attach
 * what comes after the write (writeConcernError, automatic error labels).
 */
export async function runCommand(
  server: ServerState,
  connection: ClientConnection,
  definition: CommandDefinition,
  request: { db: string; name: string; command: Document },
): Promise<CommandOutcome> {
  server.counters.opcounters.command += 1;
  const counted = commandCounter(server, definition.names[0]!);
  counted.total += 1;
  const { command } = request;
  // Plain data, not a closure per command: tsx names every closure it makes (a defineProperty).
  const labels = { commandName: definition.names[0]!, command };
  let scope: StatementScope | undefined;
  try {
    refuseUnsupported(definition, request);
    if (definition === hello) recordClientMetadata(command, connection);
    const action = server.failPoints.failCommandFor({
      names: definition.names,
      appName: connection.appName,
      namespace: namespaceOf(request),
      internalClient: connection.internalClient,
    });
    if (action?.blockTimeMS !== undefined) await sleep(action.blockTimeMS, [connection.closeSignal, server.stopSignal]);
    if (action?.closeConnection) return { kind: 'close' };
    if (action?.errorCode !== undefined)
      return { kind: 'reply', document: finished(server, failCommandErrorReply(action), labels) };
    const repl = server.repl;
    if (repl !== undefined) {
      // A member's clock moves with the cluster time its clients gossip (mongod's VectorClock).
      const gossiped = (command.$clusterTime as Document | undefined)?.clusterTime;
      if (gossiped instanceof Timestamp) server.clock.advanceTo(gossiped);
      checkCanRunHere(repl, definition.names[0]!, command);
    }
    const oneNodeWriteConcernError = definition.acceptsWriteConcern ? checkWriteConcern(command) : undefined;
    const writeConcernError = repl === undefined ? oneNodeWriteConcernError : undefined;
    checkReadConcern(command, server.clock);
    if (repl !== undefined && command.readConcern !== undefined) {
      const maxTimeMS = Number(command.maxTimeMS ?? 0);
      await repl.awaitReadConcern(command.readConcern as Document, maxTimeMS > 0 ? Date.now() + maxTimeMS : undefined, [
        connection.closeSignal,
        server.stopSignal,
      ]);
    }
    const session = server.sessions.touch(command.lsid);
    scope = enterStatement(server, definition, command, session);
    // A transaction's statement or a snapshot read sees the server through its own catalog.
    const { catalog, transaction, command: statement } = scope.context;
    const context: CommandContext = {
      connection,
      ...request,
      server: catalog ? { ...server, catalog } : server,
      transaction,
      command: statement,
      session,
    };
    await scope.prepare(context);
    // The transaction is active while its statement runs, idle (a `$currentOp` idle session
    // naming this client) between statements.
    transaction?.checkOut({
      connectionId: connection.id,
      client: connection.remoteAddress,
      appName: connection.appName,
      clientMetadata: connection.clientMetadata,
    });
    let result: Document;
    try {
      result = await definition.run(context);
    } finally {
      transaction?.checkIn();
    }
    const reply: Document = scope.finish({ ...result, ok: 1 });
    const waitsForWriteConcern =
      definition.acceptsWriteConcern && (command.autocommit === undefined || definition.adminOnly === true);
    // One node on a dbpath: j:true and w:majority (the implicit default) wait for the journal,
    // as mongod's do (writeConcernMajorityJournalDefault is true on a one-node set).
    if (
      repl === undefined &&
      waitsForWriteConcern &&
      server.storage !== undefined &&
      journals(command.writeConcern as Document | undefined)
    )
      await server.storage.waitDurable();
    const replicated =
      repl !== undefined && waitsForWriteConcern
        ? await awaitReplication(server, command, connection)
        : writeConcernError;
    attachAfterWrite(reply, replicated, action);
    return { kind: 'reply', document: finished(server, reply, labels) };
  } catch (error) {
    scope?.fail();
    counted.failed += 1;
    return { kind: 'reply', document: finished(server, errorReply(error, server), labels) };
  }
}

/**
 * What mongod adds to every reply before it goes out (service_entry_point_common.cpp,
 * appendErrorLabelsAndTopologyVersion): the automatic error labels, and on a replica set member a
 * reply whose error or writeConcernError is a NotPrimaryError carries the member's topologyVersion
 * (stepping down bumps it first). A driver compares it with the one its monitor last saw: the same
 * version means the error is stale for topology purposes (SDAM, "Error handling"), so a fail point's
 * not-primary error on a primary that did not change leaves the server selectable, as on mongod;
 * without it the driver marked the server Unknown and waited up to a heartbeat for its monitor.
 */
function finished(server: ServerState, reply: Document, labels: { commandName: string; command: Document }): Document {
  const labelled = addAutomaticLabels(reply, labels);
  const code = labelled.ok === 0 ? Number(labelled.code) : NaN;
  const concernCode = Number((labelled.writeConcernError as Document | undefined)?.code);
  if (!NOT_PRIMARY_CODES.has(code) && !NOT_PRIMARY_CODES.has(concernCode)) return labelled;
  // A standalone's errors carry none (mongod appends it only when it runs as a replica set).
  if (server.repl === undefined && !server.node.setName) return labelled;
  return { ...labelled, topologyVersion: topologyVersionOf(server) };
}

/**
 * A replica-set member's write concern, after the write: the default is w:majority, as on a
 * mongod 5.0+ set without arbiters (the implicit default write concern). Transaction statements
 * wait at commit (commitTransaction and abortTransaction, the adminOnly ones), not per statement.
 */
async function awaitReplication(
  server: ServerState,
  command: Document,
  connection: ClientConnection,
): Promise<Document | undefined> {
  const repl = server.repl!;
  const writeConcern = (command.writeConcern as Document | undefined) ?? { w: 'majority' };
  return repl.awaitWriteConcern(writeConcern, repl.lastApplied, [connection.closeSignal, server.stopSignal]);
}

/** Whether a one-node write concern waits for the journal: j:true, or w:majority unless j:false; never w:0. */
function journals(writeConcern: Document | undefined): boolean {
  const w = writeConcern?.w ?? 'majority';
  const j = writeConcern?.j;
  if (w === 0 || w === 0n) return false;
  if (j === true || j === 1) return true;
  if (j === false || j === 0) return false;
  return w === 'majority';
}

/** The command's entry in serverStatus's metrics.commands, made on its first run. */
function commandCounter(server: ServerState, name: string): { total: number; failed: number } {
  let counter = server.counters.commands.get(name);
  if (!counter) {
    counter = { total: 0, failed: 0 };
    server.counters.commands.set(name, counter);
  }
  return counter;
}

function refuseUnsupported(definition: CommandDefinition, { db, name }: { db: string; name: string }): void {
  if (definition.adminOnly && db !== 'admin') {
    throw new CommandError('Unauthorized', `${name} may only be run against the admin database.`);
  }
}

/** A write concern the set cannot satisfy, or failCommand's writeConcernError, goes on after the write. */
function attachAfterWrite(
  reply: Document,
  writeConcernError: Document | undefined,
  action: FailCommandAction | undefined,
): void {
  const injected = action?.writeConcernError;
  if (injected) {
    reply.writeConcernError = injected;
    if (action.errorLabels !== undefined) reply.errorLabels = action.errorLabels;
  } else if (writeConcernError) {
    reply.writeConcernError = writeConcernError;
  }
}

function namespaceOf({ db, name, command }: { db: string; name: string; command: Document }): string {
  const target = command[name];
  return typeof target === 'string' ? `${db}.${target}` : `${db}.$cmd`;
}
