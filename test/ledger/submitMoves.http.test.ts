import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createClient,
  type FetchLike,
  match,
  PreconditionError,
  type PreconditionClient,
} from '../../packages/sdk/src/index.ts';
import { RATE_LIMITS_DEFAULT } from '../../src/config.ts';
import { RateLimiter } from '../../src/server/rateLimit.ts';
import { createGraphqlTelemetry } from '../../src/server/telemetry.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

// submitMoves end to end: through the SDK (a key made per move when left out, the same keys on a
// retry after a lost reply, match over each result), the roles table (service and admin only), and
// a rate limit that counts moves, not requests.

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let app: TestApp;
let admin: PreconditionClient;
beforeAll(async () => {
  // The service bucket holds 150 tokens and refills at 0.01/s: nothing here depends on timing.
  app = await startTestApp({ env: { RATE_LIMITS: 'service=0.01/150', SEED_DEMO: '0' } });
  admin = createClient({ url: app.url, apiKey: app.keys.admin });
});
afterAll(async () => {
  await app?.close();
});

describe('submitMoves over HTTP', () => {
  it('makes a key per move, sends the same keys again after a lost reply, and each move answers from its record', async () => {
    await admin.openAccount({ accountId: 'smh-a', currency: 'EUR' });
    await admin.openAccount({ accountId: 'smh-b', currency: 'EUR' });
    let sent = 0;
    const bodies: string[] = [];
    const losesFirstReply: FetchLike = async (url, init) => {
      bodies.push(String(init?.body));
      const response = await globalThis.fetch(url, init);
      if (++sent === 1) throw new TypeError('fetch failed: socket hang up');
      return response;
    };
    const client = createClient({
      url: app.url,
      apiKey: app.keys.admin,
      fetch: losesFirstReply,
      retry: { baseDelayMs: 1 },
    });
    const result = await client.submitMoves({
      atomic: true,
      moves: [
        { kind: 'DEPOSIT', accountId: 'smh-a', amount: 100 },
        { kind: 'TRANSFER', accountId: 'smh-a', toAccountId: 'smh-b', amount: 30, requestId: 'smh-mine' },
        { kind: 'WITHDRAW', accountId: 'smh-b', amount: 10 },
      ],
    });
    expect(result.$meta.attempts).toBe(2);
    const keys = result.$meta.itemKeys!;
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(UUID_V4);
    expect(keys[1]).toBe('smh-mine');
    expect(keys[2]).toMatch(UUID_V4);
    expect(bodies[0]).toBe(bodies[1]); // the very same keys on the retry
    if (result.__typename !== 'SubmitMovesSuccess') throw new Error(result.__typename);
    // The first attempt applied the batch; the retry is answered move by move from the records.
    const originals = result.results.map((move) =>
      match(move, {
        DuplicateReplayed: (replayed) => `${replayed.requestId}: ${replayed.original.__typename}`,
        DepositSuccess: () => 'applied now',
        WithdrawSuccess: () => 'applied now',
        TransferSuccess: () => 'applied now',
        InsufficientFunds: (refused) => `refused: ${refused.balance}`,
        BalanceLimitExceeded: () => 'refused',
        AccountNotFound: () => 'refused',
        AccountClosed: () => 'refused',
        CurrencyMismatch: () => 'refused',
        IdempotencyKeyReused: () => 'reused',
        RequestInProgress: () => 'transient',
        OutcomeUnknown: () => 'transient',
        LinkedMoveFailed: () => 'linked',
        unknown: (other) => other.__typename,
      }),
    );
    expect(originals).toEqual([
      `${keys[0]}: DepositSuccess`,
      'smh-mine: TransferSuccess',
      `${keys[2]}: WithdrawSuccess`,
    ]);
    expect(await admin.account('smh-a')).toMatchObject({ balance: 70 });
    expect(await admin.account('smh-b')).toMatchObject({ balance: 20 });
  });

  it('sends the same batch again, same keys, while a move is answered RequestInProgress', async () => {
    await admin.openAccount({ accountId: 'smh-c', currency: 'EUR' });
    const bodies: string[] = [];
    // The first reply is replaced by one whose second move was not decided yet (as when another
    // process held its account past the server's retries); the batch did apply on the server.
    const firstUndecided: FetchLike = async (url, init) => {
      bodies.push(String(init?.body));
      const response = await globalThis.fetch(url, init);
      if (bodies.length > 1) return response;
      const keys = (
        JSON.parse(String(init?.body)) as { variables: { input: { moves: { requestId: string }[] } } }
      ).variables.input.moves.map((move) => move.requestId);
      const undecided = { __typename: 'RequestInProgress', requestId: keys[1], firstSeenAt: new Date().toISOString() };
      const body = {
        data: {
          submitMoves: {
            __typename: 'SubmitMovesSuccess',
            results: [{ __typename: 'LinkedMoveFailed', requestId: keys[0] }, undecided],
          },
        },
      };
      return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
    };
    const client = createClient({
      url: app.url,
      apiKey: app.keys.admin,
      fetch: firstUndecided,
      retry: { baseDelayMs: 1 },
    });
    const result = await client.submitMoves({
      atomic: true,
      moves: [
        { kind: 'DEPOSIT', accountId: 'smh-c', amount: 5 },
        { kind: 'DEPOSIT', accountId: 'smh-c', amount: 6 },
      ],
    });
    expect(result.$meta.attempts).toBe(2);
    expect(bodies[1]).toBe(bodies[0]);
    expect(result.__typename === 'SubmitMovesSuccess' && result.results.map((move) => move.__typename)).toEqual([
      'DuplicateReplayed',
      'DuplicateReplayed',
    ]);
    expect(await admin.account('smh-c')).toMatchObject({ balance: 11 });
  });

  it('answers BatchTooLarge past 100 moves, and BAD_USER_INPUT for a transfer without toAccountId', async () => {
    const moves = Array.from({ length: 101 }, () => ({ kind: 'WITHDRAW' as const, accountId: 'smh-a', amount: 1 }));
    expect(await admin.submitMoves({ atomic: false, moves })).toMatchObject({
      __typename: 'BatchTooLarge',
      moves: 101,
      movesMax: 100,
    });
    const bad = await admin
      .submitMoves({ atomic: false, moves: [{ kind: 'TRANSFER', accountId: 'smh-a', amount: 1 }] })
      .catch((error: unknown) => error);
    expect(bad).toBeInstanceOf(PreconditionError);
    expect((bad as PreconditionError).code).toBe('BAD_USER_INPUT');
  });

  it('is refused to the roles without the moveMoney right', async () => {
    const query = 'mutation($input: SubmitMovesInput!) { submitMoves(input: $input) { __typename } }';
    const input = { atomic: false, moves: [{ kind: 'DEPOSIT', accountId: 'smh-a', amount: 1, requestId: 'smh-role' }] };
    for (const role of ['dashboard', 'ops', 'worker'] as const) {
      const res = await app.gql(query, { input }, { key: role });
      expect(res.errors?.[0]?.extensions?.code, role).toBe('FORBIDDEN');
    }
    expect((await app.gql(query, { input }, { key: 'service' })).data).toEqual({
      submitMoves: { __typename: 'SubmitMovesSuccess' },
    });
  });
});

