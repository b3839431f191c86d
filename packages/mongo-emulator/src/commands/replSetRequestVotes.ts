import { replCoordinator } from './lib/replCoordinator.ts';
import type { CommandDefinition } from './types.ts';

/** `replSetRequestVotes`: a candidate asks this member for its vote (internal; repl_set_request_votes.cpp). */
export const replSetRequestVotes: CommandDefinition = {
  names: ['replSetRequestVotes'],
  adminOnly: true,
  run(context) {
    return replCoordinator(context).processRequestVotes(context.command);
  },
};
