import { CommandError } from '../errors.ts';
import type { CommandDefinition } from './types.ts';

/** `abortTransaction`: drops the session's open transaction and its writes. */
export const abortTransaction: CommandDefinition = {
  names: ['abortTransaction'],
  acceptsWriteConcern: true,
  adminOnly: true,
  run({ server, transaction }) {
    if (!transaction) throw new CommandError('InvalidOptions', 'abortTransaction must be run within a transaction');
    server.transactions.abort(transaction);
    return {};
  },
};
