import type { Document } from '../engine/types.ts';
import { CommandError } from '../errors.ts';
import { failCommandErrorReply, type FailCommandAction } from '../failpoints/failCommand.ts';
import { errorReply } from './lib/errorReply.ts';
import { addAutomaticLabels } from './lib/errorLabels.ts';
import { sleep } from './lib/sleep.ts';
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
    const action = server.failPoints.failCommandFor({
      names: definition.names,
      appName: connection.appName,
      namespace: namespaceOf(request),
    });
    if (action?.blockTimeMS !== undefined) await sleep(action.blockTimeMS, [connection.closeSignal, server.stopSignal]);
    if (action?.closeConnection) return { kind: 'close' };
    if (action?.errorCode !== undefined) return { kind: 'reply', document: addAutomaticLabels(failCommandErrorReply(action), labels) };
    const writeConcernError = definition.acceptsWriteConcern ? checkWriteConcern(command) : undefined;
    checkReadConcern(command, server.clock);
    const session = server.sessions.touch(command.lsid);
    scope = enterStatement(server, definition, command, session);
    // A transaction's statement or a snapshot read sees the server through its own catalog.
    const { catalog, transaction, command: statement } = scope.context;
    const context: CommandContext = { connection, ...request, server: catalog ? { ...server, catalog } : server, transaction, command: statement, session };
    await scope.prepare(context);
    const result = await definition.run(context);
    const reply: Document = scope.finish({ ...result, ok: 1 });
    attachAfterWrite(reply, writeConcernError, action);
    return { kind: 'reply', document: addAutomaticLabels(reply, labels) };
  } catch (error) {
    scope?.fail();
    counted.failed += 1;
    return { kind: 'reply', document: addAutomaticLabels(errorReply(error, server), labels) };
  }
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
function attachAfterWrite(reply: Document, writeConcernError: Document | undefined, action: FailCommandAction | undefined): void {
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
