import type { Document } from '../engine/types.ts';
import { CommandError } from '../errors.ts';
import type { WireRequest } from '../wire/decodeMessage.ts';
import type { Connection, RequestHandler, WireResponse } from '../wire/Connection.ts';
import { OpMsgFlags } from '../wire/constants.ts';
import type { CommandRegistry } from './registry.ts';
import type { CommandContext, CommandDefinition, ServerState } from './types.ts';

/** The only commands mongod 7 still answers over OP_QUERY: the legacy handshake. */
const OP_QUERY_COMMANDS = new Set(['hello', 'isMaster', 'ismaster']);

/** Turns decoded requests into command runs and command results into replies. */
export class CommandDispatcher implements RequestHandler {
  constructor(
    private readonly server: ServerState,
    private readonly registry: CommandRegistry,
  ) {}

  async handle(request: WireRequest, connection: Connection): Promise<WireResponse> {
    const moreToCome = request.kind === 'msg' && (request.flags & OpMsgFlags.moreToCome) !== 0;
    const exhaustAllowed = request.kind === 'msg' && (request.flags & OpMsgFlags.exhaustAllowed) !== 0;
    let context: CommandContext;
    let definition: CommandDefinition;
    try {
      context = this.contextOf(request, connection);
      definition = this.resolve(context.name);
    } catch (error) {
      return moreToCome ? { action: 'none' } : { action: 'reply', document: this.finish(this.errorReply(error)) };
    }
    const document = await this.run(definition, context);
    if (moreToCome) return { action: 'none' };
    if (exhaustAllowed && definition.exhaustible && document.ok === 1 && isAwaitable(context.command)) {
      const next = async () => {
        if (connection.isClosed || this.server.stopSignal.aborted) return null;
        const again = await this.run(definition, context);
        return again.ok === 1 && !connection.isClosed ? again : null;
      };
      return { action: 'exhaust', document, next };
    }
    return { action: 'reply', document };
  }

  /** Runs one command and returns its finished reply (ok, $clusterTime, operationTime). */
  private async run(definition: CommandDefinition, context: CommandContext): Promise<Document> {
    this.server.counters.opcounters.command += 1;
    try {
      const result = await definition.run(context);
      return this.finish({ ...result, ok: 1 });
    } catch (error) {
      return this.finish(this.errorReply(error));
    }
  }

  private contextOf(request: WireRequest, connection: Connection): CommandContext {
    const server = this.server;
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
      const db = request.fullCollectionName.slice(0, -'.$cmd'.length);
      return { server, connection, db, name, command };
    }
    const command = request.command;
    const name = Object.keys(command)[0] ?? '';
    const db = command.$db;
    if (typeof db !== 'string' || db.length === 0) {
      throw new CommandError('Location40571', 'OP_MSG requests require a $db argument');
    }
    return { server, connection, db, name, command };
  }

  private resolve(name: string): CommandDefinition {
    const found = this.registry.lookup(name);
    if (found.kind === 'supported') return found.definition;
    if (found.kind === 'unsupported') throw new CommandError('CommandNotSupported', `${name}: ${found.reason}`);
    throw new CommandError('CommandNotFound', `no such command: '${name}'`);
  }

  private errorReply(error: unknown): Document {
    if (error instanceof CommandError) return error.toReply();
    this.server.logger.warn(`internal error: ${(error as Error)?.stack ?? String(error)}`);
    return new CommandError('InternalError', `mongo-emulator internal error: ${(error as Error)?.message}`).toReply();
  }

  /** mongod puts the logical time on every reply of a replica-set member, errors included. */
  private finish(reply: Document): Document {
    const clock = this.server.clock;
    return { ...reply, $clusterTime: clock.clusterTimeDocument(), operationTime: clock.now() };
  }
}

function isAwaitable(command: Document): boolean {
  return command.topologyVersion !== undefined && command.maxAwaitTimeMS !== undefined;
}
