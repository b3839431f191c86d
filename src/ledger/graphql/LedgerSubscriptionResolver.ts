// Subscriptions fed by this process's change-stream watchers (never by in-process topics, which
// would miss other processes' writes). Thin: validate the arguments, attach to the feed, map
// each item onto the union.
import { ObjectId } from 'mongodb';
import { Arg, ID, Resolver, Root, Subscription, type SubscribeResolverData } from 'type-graphql';
import { z } from 'zod';
import { Allow, Rights } from '../../graphql/auth/index.ts';
import type { AppContext } from '../../app/requestContext.ts';
import { parseInput } from '../../graphql/parseInput.ts';
import type { FeedItem } from '../../fanout/feedItems.ts';
import type { LiveFeeds } from '../../app/liveFeeds.ts';
import { decodeResumeCursor } from '../../changeStreams/resumeCursor.ts';
import type { AccountBalanceChangedEvent, LedgerEntryAddedEvent } from '../events.ts';
import type { WorkItemStatusEvent } from '../../work/events.ts';
import {
  AccountBalanceEventResult,
  LedgerEntryEventResult,
  toAccountBalanceEventResult,
  toLedgerEntryEventResult,
  toWorkItemStatusEventResult,
  WorkItemStatusEventResult,
} from './eventTypes.ts';

/** Kinds one subscription may filter on (as many as one claim may name). */
const KINDS_PER_SUBSCRIPTION_MAX = 32;

/** Accounts one balance subscription may follow (a console page of accounts, not a crawl). */
const ACCOUNTS_PER_SUBSCRIPTION_MAX = 100;

const accountId = z.string().min(1).max(128);

const afterCursor = z
  .string()
  .max(8_192)
  .transform((cursor, ctx) => decodeResumeCursor(cursor) ?? (ctx.addIssue({ code: 'custom', message: 'is not a cursor of this API' }), z.NEVER))
  .optional();

const workItemStatusArgs = z.object({
  id: z.string().regex(/^[0-9a-fA-F]{24}$/, 'must be a 24-character hex ObjectId').transform((hex) => ObjectId.createFromHexString(hex).toHexString()).optional(),
  kinds: z.array(z.string().min(1).max(64)).min(1).max(KINDS_PER_SUBSCRIPTION_MAX).optional(),
  after: afterCursor,
});

const ledgerEntryArgs = z.object({ accountId: accountId.optional(), after: afterCursor });

const accountBalanceArgs = z.object({ accountIds: z.array(accountId).min(1).max(ACCOUNTS_PER_SUBSCRIPTION_MAX), after: afterCursor });

/** The app's live feeds (src/app/createApp.ts); a subscription refuses when this process does not run them. */
function runningFeeds(context: AppContext): LiveFeeds {
  const feeds = context.services.liveFeeds;
  if (!feeds.running) throw new Error('the change-stream watchers are not running in this process');
  return feeds;
}

function subscribeWorkItemStatus({ args, context }: SubscribeResolverData<unknown, Record<string, unknown>, AppContext>) {
  const { id, kinds, after } = parseInput(workItemStatusArgs, args);
  const matches = (event: WorkItemStatusEvent) =>
    (id === undefined || event.itemId === id) && (kinds === undefined || kinds.includes(event.kind));
  return runningFeeds(context).workItems.subscribe(matches, after ?? null);
}

function subscribeLedgerEntries({ args, context }: SubscribeResolverData<unknown, Record<string, unknown>, AppContext>) {
  const { accountId: id, after } = parseInput(ledgerEntryArgs, args);
  const matches = (event: LedgerEntryAddedEvent) => id === undefined || event.accountId === id;
  return runningFeeds(context).ledgerEntries.subscribe(matches, after ?? null);
}

function subscribeAccountBalances({ args, context }: SubscribeResolverData<unknown, Record<string, unknown>, AppContext>) {
  const { accountIds, after } = parseInput(accountBalanceArgs, args);
  const wanted = new Set(accountIds);
  return runningFeeds(context).accountBalances.subscribe((event: AccountBalanceChangedEvent) => wanted.has(event.accountId), after ?? null);
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

  @Subscription(() => LedgerEntryEventResult, {
    subscribe: subscribeLedgerEntries,
    description: 'Every journal entry written (of one account, or of all), in version order per account; `after` resumes from a cursor',
  })
  @Allow(Rights.subscribe)
  ledgerEntryAdded(
    @Root() item: FeedItem<LedgerEntryAddedEvent>,
    @Arg('accountId', () => ID, { nullable: true }) _accountId: string | null,
    @Arg('after', () => String, { nullable: true }) _after: string | null,
  ) {
    return toLedgerEntryEventResult(item);
  }

  @Subscription(() => AccountBalanceEventResult, {
    subscribe: subscribeAccountBalances,
    description: `Every balance change of the given accounts (at most ${ACCOUNTS_PER_SUBSCRIPTION_MAX}), in version order per account; \`after\` resumes from a cursor`,
  })
  @Allow(Rights.subscribe)
  accountBalanceChanged(
    @Root() item: FeedItem<AccountBalanceChangedEvent>,
    @Arg('accountIds', () => [ID]) _accountIds: string[],
    @Arg('after', () => String, { nullable: true }) _after: string | null,
  ) {
    return toAccountBalanceEventResult(item);
  }
}
