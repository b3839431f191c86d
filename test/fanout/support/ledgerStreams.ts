// Helpers of the ledger-subscription tests: the two ledger subscriptions read to a count, and
// their feeds' subscriber counts (the money moves are support/callers.ts's).
import { expect } from 'vitest';
import type { Role } from '../../../src/access/roles.ts';
import type { TestApp } from '../../support/app.ts';
import type { TestSubscription } from '../../support/ws.ts';
import { waitFor } from '../../support/waiting.ts';

export const LEDGER_ENTRY_ADDED = `subscription ($accountId: ID, $after: String) {
  ledgerEntryAdded(accountId: $accountId, after: $after) {
    __typename
    ... on LedgerEntryAdded { cursor entryId requestId accountId currency kind amount balanceAfter versionAfter counterpartyAccountId createdAt }
    ... on ResyncRequired { cursor reason }
  }
}`;

export const ACCOUNT_BALANCE_CHANGED = `subscription ($accountIds: [ID!]!, $after: String) {
  accountBalanceChanged(accountIds: $accountIds, after: $after) {
    __typename
    ... on AccountBalanceChanged { cursor accountId balance version at }
    ... on ResyncRequired { cursor reason }
  }
}`;

export interface LedgerEvent {
  __typename: 'LedgerEntryAdded' | 'AccountBalanceChanged' | 'ResyncRequired';
  cursor: string;
  entryId?: string;
  requestId?: string;
  accountId?: string;
  kind?: string;
  amount?: number;
  balanceAfter?: number;
  versionAfter?: number;
  counterpartyAccountId?: string | null;
  balance?: number;
  version?: number;
  reason?: string;
}

type LedgerFeed = 'ledgerEntries' | 'accountBalances';

export function ledgerSubscriberCount(app: TestApp, feed: LedgerFeed): number {
  return app.services.liveFeeds[feed].subscriberCount;
}

/** Opens a subscription and waits until its feed has attached it. */
export async function subscribeLedger(
  app: TestApp,
  feed: LedgerFeed,
  variables: Record<string, unknown>,
  role: Role = 'ops',
): Promise<TestSubscription> {
  const before = ledgerSubscriberCount(app, feed);
  const sub = app
    .ws(role)
    .subscribe(feed === 'ledgerEntries' ? LEDGER_ENTRY_ADDED : ACCOUNT_BALANCE_CHANGED, variables);
  await waitFor(() => ledgerSubscriberCount(app, feed) > before, `a ${feed} subscriber`);
  return sub;
}

/** Reads `count` events of either ledger subscription. */
export async function takeLedger(
  subscription: TestSubscription,
  count: number,
  timeoutMs = 10_000,
): Promise<LedgerEvent[]> {
  const events: LedgerEvent[] = [];
  while (events.length < count) {
    const result = await subscription.next(timeoutMs);
    expect(result.errors).toBeUndefined();
    const data = result.data as { ledgerEntryAdded?: LedgerEvent; accountBalanceChanged?: LedgerEvent };
    events.push((data.ledgerEntryAdded ?? data.accountBalanceChanged) as LedgerEvent);
  }
  return events;
}
