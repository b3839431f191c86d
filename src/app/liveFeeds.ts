import type { Db } from 'mongodb';
import type { StartupTask } from '../db/startupTask.ts';
import type { Logger } from '../observability/logger.ts';
import {
  ChangeFeed,
  readFeeds,
  SubscriptionShares,
  type FeedReading,
  type FeedStatus,
  type StreamsTelemetry,
} from '../fanout/index.ts';
import {
  accountBalanceFeedSpec,
  holdFeedSpec,
  ledgerEntryFeedSpec,
  type AccountBalanceChangedEvent,
  type HoldChangedEvent,
  type LedgerEntryAddedEvent,
} from '../ledger/index.ts';
import { workItemFeedSpec, type WorkItemStatusEvent } from '../work/index.ts';

// The live watchers of one app, one feed per watched collection. src/app/createApp.ts builds them once and
// hands them to the subscription resolvers (through the GraphQL context) and to /readyz; the
// live-watchers start-up task (below) opens them, in every process.

export interface LiveFeeds {
  workItems: ChangeFeed<WorkItemStatusEvent>;
  ledgerEntries: ChangeFeed<LedgerEntryAddedEvent>;
  accountBalances: ChangeFeed<AccountBalanceChangedEvent>;
  holds: ChangeFeed<HoldChangedEvent>;
  /** Subscriptions held per connection and per key, over the four feeds. */
  shares: SubscriptionShares;
  /** True between start() and stop(). */
  readonly running: boolean;
  /** Opens every feed; resolves once each stream is established. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** The feeds' statuses, or null when the watchers do not run in this process. */
  statuses(): FeedStatus[] | null;
  /** Every feed's state and fan-out counters in this process (the `liveFeeds` query), running or not. */
  readings(): Promise<FeedReading[]>;
}

export function createLiveFeeds(db: Db, logger: Logger, telemetry: StreamsTelemetry): LiveFeeds {
  const feedLogger = logger.child({ component: 'streams' });
  // One set of shares for the four feeds: a socket's and a key's bounds count every feed.
  const shares = new SubscriptionShares();
  const feeds = {
    workItems: new ChangeFeed(workItemFeedSpec(db), feedLogger, telemetry, shares),
    ledgerEntries: new ChangeFeed(ledgerEntryFeedSpec(db), feedLogger, telemetry, shares),
    accountBalances: new ChangeFeed(accountBalanceFeedSpec(db), feedLogger, telemetry, shares),
    holds: new ChangeFeed(holdFeedSpec(db), feedLogger, telemetry, shares),
  };
  const all = Object.values(feeds) as ChangeFeed<unknown>[];
  const stopAll = () => Promise.all(all.map((feed) => feed.stop())).then(() => undefined);
  let running = false;
  return {
    ...feeds,
    shares,
    get running() {
      return running;
    },
    async start() {
      if (running) throw new Error(`live feeds already run on database ${db.databaseName}`);
      try {
        await Promise.all(all.map((feed) => feed.start()));
      } catch (error) {
        await stopAll();
        throw error;
      }
      running = true;
    },
    async stop() {
      running = false;
      await stopAll();
    },
    statuses: () => (running ? all.map((feed) => feed.status) : null),
    readings: () =>
      readFeeds(
        telemetry,
        all.map((feed) => feed.status),
      ),
  };
}

export const LIVE_WATCHERS_TASK = 'streams: live watchers';

export function liveWatchersTask(feeds: LiveFeeds): StartupTask {
  return {
    name: LIVE_WATCHERS_TASK,
    async run() {
      await feeds.start();
      return { stop: () => feeds.stop() };
    },
  };
}
