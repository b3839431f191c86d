import { replCoordinator } from './lib/replCoordinator.ts';
import type { CommandDefinition } from './types.ts';

/** `replSetStepUp`: this secondary stands for election now (a step-down's hand-off, or a test). */
export const replSetStepUp: CommandDefinition = {
  names: ['replSetStepUp'],
  adminOnly: true,
  async run(context) {
    await replCoordinator(context).stepUp();
    return {};
  },
};
