// Subscriptions fed by this process's change-stream watchers (never by in-process topics, which
// would miss other processes' writes). Thin: validate the arguments, attach to the feed, map
// each item onto the union.
import { ObjectId } from 'mongodb';
import { Arg, ID, Resolver, Root, Subscription, type SubscribeResolverData } from 'type-graphql';
import { z } from 'zod';
import { Allow, Rights } from '../../graphql/auth/index.ts';
import type { AppContext } from '../../graphql/context.ts';
import { appError, ErrorCode } from '../../graphql/errors.ts';
import { parseInput } from '../../graphql/parseInput.ts';
import type { FeedSubscription } from '../ChangeFeed.ts';
import type { FeedItem } from '../feedItems.ts';
import type { LiveFeeds } from '../liveFeeds.ts';
import { decodeResumeCursor } from '../resumeCursor.ts';
import type { SubscriptionOwner } from '../SubscriptionShares.ts';
import type { AccountBalanceChangedEvent, LedgerEntryAddedEvent } from '../ledgerEvents.ts';
import type { WorkItemStatusEvent } from '../workItemEvents.ts';
import {
  AccountBalanceEventResult,
  LedgerEntryEventResult,
  toAccountBalanceEventResult,
  toLedgerEntryEventResult,
  toWorkItemStatusEventResult,
  WorkItemStatusEventResult,
} from './types.ts';

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

/** Who takes a share of the socket's and the key's subscription bounds. */
function ownerOf(context: AppContext): SubscriptionOwner {
  return { connectionId: context.connectionId ?? `request:${context.requestId}`, keyId: context.principal?.keyId ?? 'anonymous' };
}

/** The feed's items, or SUBSCRIPTION_LIMIT when a bound refused the subscription. */
function attached<E>(subscription: FeedSubscription<E>): AsyncIterableIterator<FeedItem<E>> {
  if (subscription.ok) return subscription.items;
  const { limit, max } = subscription.refusal;
  const what = limit === 'feed' ? 'this feed has' : limit === 'socket' ? 'this connection holds' : 'this API key holds';
  throw appError(ErrorCode.SUBSCRIPTION_LIMIT, `${what} ${max} subscriptions already: end one first${limit === 'feed' ? ', or retry later' : ''}`, { limit, max });
}

/** The app's live feeds (src/app.ts); a subscription refuses when this process does not run them. */
function runningFeeds(context: AppContext): LiveFeeds {
  const feeds = context.services.liveFeeds;
  if (!feeds.running) throw new Error('the change-stream watchers are not running in this process');
  return feeds;
}

function subscribeWorkItemStatus({ args, context }: SubscribeResolverData<unknown, Record<string, unknown>, AppContext>) {
  const { id, kinds, after } = parseInput(workItemStatusArgs, args);
  const matches = (event: WorkItemStatusEvent) =>
    (id === undefined || event.itemId === id) && (kinds === undefined || kinds.includes(event.kind));
  return attached(runningFeeds(context).workItems.subscribe(matches, after ?? null, ownerOf(context)));
}

function subscribeLedgerEntries({ args, context }: SubscribeResolverData<unknown, Record<string, unknown>, AppContext>) {
  const { accountId: id, after } = parseInput(ledgerEntryArgs, args);
  const matches = (event: LedgerEntryAddedEvent) => id === undefined || event.accountId === id;
  return attached(runningFeeds(context).ledgerEntries.subscribe(matches, after ?? null, ownerOf(context)));
}

function subscribeAccountBalances({ args, context }: SubscribeResolverData<unknown, Record<string, unknown>, AppContext>) {
  const { accountIds, after } = parseInput(accountBalanceArgs, args);
  const wanted = new Set(accountIds);
  const matches = (event: AccountBalanceChangedEvent) => wanted.has(event.accountId);
  return attached(runningFeeds(context).accountBalances.subscribe(matches, after ?? null, ownerOf(context)));
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
