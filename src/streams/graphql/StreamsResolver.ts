// Subscriptions fed by this process's change-stream watchers (never by in-process topics, which
// would miss other processes' writes). Thin: validate the arguments, attach to the feed, map
// each item onto the union.
import { ObjectId } from 'mongodb';
import { Arg, ID, Resolver, Root, Subscription, type SubscribeResolverData } from 'type-graphql';
import { z } from 'zod';
import { Allow, Rights } from '../../graphql/auth/index.ts';
import type { AppContext } from '../../graphql/context.ts';
import { parseInput } from '../../graphql/parseInput.ts';
import type { FeedItem } from '../feedItems.ts';
import { liveFeedsFor } from '../liveFeeds.ts';
import { decodeResumeCursor } from '../resumeCursor.ts';
import type { WorkItemStatusEvent } from '../workItemEvents.ts';
import { toWorkItemStatusEventResult, WorkItemStatusEventResult } from './types.ts';

/** Kinds one subscription may filter on (as many as one claim may name). */
const KINDS_PER_SUBSCRIPTION_MAX = 32;

const workItemStatusArgs = z.object({
  id: z.string().regex(/^[0-9a-fA-F]{24}$/, 'must be a 24-character hex ObjectId').transform((hex) => ObjectId.createFromHexString(hex).toHexString()).optional(),
  kinds: z.array(z.string().min(1).max(64)).min(1).max(KINDS_PER_SUBSCRIPTION_MAX).optional(),
  after: z
    .string()
    .max(8_192)
    .transform((cursor, ctx) => decodeResumeCursor(cursor) ?? (ctx.addIssue({ code: 'custom', message: 'is not a cursor of this API' }), z.NEVER))
    .optional(),
});

function subscribeWorkItemStatus({ args, context }: SubscribeResolverData<unknown, Record<string, unknown>, AppContext>) {
  const { id, kinds, after } = parseInput(workItemStatusArgs, args);
  const matches = (event: WorkItemStatusEvent) =>
    (id === undefined || event.itemId === id) && (kinds === undefined || kinds.includes(event.kind));
  return liveFeedsFor(context.db).workItems.subscribe(matches, after ?? null);
}

@Resolver()
export class StreamsResolver {
  @Subscription(() => WorkItemStatusEventResult, {
    subscribe: subscribeWorkItemStatus,
    description: 'Every committed transition of matching work items, in version order per item; `after` resumes from a cursor',
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
