// The ledger's subscriptions, fed by this process's change-stream watchers (never by in-process
// topics, which would miss other processes' writes). Thin: validate the arguments, attach to the
// feed, map each item onto the union.
import { Arg, ID, Resolver, Root, Subscription, type SubscribeResolverData } from 'type-graphql';
import { z } from 'zod';
import type { FeedItem } from '../../fanout/index.ts';
import { Allow, Rights } from '../../graphql/auth/index.ts';
import { parseInput } from '../../graphql/parseInput.ts';
import { afterCursor, attached, subscriptionOwner } from '../../graphql/subscriptions.ts';
import type { AccountBalanceChangedEvent, HoldChangedEvent, LedgerEntryAddedEvent, LedgerFeeds } from '../events.ts';
import { accountsPerSubscriptionMax, idLengthMax } from '../limits.ts';
import type { LedgerRequestContext } from './context.ts';
import {
  AccountBalanceEventResult,
  HoldEventResult,
  LedgerEntryEventResult,
  toAccountBalanceEventResult,
  toHoldEventResult,
  toLedgerEntryEventResult,
} from './eventTypes.ts';

const accountId = z.string().min(1).max(idLengthMax);

const ledgerEntryArgs = z.object({ accountId: accountId.optional(), after: afterCursor });

const accountBalanceArgs = z.object({
  accountIds: z.array(accountId).min(1).max(accountsPerSubscriptionMax),
  after: afterCursor,
});

/** The app's live feeds (src/app/liveFeeds.ts); a subscription refuses when this process does not run them. */
function runningFeeds(context: LedgerRequestContext): LedgerFeeds {
  const feeds = context.services.liveFeeds;
  if (!feeds.running) throw new Error('the change-stream watchers are not running in this process');
  return feeds;
}

function subscribeLedgerEntries({
  args,
  context,
}: SubscribeResolverData<unknown, Record<string, unknown>, LedgerRequestContext>) {
  const { accountId: id, after } = parseInput(ledgerEntryArgs, args);
  const matches = (event: LedgerEntryAddedEvent) => id === undefined || event.accountId === id;
  return attached(runningFeeds(context).ledgerEntries.subscribe(matches, after ?? null, subscriptionOwner(context)));
}

function subscribeAccountBalances({
  args,
  context,
}: SubscribeResolverData<unknown, Record<string, unknown>, LedgerRequestContext>) {
  const { accountIds, after } = parseInput(accountBalanceArgs, args);
  const wanted = new Set(accountIds);
  const matches = (event: AccountBalanceChangedEvent) => wanted.has(event.accountId);
  return attached(runningFeeds(context).accountBalances.subscribe(matches, after ?? null, subscriptionOwner(context)));
}

const holdArgs = z.object({ accountId, after: afterCursor });

function subscribeHolds({
  args,
  context,
}: SubscribeResolverData<unknown, Record<string, unknown>, LedgerRequestContext>) {
  const { accountId: id, after } = parseInput(holdArgs, args);
  const matches = (event: HoldChangedEvent) => event.accountId === id;
  return attached(runningFeeds(context).holds.subscribe(matches, after ?? null, subscriptionOwner(context)));
}

@Resolver()
export class LedgerSubscriptionResolver {
  @Subscription(() => HoldEventResult, {
    subscribe: subscribeHolds,
    description:
      "Every authorization and resolution (capture, void, expiry) of one account's holds, in order per hold; `after` resumes from a cursor",
  })
  @Allow(Rights.subscribe)
  holdChanged(
    @Root() item: FeedItem<HoldChangedEvent>,
    @Arg('accountId', () => ID) _accountId: string,
    @Arg('after', () => String, { nullable: true }) _after: string | null,
  ) {
    return toHoldEventResult(item);
  }

  @Subscription(() => LedgerEntryEventResult, {
    subscribe: subscribeLedgerEntries,
    description:
      'Every journal entry written (of one account, or of all), in version order per account; `after` resumes from a cursor',
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
    description: `Every balance change of the given accounts (at most ${accountsPerSubscriptionMax}), in version order per account; \`after\` resumes from a cursor`,
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
