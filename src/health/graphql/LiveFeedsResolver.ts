// Each live feed's state in this process, for the ops console's "feed state" chart: the feed's
// shared change stream (what /readyz also reports) and its fan-out series from /metrics
// (change_feed_up, stream_subscribers, stream_events_delivered_total, stream_resyncs_total).
import { Ctx, Field, Int, ObjectType, Query, Resolver, registerEnumType } from 'type-graphql';
import type { FeedReading } from '../../fanout/index.ts';
import { Allow, Rights } from '../../graphql/auth/index.ts';
import type { RequestContext } from '../../graphql/context.ts';
import { SafeInt } from '../../graphql/scalars.ts';

type LiveFeedsRequestContext = RequestContext<{ liveFeeds: { readings(): Promise<FeedReading[]> } }>;

const LiveFeedStatus = Object.freeze({ NEW: 'NEW', OPEN: 'OPEN', REOPENING: 'REOPENING', STOPPED: 'STOPPED' } as const);
type LiveFeedStatus = (typeof LiveFeedStatus)[keyof typeof LiveFeedStatus];
registerEnumType(LiveFeedStatus, {
  name: 'LiveFeedStatus',
  description:
    "A feed's shared change stream: NEW before it first opened, OPEN, REOPENING after a failure (with capped backoff), STOPPED at shutdown",
});
const STATUS_OF: Record<FeedReading['state'], LiveFeedStatus> = {
  new: 'NEW',
  open: 'OPEN',
  reopening: 'REOPENING',
  stopped: 'STOPPED',
};

@ObjectType({
  description:
    "One live feed (one watched collection) in this API process: its stream's state and its fan-out counters",
})
export class LiveFeedState {
  @Field(() => String, { description: 'workItems, ledgerEntries, accountBalances or holds' })
  feed!: string;

  @Field(() => Boolean, { description: 'change_feed_up: true while its shared change stream is open' })
  up!: boolean;

  @Field(() => LiveFeedStatus)
  status!: LiveFeedStatus;

  @Field(() => Int, { description: 'stream_subscribers: subscriptions attached to it now' })
  subscribers!: number;

  @Field(() => SafeInt, {
    description:
      'stream_events_delivered_total: events queued for subscribers since the process started, one per subscriber reached',
  })
  eventsDelivered!: number;

  @Field(() => SafeInt, {
    description: 'stream_resyncs_total: ResyncRequired notices sent since the process started, every reason',
  })
  resyncs!: number;
}

@Resolver()
export class LiveFeedsResolver {
  @Query(() => [LiveFeedState], {
    description: "Each live feed's state in this API process (another process has its own streams and subscribers)",
  })
  @Allow(Rights.query)
  async liveFeeds(@Ctx() ctx: LiveFeedsRequestContext): Promise<LiveFeedState[]> {
    const readings = await ctx.services.liveFeeds.readings();
    return readings.map(({ state, ...counts }) =>
      Object.assign(new LiveFeedState(), { ...counts, status: STATUS_OF[state] }),
    );
  }
}
