import type { Document } from '../engine/types.ts';
import { CommandError } from '../errors.ts';
import { replCoordinator } from './lib/replCoordinator.ts';
import type { CommandDefinition } from './types.ts';

/** `replSetReconfig`: a new configuration version (priority, votes, hidden, secondaryDelaySecs...). */
export const replSetReconfig: CommandDefinition = {
  names: ['replSetReconfig'],
  adminOnly: true,
  run(context) {
    const config = context.command.replSetReconfig;
    if (!config || typeof config !== 'object')
      throw new CommandError('TypeMismatch', "BSON field 'replSetReconfig' is the wrong type, expected type 'object'");
    replCoordinator(context).reconfig(config as Document, context.command.force === true);
    return {};
  },
};
