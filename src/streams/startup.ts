import type { Db } from 'mongodb';
import type { StartupTask } from '../db/startupTasks.ts';
import { startLiveFeeds } from './liveFeeds.ts';
import { PayoutProjection, type PayoutProjectionOptions, type ProjectionStatus } from './projection/PayoutProjection.ts';
import { ensureWalkIndexes } from './projection/withdrawalWalk.ts';

// Start-up steps of the streams: the live watchers (every process), then the payout projection
// (every process competes for its lease; one projects). They run after the ledger's and the work
// items' indexes, which the projection's writes and reconciliation rely on; the projection adds
// the index its catch-up walks (on the ledger's journal, read-only).

export const liveWatchersTask: StartupTask = {
  name: 'streams: live watchers',
  run: ({ db, logger, registry }) => startLiveFeeds(db, logger, registry),
};

// The running projection per database handle, for /readyz (as liveFeeds.ts does for the feeds).
const projections = new WeakMap<Db, PayoutProjection>();

/** The payout projection's status in this process, or null when it does not run here. */
export function payoutProjectionStatus(db: Db): ProjectionStatus | null {
  return projections.get(db)?.status ?? null;
}

export function payoutProjectionTask(options: PayoutProjectionOptions = {}): StartupTask {
  return {
    name: 'streams: payout projection',
    async run({ db, logger, registry }) {
      await ensureWalkIndexes(db);
      const projection = new PayoutProjection(db, logger.child({ component: 'payoutProjection' }), registry, options);
      projection.start();
      projections.set(db, projection);
      return {
        async stop() {
          projections.delete(db);
          await projection.stop();
        },
      };
    },
  };
}

export const streamStartupTasks: readonly StartupTask[] = [liveWatchersTask, payoutProjectionTask()];
