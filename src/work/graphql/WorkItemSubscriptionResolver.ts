// The work items' subscription, fed by this process's change-stream watcher (never by in-process
// topics, which would miss other processes' writes). Thin: validate the arguments, attach to the
// feed, map each item onto the union.
import { ObjectId } from 'mongodb';
import { Arg, ID, Resolver, Root, Subscription, type SubscribeResolverData } from 'type-graphql';
import { z } from 'zod';
import type { FeedItem } from '../../fanout/index.ts';
import { Allow, Rights } from '../../graphql/auth/index.ts';
import { parseInput } from '../../graphql/parseInput.ts';
import { afterCursor, attached, subscriptionOwner } from '../../graphql/subscriptions.ts';
import type { WorkItemFeeds, WorkItemStatusEvent } from '../events.ts';
import { WorkLimits } from '../limits.ts';
import type { WorkRequestContext } from './context.ts';
import { toWorkItemStatusEventResult, WorkItemStatusEventResult } from './eventTypes.ts';

const workItemStatusArgs = z.object({
  id: z
    .string()
    .regex(/^[0-9a-fA-F]{24}$/, 'must be a 24-character hex ObjectId')
    .transform((hex) => ObjectId.createFromHexString(hex).toHexString())
    .optional(),
  kinds: z.array(z.string().min(1).max(WorkLimits.kindLengthMax)).min(1).max(WorkLimits.kindsPerClaimMax).optional(),
  after: afterCursor,
});

/** The app's live feeds (src/app/liveFeeds.ts); a subscription refuses when this process does not run them. */
function runningFeeds(context: WorkRequestContext): WorkItemFeeds {
  const feeds = context.services.liveFeeds;
  if (!feeds.running) throw new Error('the change-stream watchers are not running in this process');
  return feeds;
}

function subscribeWorkItemStatus({
  args,
  context,
}: SubscribeResolverData<unknown, Record<string, unknown>, WorkRequestContext>) {
  const { id, kinds, after } = parseInput(workItemStatusArgs, args);
  const matches = (event: WorkItemStatusEvent) =>
    (id === undefined || event.itemId === id) && (kinds === undefined || kinds.includes(event.kind));
  return attached(runningFeeds(context).workItems.subscribe(matches, after ?? null, subscriptionOwner(context)));
}

@Resolver()
export class WorkItemSubscriptionResolver {
  @Subscription(() => WorkItemStatusEventResult, {
    subscribe: subscribeWorkItemStatus,
    description:
      'Every committed transition of matching work items, in version order per item; `after` resumes from a cursor',
  })
  @Allow(Rights.subscribeWorkItemStatus)
  workItemStatusChanged(
    @Root() item: FeedItem<WorkItemStatusEvent>,
    @Arg('id', () => ID, { nullable: true }) _id: string | null,
    @Arg('kinds', () => [String], { nullable: true }) _kinds: string[] | null,
    @Arg('after', () => String, { nullable: true }) _after: string | null,
  ) {
    return toWorkItemStatusEventResult(item);
  }
}
