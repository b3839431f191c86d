import type { StartupTask } from '../db/startupTask.ts';
import type { PayoutProjection } from './PayoutProjection.ts';
import { ensureWalkIndexes } from './withdrawalWalk.ts';

// The payout projection's start-up step, over the instance src/app/createApp.ts built: every
// process competes for its lease; one projects. It runs after the ledger's and the work items'
// indexes, which the projection's writes and reconciliation rely on; the projection adds the
// index its catch-up walks (on the ledger's journal, read-only), which this feature owns.

export const PAYOUT_PROJECTION_TASK = 'streams: payout projection';

export function payoutProjectionTask(projection: PayoutProjection): StartupTask {
  return {
    name: PAYOUT_PROJECTION_TASK,
    async run({ db }) {
      await ensureWalkIndexes(db);
      await projection.sink.start();
      projection.start();
      return {
        stop: async () => {
          await projection.stop();
          await projection.sink.close();
        },
      };
    },
  };
}
