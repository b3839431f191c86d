import { CommandError } from '../errors.ts';
import type { CommandDefinition } from './types.ts';

/**
 * `commitTransaction`: applies the session's transaction at once. Retrying the commit of a
 * committed transaction succeeds again (and waits for the write concern again), as on mongod.
 */
export const commitTransaction: CommandDefinition = {
  names: ['commitTransaction'],
  acceptsWriteConcern: true,
  adminOnly: true,
  run({ server, transaction }) {
    if (!transaction) throw new CommandError('InvalidOptions', 'commitTransaction must be run within a transaction');
    server.transactions.commit(transaction);
    return {};
  },
};
