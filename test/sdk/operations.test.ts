// Proves every operation of the SDK against the running API: each method sends its generated
// document and resolves to its typed value, mutations to their union member with the key used
// and the attempts; keys are made once when left out; match() is exhaustive with an `unknown`
// branch; retries happen with the same key exactly on what the contract lists, never on
// BAD_USER_INPUT, FORBIDDEN or UNAUTHENTICATED.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createClient,
  match,
  PreconditionError,
  type FetchLike,
  type PreconditionClient,
} from '../../packages/sdk/src/index.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { testMongoEngine } from '../support/mongo.ts';
import { recordingFetch, UUID_V4 } from './support/fetches.ts';

let app: TestApp;
let admin: PreconditionClient;
beforeAll(async () => {
  app = await startTestApp();
  admin = createClient({ url: app.url, apiKey: app.keys.admin });
});
afterAll(async () => {
  await app?.close();
});

describe('queries and mutations', () => {
  it('moves money through openAccount, deposit, withdraw and transfer, and reads it back through every ledger query', async () => {
    const opened = await admin.openAccount({ accountId: 'sdk-a', currency: 'EUR' });
    expect(opened).toMatchObject({
      __typename: 'OpenAccountSuccess',
      account: { id: 'sdk-a', balance: 0, currency: 'EUR' },
    });
    expect(opened.$meta).toEqual({ idempotencyKey: null, attempts: 1 });
    await admin.openAccount({ accountId: 'sdk-b', currency: 'EUR' });

    const deposit = await admin.deposit({ accountId: 'sdk-a', amount: 100 });
    expect(deposit).toMatchObject({
      __typename: 'DepositSuccess',
      account: { balance: 100 },
      entry: { kind: 'deposit', amount: 100 },
    });
    expect(deposit.$meta.idempotencyKey).toMatch(UUID_V4);
    expect(deposit.__typename === 'DepositSuccess' && deposit.entry.requestId).toBe(deposit.$meta.idempotencyKey);

    const withdraw = await admin.withdraw({ accountId: 'sdk-a', amount: 30, requestId: 'sdk-w-1' });
    expect(withdraw).toMatchObject({ __typename: 'WithdrawSuccess', account: { balance: 70 } });
    expect(withdraw.$meta).toEqual({ idempotencyKey: 'sdk-w-1', attempts: 1 });
    const replay = await admin.withdraw({ accountId: 'sdk-a', amount: 30, requestId: 'sdk-w-1' });
    expect(replay).toMatchObject({
      __typename: 'DuplicateReplayed',
      requestId: 'sdk-w-1',
      original: { __typename: 'WithdrawSuccess' },
    });
    expect(await admin.withdraw({ accountId: 'sdk-a', amount: 1000 })).toMatchObject({
      __typename: 'InsufficientFunds',
      balance: 70,
    });

    const transfer = await admin.transfer({ fromAccountId: 'sdk-a', toAccountId: 'sdk-b', amount: 20 });
    expect(transfer).toMatchObject({ __typename: 'TransferSuccess', from: { balance: 50 }, to: { balance: 20 } });

    expect(await admin.account('sdk-a')).toMatchObject({ id: 'sdk-a', balance: 50 });
    expect(await admin.account('sdk-nope')).toBeNull();
    const accounts = await admin.accounts({ first: 100 });
    expect(accounts.items.map((account) => account.id)).toEqual(expect.arrayContaining(['sdk-a', 'sdk-b']));
    expect((await admin.accounts()).items.length).toBeGreaterThan(0);
    const entries = await admin.ledgerEntries({ accountId: 'sdk-a' });
    expect(entries.items.map((entry) => entry.kind)).toEqual(['transferOut', 'withdrawal', 'deposit']);
    expect(await admin.ledgerEntry('sdk-w-1')).toMatchObject({ accountId: 'sdk-a', amount: 30, balanceAfter: 70 });
    expect(await admin.ledgerEntry('sdk-nope')).toBeNull();
  });

  it('runs a work item through create, claim, heartbeat, complete and requeue, and reads it through every work query', async () => {
    const created = await admin.createWorkItem({ kind: 'SDK_JOB', payload: { n: 1 }, maxAttempts: 1 });
    expect(created.__typename).toBe('CreateWorkItemSuccess');
    expect(created.$meta.idempotencyKey).toMatch(UUID_V4);
    if (created.__typename !== 'CreateWorkItemSuccess') throw new Error('not created');
    const again = await admin.createWorkItem({
      kind: 'SDK_JOB',
      payload: { n: 1 },
      maxAttempts: 1,
      idempotencyKey: created.$meta.idempotencyKey!,
    });
    expect(again).toMatchObject({
      __typename: 'DuplicateReplayed',
      original: { __typename: 'CreateWorkItemSuccess', item: { id: created.item.id } },
    });

    const claimed = await admin.claimWorkItem({ workerId: 'sdk-worker', kinds: ['SDK_JOB'] });
    if (claimed.__typename !== 'ClaimSuccess') throw new Error(`claim answered ${claimed.__typename}`);
    expect(claimed.item).toMatchObject({ id: created.item.id, status: 'PROCESSING', lockedBy: 'sdk-worker' });
    expect(await admin.claimWorkItem({ workerId: 'sdk-worker', kinds: ['SDK_JOB'] })).toMatchObject({
      __typename: 'NothingToClaim',
    });
    const beat = await admin.heartbeatWorkItem({
      id: claimed.item.id,
      workerId: 'sdk-worker',
      version: claimed.item.version,
    });
    if (beat.__typename !== 'HeartbeatSuccess') throw new Error(`heartbeat answered ${beat.__typename}`);
    const failed = await admin.completeWorkItem({
      id: claimed.item.id,
      workerId: 'sdk-worker',
      version: beat.item.version,
      outcome: 'FAILED',
    });
    if (failed.__typename !== 'CompleteSuccess') throw new Error(`complete answered ${failed.__typename}`);
    expect(failed.item.status).toBe('FAILED');
    const requeued = await admin.requeueWorkItem({ id: failed.item.id, version: failed.item.version });
    expect(requeued).toMatchObject({ __typename: 'RequeueSuccess', item: { status: 'PENDING' } });
    expect(await admin.requeueWorkItem({ id: failed.item.id, version: failed.item.version })).toMatchObject({
      __typename: 'ConflictLost',
      operation: 'requeue',
    });

    expect(await admin.workItem(created.item.id)).toMatchObject({
      id: created.item.id,
      status: 'PENDING',
      payload: { n: 1 },
    });
    expect((await admin.workItems({ kind: 'SDK_JOB' })).items.map((item) => item.id)).toEqual([created.item.id]);
    const stats = await admin.workQueueStats();
    expect(stats.counts).toContainEqual({ kind: 'SDK_JOB', status: 'PENDING', count: 1, capped: false });
    expect((await admin.health()).engine).toBe(testMongoEngine().kind);
  });

  it("reads the console charts' moveOutcomes and liveFeeds", async () => {
    await admin.openAccount({ accountId: 'sdk-charts', currency: 'EUR' });
    expect(await admin.moveOutcomes()).toContainEqual({
      operation: 'openAccount',
      outcome: 'OpenAccountSuccess',
      count: expect.any(Number),
    });
    expect((await admin.liveFeeds()).map((feed) => [feed.feed, feed.up, feed.status])).toEqual([
      ['workItems', true, 'OPEN'],
      ['ledgerEntries', true, 'OPEN'],
      ['accountBalances', true, 'OPEN'],
      ['holds', true, 'OPEN'],
    ]);
  });

  it('matches every member the client knows, and sends a member it does not know to `unknown`', async () => {
    await admin.openAccount({ accountId: 'sdk-match', currency: 'EUR' });
    const describe = (result: Awaited<ReturnType<PreconditionClient['withdraw']>>) =>
      match(result, {
        WithdrawSuccess: (r) => `ok ${r.account.balance}`,
        InsufficientFunds: (r) => `short ${r.balance}`,
        AccountNotFound: (r) => `no ${r.accountId}`,
        AccountClosed: (r) => `closed ${r.accountId}`,
        DuplicateReplayed: (r) => `again ${r.requestId}`,
        IdempotencyKeyReused: () => 'reused',
        RequestInProgress: () => 'busy',
        OutcomeUnknown: () => 'unknown outcome',
        unknown: (r) => `newer server: ${r.__typename}`,
      });
    expect(describe(await admin.withdraw({ accountId: 'sdk-match', amount: 5 }))).toBe('short 0');
    expect(describe(await admin.withdraw({ accountId: 'sdk-none', amount: 5 }))).toBe('no sdk-none');

    // A newer server answers with a member this client was generated without.
    const newer: FetchLike = async () =>
      new Response(JSON.stringify({ data: { withdraw: { __typename: 'BalanceLimitExceeded', limit: 10 } } }));
    const fromNewer = await createClient({ url: app.url, apiKey: app.keys.admin, fetch: newer }).withdraw({
      accountId: 'x',
      amount: 1,
    });
    expect(describe(fromNewer)).toBe('newer server: BalanceLimitExceeded');
  });
});