describe('rate limit counts moves', () => {
  it('takes one token per move: a batch of 100 leaves 49 of 150, so a batch of 50 is refused and one of 49 passes', async () => {
    const query = 'mutation($input: SubmitMovesInput!) { submitMoves(input: $input) { __typename } }';
    const batch = (tag: string, count: number) => ({
      input: {
        atomic: false,
        moves: Array.from({ length: count }, (_, i) => ({
          kind: 'DEPOSIT',
          accountId: 'smh-missing',
          amount: 1,
          requestId: `${tag}-${i}`,
        })),
      },
    });
    // The previous test spent one token of the service key.
    expect((await app.gql(query, batch('rl-100', 100), { key: 'service' })).data).toEqual({
      submitMoves: { __typename: 'SubmitMovesSuccess' },
    });
    const refused = await app.gql(query, batch('rl-50', 50), { key: 'service' });
    expect(refused.status).toBe(429);
    expect(refused.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
    expect((await app.gql(query, batch('rl-49', 49), { key: 'service' })).data).toEqual({
      submitMoves: { __typename: 'SubmitMovesSuccess' },
    });
  });

  it('lets a batch larger than the whole bucket through a full bucket, leaving it in debt', () => {
    let now = 0;
    const limiter = new RateLimiter(
      { ...RATE_LIMITS_DEFAULT, service: { perSecond: 10, burst: 50 } },
      createGraphqlTelemetry(new Registry()),
      () => now,
    );
    expect(limiter.take('k', 'service', 100)).toBeNull();
    // 50 tokens of debt: the next single move waits (50 + 1) / 10 s.
    expect(limiter.take('k', 'service', 1)).toBe(6);
    now = 5_100;
    expect(limiter.take('k', 'service', 1)).toBeNull();
  });
});
