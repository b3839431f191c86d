import { replCoordinator } from './lib/replCoordinator.ts';
import type { CommandDefinition } from './types.ts';

/** `replSetHeartbeat`: a member's heartbeat to another (internal; repl_set_heartbeat_args_v1.cpp). */
export const replSetHeartbeat: CommandDefinition = {
  names: ['replSetHeartbeat'],
  adminOnly: true,
  run(context) {
    const { ok: _ok, ...reply } = replCoordinator(context).processHeartbeat(context.command);
    return reply;
  },
};
