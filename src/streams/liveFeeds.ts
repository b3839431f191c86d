import type { Db } from 'mongodb';
import type { Logger } from '../observability/logger.ts';
import { ChangeFeed, type FeedStatus } from './ChangeFeed.ts';
import { SubscriptionShares } from './SubscriptionShares.ts';
import type { StreamsTelemetry } from './telemetry.ts';
import { accountBalanceFeedSpec, ledgerEntryFeedSpec, type AccountBalanceChangedEvent, type LedgerEntryAddedEvent } from './ledgerEvents.ts';
import { workItemFeedSpec, type WorkItemStatusEvent } from './workItemEvents.ts';

// The live watchers of one app, one feed per watched collection. src/app.ts builds them once and
// hands them to the subscription resolvers (through the GraphQL context) and to /readyz; the
// live-watchers start-up task opens them.

export interface LiveFeeds {
  workItems: ChangeFeed<WorkItemStatusEvent>;
  ledgerEntries: ChangeFeed<LedgerEntryAddedEvent>;
  accountBalances: ChangeFeed<AccountBalanceChangedEvent>;
  /** Subscriptions held per connection and per key, over the three feeds. */
  shares: SubscriptionShares;
  /** True between start() and stop(). */
  readonly running: boolean;
  /** Opens every feed; resolves once each stream is established. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** The feeds' statuses, or null when the watchers do not run in this process. */
  statuses(): FeedStatus[] | null;
}

export function createLiveFeeds(db: Db, logger: Logger, telemetry: StreamsTelemetry): LiveFeeds {
  const feedLogger = logger.child({ component: 'streams' });
  // One set of shares for the three feeds: a socket's and a key's bounds count every feed.
  const shares = new SubscriptionShares();
  const feeds = {
    workItems: new ChangeFeed(workItemFeedSpec(db), feedLogger, telemetry, shares),
    ledgerEntries: new ChangeFeed(ledgerEntryFeedSpec(db), feedLogger, telemetry, shares),
    accountBalances: new ChangeFeed(accountBalanceFeedSpec(db), feedLogger, telemetry, shares),
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
  };
}
