import { CommandError } from '../errors.ts';
import type { CommandDefinition } from './types.ts';

/**
 * `commitTransaction`: applies the session's transaction at once, as one oplog group carrying
 * its lsid and txnNumber. Retrying the commit of a committed transaction succeeds again (and
 * waits for the write concern again), as on mongod.
 */
export const commitTransaction: CommandDefinition = {
  names: ['commitTransaction'],
  acceptsWriteConcern: true,
  adminOnly: true,
  run({ server, transaction }) {
    if (!transaction) throw new CommandError('InvalidOptions', 'commitTransaction must be run within a transaction');
    const info = { lsid: transaction.lsid, txnNumber: transaction.txnNumber };
    server.changeStreams.withTransaction(info, () => server.transactions.commit(transaction));
    return {};
  },
};
