// Helpers of the ledger-subscription tests: money moves over HTTP (service key), the two ledger
// subscriptions read to a count, and their feeds' subscriber counts.
import { expect } from 'vitest';
import type { Role } from '../../../src/access/roles.ts';
import type { TestApp } from '../../support/app.ts';
import type { TestSubscription } from '../../support/ws.ts';
import { waitFor } from './streamsTest.ts';

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
export async function subscribeLedger(app: TestApp, feed: LedgerFeed, variables: Record<string, unknown>, role: Role = 'ops'): Promise<TestSubscription> {
  const before = ledgerSubscriberCount(app, feed);
  const sub = app.ws(role).subscribe(feed === 'ledgerEntries' ? LEDGER_ENTRY_ADDED : ACCOUNT_BALANCE_CHANGED, variables);
  await waitFor(() => ledgerSubscriberCount(app, feed) > before, `a ${feed} subscriber`);
  return sub;
}

/** Reads `count` events of either ledger subscription. */
export async function takeLedger(subscription: TestSubscription, count: number, timeoutMs = 10_000): Promise<LedgerEvent[]> {
  const events: LedgerEvent[] = [];
  while (events.length < count) {
    const result = await subscription.next(timeoutMs);
    expect(result.errors).toBeUndefined();
    const data = result.data as { ledgerEntryAdded?: LedgerEvent; accountBalanceChanged?: LedgerEvent };
    events.push((data.ledgerEntryAdded ?? data.accountBalanceChanged) as LedgerEvent);
  }
  return events;
}

const MOVE_FIELDS = '__typename';

export async function openAccount(app: TestApp, accountId: string, currency = 'EUR'): Promise<void> {
  const res = await app.gql(`mutation ($input: OpenAccountInput!) { openAccount(input: $input) { __typename } }`, { input: { accountId, currency } }, { key: 'service' });
  expect(res.data?.openAccount.__typename).toBe('OpenAccountSuccess');
}

export async function deposit(app: TestApp, accountId: string, amount: number, requestId: string): Promise<void> {
  const res = await app.gql(`mutation ($input: DepositInput!) { deposit(input: $input) { ${MOVE_FIELDS} } }`, { input: { accountId, amount, requestId } }, { key: 'service' });
  expect(res.data?.deposit.__typename).toBe('DepositSuccess');
}

export async function withdraw(app: TestApp, accountId: string, amount: number, requestId: string): Promise<string> {
  const res = await app.gql(`mutation ($input: WithdrawInput!) { withdraw(input: $input) { ${MOVE_FIELDS} } }`, { input: { accountId, amount, requestId } }, { key: 'service' });
  return res.data?.withdraw.__typename as string;
}

export async function transfer(app: TestApp, fromAccountId: string, toAccountId: string, amount: number, requestId: string): Promise<void> {
  const res = await app.gql(`mutation ($input: TransferInput!) { transfer(input: $input) { ${MOVE_FIELDS} } }`, { input: { fromAccountId, toAccountId, amount, requestId } }, { key: 'service' });
  expect(res.data?.transfer.__typename).toBe('TransferSuccess');
}

/** The account's balance and version as the API reports them now. */
export async function accountNow(app: TestApp, id: string): Promise<{ balance: number; version: number }> {
  const res = await app.gql(`query ($id: ID!) { account(id: $id) { balance version } }`, { id }, { key: 'dashboard' });
  return res.data.account;
}
