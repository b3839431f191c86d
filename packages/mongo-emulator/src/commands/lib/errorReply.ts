import type { Document } from '../../engine/types.ts';
import { CommandError } from '../../errors.ts';
import type { ServerState } from '../../serverState.ts';

/** A thrown error as a reply: a CommandError as itself, anything else as a logged InternalError. */
export function errorReply(error: unknown, server: ServerState): Document {
  if (error instanceof CommandError) return error.toReply();
  server.logger.warn(`internal error: ${(error as Error)?.stack ?? String(error)}`);
  return new CommandError('InternalError', `mongo-emulator internal error: ${(error as Error)?.message}`).toReply();
}