describe('retries', () => {
  it('makes a distinct key per call, so concurrent calls without keys each move money once', async () => {
    await admin.openAccount({ accountId: 'sdk-many', currency: 'EUR' });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => admin.deposit({ accountId: 'sdk-many', amount: i + 1 })),
    );
    expect(new Set(results.map((result) => result.__typename))).toEqual(new Set(['DepositSuccess']));
    expect(new Set(results.map((result) => result.$meta.idempotencyKey)).size).toBe(20);
    expect(await admin.account('sdk-many')).toMatchObject({ balance: 210, version: 20 });
  });

  it('makes the key once and sends it unchanged on every retry of a network error, a 5xx and a 429 (waiting retry-after)', async () => {
    await admin.openAccount({ accountId: 'sdk-retry', currency: 'EUR' });
    const { fetch, bodies } = recordingFetch([
      { status: 'network' },
      { status: 503 },
      { status: 429, retryAfter: '0' },
    ]);
    const client = createClient({ url: app.url, apiKey: app.keys.admin, fetch, retry: { baseDelayMs: 1 } });
    const result = await client.deposit({ accountId: 'sdk-retry', amount: 7 });
    expect(result).toMatchObject({ __typename: 'DepositSuccess', account: { balance: 7 } });
    expect(result.$meta.attempts).toBe(4);
    const keys = bodies.map((body) => (body.variables as { input: { requestId: string } }).input.requestId);
    expect(keys).toHaveLength(4);
    expect(new Set(keys)).toEqual(new Set([result.$meta.idempotencyKey]));
    expect(result.$meta.idempotencyKey).toMatch(UUID_V4);
    expect(await admin.account('sdk-retry')).toMatchObject({ balance: 7 });
  });

  it('stops after maxAttempts and throws with the key to retry with later', async () => {
    const { fetch, bodies } = recordingFetch(Array(5).fill({ status: 'network' }));
    const client = createClient({
      url: app.url,
      apiKey: app.keys.admin,
      fetch,
      retry: { maxAttempts: 3, baseDelayMs: 1 },
    });
    const failure = (await client
      .withdraw({ accountId: 'sdk-retry', amount: 1 })
      .catch((error: unknown) => error)) as PreconditionError;
    expect(failure).toBeInstanceOf(PreconditionError);
    expect(failure).toMatchObject({ code: 'NETWORK_ERROR', attempts: 3 });
    expect(failure.idempotencyKey).toMatch(UUID_V4);
    expect(bodies).toHaveLength(3);
  });

  it('stops when the next wait would pass maxElapsedMs', async () => {
    const { fetch, bodies } = recordingFetch(Array(5).fill({ status: 429, retryAfter: '3600' }));
    const client = createClient({ url: app.url, apiKey: app.keys.admin, fetch, retry: { maxElapsedMs: 1_000 } });
    await expect(client.health()).rejects.toMatchObject({ code: 'HTTP_ERROR', status: 429, attempts: 1 });
    expect(bodies).toHaveLength(1);
  });

  it('sends the same key again after UNAVAILABLE (a failover), no sooner than its Retry-After', async () => {
    await admin.openAccount({ accountId: 'sdk-unavailable', currency: 'EUR' });
    const sentAt: number[] = [];
    const { fetch, bodies } = recordingFetch([
      { status: 503, retryAfter: '1', code: 'UNAVAILABLE' },
      { status: 503, retryAfter: '1', code: 'UNAVAILABLE' },
    ]);
    const timed: typeof fetch = (url, init) => (sentAt.push(performance.now()), fetch(url, init));
    const client = createClient({ url: app.url, apiKey: app.keys.admin, fetch: timed, retry: { baseDelayMs: 1 } });
    const result = await client.deposit({ accountId: 'sdk-unavailable', amount: 5 });
    expect(result).toMatchObject({ __typename: 'DepositSuccess', account: { balance: 5 } });
    expect(result.$meta.attempts).toBe(3);
    expect(new Set(bodies.map((body) => (body.variables as { input: { requestId: string } }).input.requestId))).toEqual(
      new Set([result.$meta.idempotencyKey]),
    );
    // Node's timers may fire up to a millisecond before the performance clock says they are due.
    expect(sentAt[1]! - sentAt[0]!).toBeGreaterThanOrEqual(995);
    expect(sentAt[2]! - sentAt[1]!).toBeGreaterThanOrEqual(995);
  });

  it('never sends a request again after INTERNAL_SERVER_ERROR: that would retry a bug', async () => {
    const { fetch, bodies } = recordingFetch([{ status: 500, code: 'INTERNAL_SERVER_ERROR' }]);
    const client = createClient({ url: app.url, apiKey: app.keys.admin, fetch, retry: { baseDelayMs: 1 } });
    await expect(client.deposit({ accountId: 'sdk-unavailable', amount: 5 })).rejects.toMatchObject({
      code: 'INTERNAL_SERVER_ERROR',
      status: 500,
      attempts: 1,
    });
    expect(bodies).toHaveLength(1);
  });

  it('never sends an operation that does not replay again after an ambiguous failure (the claim may have happened)', async () => {
    const { fetch, bodies } = recordingFetch([{ status: 503 }]);
    const client = createClient({ url: app.url, apiKey: app.keys.admin, fetch, retry: { baseDelayMs: 1 } });
    await expect(client.claimWorkItem({ workerId: 'w', kinds: ['SDK_NONE'] })).rejects.toMatchObject({
      code: 'HTTP_ERROR',
      status: 503,
    });
    expect(bodies).toHaveLength(1);
  });

  it.each([
    ['BAD_USER_INPUT', 'admin', (client: PreconditionClient) => client.withdraw({ accountId: 'sdk-a', amount: -5 })],
    ['FORBIDDEN', 'dashboard', (client: PreconditionClient) => client.withdraw({ accountId: 'sdk-a', amount: 5 })],
    [
      'UNAUTHENTICATED',
      'no-such-key',
      (client: PreconditionClient) => client.withdraw({ accountId: 'sdk-a', amount: 5 }),
    ],
  ] as const)(
    'never retries %s: one attempt, thrown as PreconditionError with the server errors',
    async (code, key, call) => {
      const { fetch, bodies } = recordingFetch([]);
      const apiKey = key in app.keys ? app.keys[key as keyof TestApp['keys']] : key;
      const failure = (await call(createClient({ url: app.url, apiKey, fetch, retry: { baseDelayMs: 1 } })).catch(
        (error: unknown) => error,
      )) as PreconditionError;
      expect(failure).toBeInstanceOf(PreconditionError);
      expect(failure).toMatchObject({ code, attempts: 1 });
      expect(failure.errors[0]?.extensions?.code).toBe(code);
      expect(bodies).toHaveLength(1);
    },
  );
});
