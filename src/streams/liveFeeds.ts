import type { Db } from 'mongodb';
import type { Registry } from 'prom-client';
import type { Logger } from '../observability/logger.ts';
import { ChangeFeed, type FeedStatus } from './ChangeFeed.ts';
import { createStreamsTelemetry } from './telemetry.ts';
import { accountBalanceFeedSpec, ledgerEntryFeedSpec, type AccountBalanceChangedEvent, type LedgerEntryAddedEvent } from './ledgerEvents.ts';
import { workItemFeedSpec, type WorkItemStatusEvent } from './workItemEvents.ts';

// The live watchers of one API process, one feed per watched collection, reachable by the
// subscription resolvers through the database handle they already hold (the context's `db`).
// Keyed by that handle, so two app instances in one test process each find their own.

export interface LiveFeeds {
  workItems: ChangeFeed<WorkItemStatusEvent>;
  ledgerEntries: ChangeFeed<LedgerEntryAddedEvent>;
  accountBalances: ChangeFeed<AccountBalanceChangedEvent>;
}

const running = new WeakMap<Db, LiveFeeds>();

/** Opens every feed; resolves once each stream is established. */
export async function startLiveFeeds(db: Db, logger: Logger, registry: Registry): Promise<{ stop(): Promise<void> }> {
  if (running.has(db)) throw new Error(`live feeds already run on database ${db.databaseName}`);
  const feedLogger = logger.child({ component: 'streams' });
  const telemetry = createStreamsTelemetry(registry);
  const feeds: LiveFeeds = {
    workItems: new ChangeFeed(workItemFeedSpec(db), feedLogger, telemetry),
    ledgerEntries: new ChangeFeed(ledgerEntryFeedSpec(db), feedLogger, telemetry),
    accountBalances: new ChangeFeed(accountBalanceFeedSpec(db), feedLogger, telemetry),
  };
  const all = Object.values(feeds) as ChangeFeed<unknown>[];
  const stopAll = () => Promise.all(all.map((feed) => feed.stop())).then(() => undefined);
  try {
    await Promise.all(all.map((feed) => feed.start()));
  } catch (error) {
    await stopAll();
    throw error;
  }
  running.set(db, feeds);
  return {
    async stop() {
      running.delete(db);
      await stopAll();
    },
  };
}

export function liveFeedsFor(db: Db): LiveFeeds {
  const feeds = running.get(db);
  if (!feeds) throw new Error('the change-stream watchers are not running in this process');
  return feeds;
}

/** The feeds' statuses, or null when the watchers do not run on this database handle. */
export function liveFeedStatuses(db: Db): FeedStatus[] | null {
  const feeds = running.get(db);
  return feeds ? Object.values(feeds).map((feed: ChangeFeed<unknown>) => feed.status) : null;
}
