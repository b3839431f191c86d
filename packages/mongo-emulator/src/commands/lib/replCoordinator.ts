import { CommandError } from '../../errors.ts';
import type { ReplCoordinator } from '../../repl/ReplCoordinator.ts';
import type { CommandContext } from '../types.ts';

/** The member's coordinator; a one-node emulator (started without --nodes/--uninitiated) has none. */
export function replCoordinator({ server }: CommandContext): ReplCoordinator {
  if (!server.repl)
    throw new CommandError(
      'NoReplicationEnabled',
      'this one-node emulator runs no replication (start it with --nodes or --uninitiated)',
    );
  return server.repl;
}
