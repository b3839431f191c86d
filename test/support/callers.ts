// How tests play the API's callers, the one module for it: the ledger's calls over GraphQL
// (open an account, move money, read an account) against any app that answers `gql`, in process
// (TestApp) or as a process (AppProcess), and for load: bounded concurrency, and a caller that
// sends the same key again for as long as the answer is transient, as docs/design.md asks of clients.
import { expect } from 'vitest';
import type { GqlOptions, GqlResponse } from './app.ts';

/** What a caller needs of an app: TestApp and AppProcess both fit. */
export interface GqlTarget {
  gql<TData = any>(
    query: string,
    variables?: Record<string, unknown>,
    options?: GqlOptions,
  ): Promise<GqlResponse<TData>>;
}

const OPEN_ACCOUNT = `mutation ($input: OpenAccountInput!) { openAccount(input: $input) { __typename } }`;
const DEPOSIT = `mutation ($input: DepositInput!) { deposit(input: $input) { __typename } }`;
const WITHDRAW = `mutation ($input: WithdrawInput!) { withdraw(input: $input) { __typename } }`;
const TRANSFER = `mutation ($input: TransferInput!) { transfer(input: $input) { __typename } }`;

/** Opens `accountId` with the service key and expects OpenAccountSuccess. */
export async function openAccount(app: GqlTarget, accountId: string, currency = 'EUR'): Promise<void> {
  const res = await app.gql(OPEN_ACCOUNT, { input: { accountId, currency } }, { key: 'service' });
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  expect(res.data?.openAccount.__typename).toBe('OpenAccountSuccess');
}

/** Deposits with the service key and expects DepositSuccess. */
export async function deposit(app: GqlTarget, accountId: string, amount: number, requestId: string): Promise<void> {
  const res = await app.gql(DEPOSIT, { input: { accountId, amount, requestId } }, { key: 'service' });
  expect(res.data?.deposit.__typename).toBe('DepositSuccess');
}

/** Withdraws with the service key; returns the answer's member name. */
export async function withdraw(app: GqlTarget, accountId: string, amount: number, requestId: string): Promise<string> {
  const res = await app.gql(WITHDRAW, { input: { accountId, amount, requestId } }, { key: 'service' });
  return res.data?.withdraw.__typename as string;
}

/** Transfers with the service key and expects TransferSuccess. */
export async function transfer(
  app: GqlTarget,
  fromAccountId: string,
  toAccountId: string,
  amount: number,
  requestId: string,
): Promise<void> {
  const res = await app.gql(TRANSFER, { input: { fromAccountId, toAccountId, amount, requestId } }, { key: 'service' });
  expect(res.data?.transfer.__typename).toBe('TransferSuccess');
}

/** The account's balance and version as the API reports them now. */
export async function accountNow(app: GqlTarget, id: string): Promise<{ balance: number; version: number }> {
  const res = await app.gql(`query ($id: ID!) { account(id: $id) { balance version } }`, { id }, { key: 'dashboard' });
  return res.data.account;
}

/** The answers a caller retries with the same key: the outcome is not decided yet. */
export const TRANSIENT_ANSWERS: ReadonlySet<string> = new Set(['RequestInProgress', 'OutcomeUnknown']);

/** Sends one key until its answer is final; returns every answer, in order (the final one last). */
export async function untilFinal(send: () => Promise<string>): Promise<string[]> {
  const answers: string[] = [];
  for (;;) {
    const kind = await send();
    answers.push(kind);
    if (!TRANSIENT_ANSWERS.has(kind)) return answers;
  }
}

/** Runs `count` tasks with at most `lanes` at once. */
export async function inLanes(count: number, lanes: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (next < count) await task(next++);
    }),
  );
}
