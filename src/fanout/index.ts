// Fan-out's public module: one shared change stream per feed, delivered to many subscribers.
export { ChangeFeed, type FeedSpec, type FeedStatus, type FeedSubscription } from './ChangeFeed.ts';
export { ResyncReason, type FeedEvent, type FeedItem, type FeedResync } from './feedItems.ts';
export { readFeeds, type FeedReading } from './feedReadings.ts';
export { FeedLimits } from './limits.ts';
export { createStreamsTelemetry, type StreamsTelemetry } from './telemetry.ts';
export {
  SubscriptionLimit,
  SubscriptionShares,
  type SubscriptionOwner,
  type SubscriptionRefusal,
} from './SubscriptionShares.ts';
