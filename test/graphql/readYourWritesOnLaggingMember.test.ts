// @module-tag processes
// R2 on a member that lags (issue 24 item 4): dashboard reads go to secondaries
// (secondaryPreferred). On a three-member set whose third member is hidden (it acknowledges
// majority writes but takes no reads), the one visible secondary is held back with mongod's
// `rsSyncApplyStop`. A deposit is acknowledged by the primary and the hidden member. Then:
// - a read without the consistency token returns the stale balance (the lag is real);
// - a read with `@consistentAfter` returns the fresh one: it waits on the lagging member for a
//   bounded time (DbLimits.consistentReadWaitMs), then answers from the primary, which has it;
// - once the secondary applies again, the same read answers from it, without the wait.
import type { Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DbLimits } from '../../src/db/limits.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { openAccount } from '../support/callers.ts';
import { holdBack, startTestReplSet, type TestReplSet, type TestSetMember } from '../support/replSet.ts';

const DEPOSIT = `mutation ($input: DepositInput!) { deposit(input: $input) { __typename } }`;
const BALANCE = `query ($id: ID!) { account(id: $id) { balance } }`;
const BALANCE_AFTER = `query ($token: String!, $id: ID!) @consistentAfter(token: $token) { account(id: $id) { balance } }`;
const CREATE_ITEM = `mutation ($input: CreateWorkItemInput!) { createWorkItem(input: $input) { __typename ... on CreateWorkItemSuccess { item { id } } } }`;
const CLAIM_ITEM = `mutation ($input: ClaimWorkItemInput!) { claimWorkItem(input: $input) { __typename } }`;
const ITEM = `query ($id: ID!) { workItem(id: $id) { status } }`;
const ITEM_AFTER = `query ($token: String!, $id: ID!) @consistentAfter(token: $token) { workItem(id: $id) { status } }`;

let set: TestReplSet;
let app: TestApp;
let visibleSecondary: TestSetMember;

beforeAll(async () => {
  // Member 2: hidden, priority 0. It votes and acknowledges writes; drivers never read from it.
  set = await startTestReplSet({ memberConfig: [{}, {}, { hidden: true, priority: 0 }] });
  const primary = await set.primary();
  visibleSecondary = set.members.find((m) => m !== primary && m.index !== 2)!;
  app = await startTestApp({ mongoUri: set.uri, env: { SEED_DEMO: '0' } });
  await openAccount(app, 'lag');
}, 90_000);

afterAll(async () => {
  await app?.close();
  await set?.stop();
}, 30_000);

async function depositWithToken(amount: number, requestId: string): Promise<string> {
  const res = (await app.gql(
    DEPOSIT,
    { input: { accountId: 'lag', amount, requestId } },
    { key: 'service' },
  )) as Document;
  expect(res.data.deposit.__typename).toBe('DepositSuccess');
  return res.extensions.consistencyToken as string;
}

describe('R2: read-your-writes on a lagging secondary', () => {
  it('answers the fresh balance with the token, within a bounded wait, while the plain read is stale', async () => {
    await depositWithToken(100, 'lag-1');
    // The visible secondary has the first deposit before it is held back.
    await expect
      .poll(async () => (await app.gql(BALANCE, { id: 'lag' }, { key: 'dashboard' })).data?.account?.balance, {
        timeout: 10_000,
      })
      .toBe(100);
    const release = await holdBack(visibleSecondary, 'rsSyncApplyStop');
    try {
      // w: majority, acknowledged by the primary and the hidden member.
      const token = await depositWithToken(50, 'lag-2');
      const stale = await app.gql(BALANCE, { id: 'lag' }, { key: 'dashboard' });
      expect(stale.data?.account?.balance, 'the plain read, served by the held-back secondary').toBe(100);

      const started = performance.now();
      const fresh = await app.gql(BALANCE_AFTER, { token, id: 'lag' }, { key: 'dashboard' });
      const tookMs = performance.now() - started;
      expect(fresh.errors).toBeUndefined();
      expect(fresh.data?.account?.balance, 'the read after the token').toBe(150);
      // It waited on the lagging member first (the bound), then asked the primary: not forever.
      expect(tookMs).toBeGreaterThanOrEqual(DbLimits.consistentReadWaitMs * 0.9);
      expect(tookMs).toBeLessThan(DbLimits.consistentReadWaitMs + 5_000);
      console.log(
        `[R2] stale read without the token: 100; read with the token: 150 after ${Math.round(tookMs)} ms (bound ${DbLimits.consistentReadWaitMs} ms)`,
      );

      // Still stale without the token: the fresh answer came from another member, not a caught-up one.
      expect((await app.gql(BALANCE, { id: 'lag' }, { key: 'dashboard' })).data?.account?.balance).toBe(100);
    } finally {
      await release();
    }
    await expect
      .poll(async () => (await app.gql(BALANCE, { id: 'lag' }, { key: 'dashboard' })).data?.account?.balance, {
        timeout: 10_000,
      })
      .toBe(150);
  });

  it('never holds a work-item read on the lagging member: work items are read from the primary', async () => {
    // Only the ledger's read collections opt into secondaries (src/ledger/model.ts); the client's
    // default is the primary (src/db/connect.ts), so a claim's token is met at once however far a
    // secondary lags.
    const created = (await app.gql(
      CREATE_ITEM,
      { input: { kind: 'LAG', idempotencyKey: 'lag-item' } },
      { key: 'service' },
    )) as Document;
    const id = created.data.createWorkItem.item.id as string;
    const release = await holdBack(visibleSecondary, 'rsSyncApplyStop');
    try {
      const claimed = (await app.gql(
        CLAIM_ITEM,
        { input: { id, workerId: 'lag-worker' } },
        { key: 'service' },
      )) as Document;
      expect(claimed.data.claimWorkItem.__typename).toBe('ClaimSuccess');
      const token = claimed.extensions.consistencyToken as string;
      expect((await app.gql(ITEM, { id }, { key: 'dashboard' })).data?.workItem?.status, 'the plain read').toBe(
        'PROCESSING',
      );
      const started = performance.now();
      const fresh = await app.gql(ITEM_AFTER, { token, id }, { key: 'dashboard' });
      const tookMs = performance.now() - started;
      expect(fresh.errors).toBeUndefined();
      expect(fresh.data?.workItem?.status, 'the read after the token').toBe('PROCESSING');
      expect(tookMs, 'no wait on the lagging member').toBeLessThan(DbLimits.consistentReadWaitMs);
    } finally {
      await release();
    }
  });

  it('answers from a caught-up secondary without the wait', async () => {
    const token = await depositWithToken(1, 'lag-3');
    const started = performance.now();
    const fresh = await app.gql(BALANCE_AFTER, { token, id: 'lag' }, { key: 'dashboard' });
    expect(fresh.data?.account?.balance).toBe(151);
    expect(performance.now() - started).toBeLessThan(DbLimits.consistentReadWaitMs);
  });
});
