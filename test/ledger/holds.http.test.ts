import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, match, type PreconditionClient } from '../../packages/sdk/src/index.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { waitFor } from '../support/waiting.ts';

// Holds end to end: through the SDK (a key made when left out and sent again on a retry after a
// lost reply, match over the union), the roles table (service and admin only), the reads
// (hold, holds, Account.held/available), the metrics and the app's own sweeper (started by the
// app like any start-up task: a hold past its expiry is released without anyone asking).

let app: TestApp;
let service: PreconditionClient;
beforeAll(async () => {
  app = await startTestApp({ env: { SEED_DEMO: '0' } });
  service = createClient({ url: app.url, apiKey: app.keys.service });
  await service.openAccount({ accountId: 'hh-a', currency: 'EUR' });
  await service.deposit({ accountId: 'hh-a', amount: 1_000, requestId: 'hh-fund' });
});
afterAll(async () => {
  await app?.close();
});

describe('holds over HTTP', () => {
  it('authorizes with a key the SDK made, sent again after a lost reply, and captures through match', async () => {
    let sent = 0;
    const losesFirstReply: typeof globalThis.fetch = async (url, init) => {
      const response = await globalThis.fetch(url, init);
      if (++sent === 1) throw new TypeError('fetch failed: socket hang up');
      return response;
    };
    const flaky = createClient({
      url: app.url,
      apiKey: app.keys.service,
      fetch: losesFirstReply as never,
      retry: { baseDelayMs: 1 },
    });
    const auth = await flaky.authorizeHold({ accountId: 'hh-a', amount: 300, expiresInSeconds: 600 });
    // The first reply was lost; the retry carried the same key, so the hold exists once.
    expect(auth.__typename).toBe('DuplicateReplayed');
    const holdId = match(auth, {
      AuthorizeHoldSuccess: (success) => success.hold.id,
      DuplicateReplayed: (replayed) =>
        replayed.original.__typename === 'AuthorizeHoldSuccess' ? replayed.original.hold.id : '',
      InsufficientFunds: () => '',
      AccountNotFound: () => '',
      AccountClosed: () => '',
      IdempotencyKeyReused: () => '',
      RequestInProgress: () => '',
      OutcomeUnknown: () => '',
      unknown: () => '',
    });
    expect(holdId).toMatch(/^hold_/);
    expect(await service.account('hh-a')).toMatchObject({ balance: 1_000, held: 300, available: 700 });
    expect((await service.holds({ accountId: 'hh-a', status: 'PENDING' })).items.map((hold) => hold.id)).toEqual([
      holdId,
    ]);
    const totals = await app.gql(
      '{ ledgerTotals(currency: "EUR") { moneyHeld moneyOnHold } }',
      {},
      { key: 'dashboard' },
    );
    expect(totals.data?.ledgerTotals).toEqual({ moneyHeld: '1000', moneyOnHold: '300' });

    const captured = await service.captureHold({ holdId, amount: 120 });
    expect(captured).toMatchObject({
      __typename: 'CaptureHoldSuccess',
      hold: { status: 'CAPTURED', capturedAmount: 120 },
      entry: { kind: 'withdrawal', amount: 120 },
      account: { balance: 880, held: 0, available: 880 },
    });
    expect(await service.voidHold({ holdId })).toMatchObject({ __typename: 'HoldNotPending', status: 'CAPTURED' });
    expect(await service.hold(holdId)).toMatchObject({ status: 'CAPTURED', capturedAmount: 120, amount: 300 });
  });

  it('lets only service and admin authorize, capture and void; every role reads holds', async () => {
    const mutation =
      'mutation { authorizeHold(input: { requestId: "hh-role", accountId: "hh-a", amount: 1, expiresInSeconds: 60 }) { __typename } }';
    for (const role of ['dashboard', 'ops', 'worker'] as const) {
      expect((await app.gql(mutation, {}, { key: role })).errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      expect(
        (await app.gql('{ holds(accountId: "hh-a") { items { id } } }', {}, { key: role })).errors,
      ).toBeUndefined();
    }
    expect((await app.gql(mutation, {}, { key: 'service' })).data?.authorizeHold.__typename).toBe(
      'AuthorizeHoldSuccess',
    );
    expect(
      (
        await app.gql(
          'mutation { voidHold(input: { requestId: "hh-v", holdId: "nope" }) { __typename } }',
          {},
          { key: 'admin' },
        )
      ).data?.voidHold.__typename,
    ).toBe('HoldNotFound');
  });

  it('releases a hold past its expiry through the app’s own sweeper, and counts it', async () => {
    const auth = await service.authorizeHold({ accountId: 'hh-a', amount: 50, expiresInSeconds: 1 });
    if (auth.__typename !== 'AuthorizeHoldSuccess') throw new Error(auth.__typename);
    await expect.poll(async () => (await service.account('hh-a'))?.held, { timeout: 15_000, interval: 200 }).toBe(1);
    expect(await service.hold(auth.hold.id)).toMatchObject({ status: 'EXPIRED' });
    const metrics = await app.registry.metrics();
    expect(metrics).toMatch(/ledger_holds_expired_total 1/);
    expect(metrics).toMatch(/ledger_holds\{status="EXPIRED"\} 1/);
    expect(metrics).toMatch(/ledger_holds\{status="PENDING"\} 1/);
  });

  it('tells holdChanged subscribers of every authorization and resolution of the account, resuming after a cursor', async () => {
    await service.openAccount({ accountId: 'hh-sub', currency: 'EUR' });
    await service.deposit({ accountId: 'hh-sub', amount: 1_000, requestId: 'hh-sub-fund' });
    const HOLD_CHANGED =
      'subscription ($a: ID!, $after: String) { holdChanged(accountId: $a, after: $after) { __typename ... on HoldChanged { cursor holdId accountId status amount capturedAmount } } }';
    const before = app.services.liveFeeds.holds.subscriberCount;
    const subscription = app.ws('ops').subscribe(HOLD_CHANGED, { a: 'hh-sub' });
    await waitFor(() => app.services.liveFeeds.holds.subscriberCount > before, 'a holds subscriber');
    const captured = await service.authorizeHold({ accountId: 'hh-sub', amount: 100, expiresInSeconds: 600 });
    const voided = await service.authorizeHold({ accountId: 'hh-sub', amount: 40, expiresInSeconds: 600 });
    await service.authorizeHold({ accountId: 'hh-a', amount: 1, expiresInSeconds: 600 }); // another account: not delivered
    if (captured.__typename !== 'AuthorizeHoldSuccess' || voided.__typename !== 'AuthorizeHoldSuccess')
      throw new Error('setup');
    await service.captureHold({ holdId: captured.hold.id, amount: 30 });
    await service.voidHold({ holdId: voided.hold.id });
    const events = [];
    for (let i = 0; i < 4; i += 1) events.push((await subscription.next(10_000)).data?.holdChanged);
    expect(events.map((event) => [event.holdId, event.status, event.capturedAmount])).toEqual([
      [captured.hold.id, 'PENDING', 0],
      [voided.hold.id, 'PENDING', 0],
      [captured.hold.id, 'CAPTURED', 30],
      [voided.hold.id, 'VOIDED', 0],
    ]);
    expect(events.every((event) => event.accountId === 'hh-sub' && event.__typename === 'HoldChanged')).toBe(true);
    // From the second event's cursor, on a new subscription: the last two again.
    const resumed = app.ws('ops').subscribe(HOLD_CHANGED, { a: 'hh-sub', after: events[1].cursor });
    const again = [(await resumed.next(10_000)).data?.holdChanged, (await resumed.next(10_000)).data?.holdChanged];
    expect(again.map((event) => event.status)).toEqual(['CAPTURED', 'VOIDED']);
  });
});
