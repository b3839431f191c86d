import type { StartupTask } from '../db/startupTask.ts';
import type { LiveFeeds } from '../app/liveFeeds.ts';
import type { PayoutProjection } from './PayoutProjection.ts';
import { ensureWalkIndexes } from './withdrawalWalk.ts';

// Start-up steps of the streams, over the instances src/app/createApp.ts built: the live watchers (every
// process), then the payout projection (every process competes for its lease; one projects). They
// run after the ledger's and the work items' indexes, which the projection's writes and
// reconciliation rely on; the projection adds the index its catch-up walks (on the ledger's
// journal, read-only).

export const LIVE_WATCHERS_TASK = 'streams: live watchers';
export const PAYOUT_PROJECTION_TASK = 'streams: payout projection';

export function liveWatchersTask(feeds: LiveFeeds): StartupTask {
  return {
    name: LIVE_WATCHERS_TASK,
    async run() {
      await feeds.start();
      return { stop: () => feeds.stop() };
    },
  };
}

export function payoutProjectionTask(projection: PayoutProjection): StartupTask {
  return {
    name: PAYOUT_PROJECTION_TASK,
    async run({ db }) {
      await ensureWalkIndexes(db);
      projection.start();
      return { stop: () => projection.stop() };
    },
  };
}
