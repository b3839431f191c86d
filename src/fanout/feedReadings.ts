// Each live feed of this process as the ops console charts it: its state, and its fan-out series
// read back from the registry (the numbers GET /metrics shows, so the console and a dashboard
// agree). Counters are totals since the process started; subscribers and up are values now.
import type { FeedStatus } from './ChangeFeed.ts';
import type { StreamsTelemetry } from './telemetry.ts';

export interface FeedReading {
  feed: string;
  state: FeedStatus['state'];
  /** change_feed_up: 1 while the shared change stream is open. */
  up: boolean;
  /** stream_subscribers: subscribers attached now. */
  subscribers: number;
  /** stream_events_delivered_total: events queued for subscribers, one per subscriber reached. */
  eventsDelivered: number;
  /** stream_resyncs_total, every reason summed. */
  resyncs: number;
}

/** Sums a metric's series by their `feed` label. */
function byFeed(
  values: ReadonlyArray<{ labels: Partial<Record<string, string | number>>; value: number }>,
): Map<string, number> {
  const sums = new Map<string, number>();
  for (const { labels, value } of values) {
    const feed = String(labels['feed']);
    sums.set(feed, (sums.get(feed) ?? 0) + value);
  }
  return sums;
}

/** One reading per feed of `statuses`, in their order; a feed with no series yet reads 0 (and down). */
export async function readFeeds(telemetry: StreamsTelemetry, statuses: readonly FeedStatus[]): Promise<FeedReading[]> {
  const [up, subscribers, delivered, resyncs] = await Promise.all([
    telemetry.changeFeedUp.get(),
    telemetry.streamSubscribers.get(),
    telemetry.streamEventsDeliveredTotal.get(),
    telemetry.streamResyncsTotal.get(),
  ]).then((metrics) => metrics.map((metric) => byFeed(metric.values)));
  return statuses.map(({ name, state }) => ({
    feed: name,
    state,
    up: up!.get(name) === 1,
    subscribers: subscribers!.get(name) ?? 0,
    eventsDelivered: delivered!.get(name) ?? 0,
    resyncs: resyncs!.get(name) ?? 0,
  }));
}
