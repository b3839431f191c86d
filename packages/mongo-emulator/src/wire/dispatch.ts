import type { Document } from '../engine/types.ts';
import { CommandError } from '../errors.ts';
import { errorReply } from '../commands/lib/errorReply.ts';
import type { CommandRegistry } from '../commands/registry.ts';
import { runCommand, type CommandOutcome } from '../commands/runCommand.ts';
import type { CommandDefinition } from '../commands/types.ts';
import type { ServerState } from '../serverState.ts';
import type { Connection, RequestHandler, WireResponse } from './Connection.ts';
import { OpMsgFlags } from './constants.ts';
import type { WireRequest } from './decodeMessage.ts';

/** The only commands mongod 7 still answers over OP_QUERY: the legacy handshake. */
const OP_QUERY_COMMANDS = new Set(['hello', 'isMaster', 'ismaster']);

interface ParsedRequest {
  db: string;
  name: string;
  command: Document;
}

/**
 * Between the wire and the commands: turns a decoded request into one command run (or an
 * exhaust stream of them) and says how to answer.
 */
export class CommandDispatcher implements RequestHandler {
  constructor(
    private readonly server: ServerState,
    private readonly registry: CommandRegistry,
  ) {}

  async handle(request: WireRequest, connection: Connection): Promise<WireResponse> {
    const moreToCome = request.kind === 'msg' && (request.flags & OpMsgFlags.moreToCome) !== 0;
    const exhaustAllowed = request.kind === 'msg' && (request.flags & OpMsgFlags.exhaustAllowed) !== 0;
    let parsed: ParsedRequest;
    let definition: CommandDefinition;
    try {
      parsed = parseRequest(request);
      definition = this.resolve(parsed.name);
    } catch (error) {
      if (moreToCome) return { action: 'none' };
      return { action: 'reply', document: this.finish(errorReply(error, this.server)) };
    }
    const first = await this.run(connection, definition, parsed);
    if (first.kind === 'close') return { action: 'close' };
    if (moreToCome) return { action: 'none' };
    if (exhaustAllowed && definition.exhaustible && first.document.ok === 1 && isAwaitable(parsed.command)) {
      const next = async () => {
        if (connection.isClosed || this.server.stopSignal.aborted) return null;
        const again = await this.run(connection, definition, parsed);
        return again.kind === 'reply' && again.document.ok === 1 ? again.document : null;
      };
      return { action: 'exhaust', document: first.document, next };
    }
    return { action: 'reply', document: first.document };
  }

  private async run(
    connection: Connection,
    definition: CommandDefinition,
    parsed: ParsedRequest,
  ): Promise<CommandOutcome> {
    const outcome = await runCommand(this.server, connection, definition, parsed);
    return outcome.kind === 'reply' ? { kind: 'reply', document: this.finish(outcome.document) } : outcome;
  }

  private resolve(name: string): CommandDefinition {
    const found = this.registry.lookup(name);
    if (found.kind === 'supported') return found.definition;
    if (found.kind === 'unsupported') throw new CommandError('CommandNotSupported', `${name}: ${found.reason}`);
    throw new CommandError('CommandNotFound', `no such command: '${name}'`);
  }

  /** mongod puts the logical time on every reply of a replica-set member, errors included. */
  private finish(reply: Document): Document {
    const clock = this.server.clock;
    return { ...reply, $clusterTime: clock.clusterTimeDocument(), operationTime: clock.now() };
  }
}

function parseRequest(request: WireRequest): ParsedRequest {
  if (request.kind === 'query') {
    const command = (request.query.$query as Document | undefined) ?? request.query;
    const name = Object.keys(command)[0] ?? '';
    if (!request.fullCollectionName.endsWith('.$cmd') || !OP_QUERY_COMMANDS.has(name)) {
      throw new CommandError(
        'UnsupportedOpQueryCommand',
        `Unsupported OP_QUERY command: ${name}. The client driver may require an upgrade. ` +
          'For more details see https://dochub.mongodb.org/core/legacy-opcode-removal',
      );
    }
    return { db: request.fullCollectionName.slice(0, -'.$cmd'.length), name, command };
  }
  const command = request.command;
  const db = command.$db;
  if (typeof db !== 'string' || db.length === 0) {
    throw new CommandError('Location40571', 'OP_MSG requests require a $db argument');
  }
  return { db, name: Object.keys(command)[0] ?? '', command };
}

function isAwaitable(command: Document): boolean {
  return command.topologyVersion !== undefined && command.maxAwaitTimeMS !== undefined;
}
