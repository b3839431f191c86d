// Abuse class "one client takes a whole feed" (issue 29, item 2). Proves that one socket asking for
// 10,050 `ledgerEntryAdded` subscriptions gets its socket's share (FeedLimits.subscriptionsPerSocketMax)
// and a SUBSCRIPTION_LIMIT refusal for each of the rest (never INTERNAL_SERVER_ERROR), counted in
// `subscriptions_refused_total`; that one key over many sockets stops at its own share; and that
// meanwhile another client, on its own socket with another key, still subscribes and receives its
// events. Memory stays bounded: the feed holds the shares, not the 10,050 asked for.
import { Registry } from 'prom-client';
import { pino } from 'pino';
import type { Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangeFeed, type FeedSpec } from '../../../src/fanout/ChangeFeed.ts';
import { FeedLimits } from '../../../src/fanout/limits.ts';
import { SubscriptionShares } from '../../../src/fanout/SubscriptionShares.ts';
import { createStreamsTelemetry } from '../../../src/fanout/telemetry.ts';
import { startTestApp, type TestApp } from '../../support/app.ts';
import { connectTestDb } from '../../support/mongo.ts';
import { deposit, openAccount } from '../../support/callers.ts';
import { subscribeLedger, takeLedger } from '../../fanout/support/ledgerStreams.ts';
import { metricValue } from '../../payouts/support/payouts.ts';
import { openRawSocket, type RawMessage, type RawSocket } from './rawSocket.ts';

const ASKED = 10_050;
const SUBSCRIBE = 'subscription ($accountId: ID) { ledgerEntryAdded(accountId: $accountId) { __typename } }';

/** The refusals a socket received: one `next` with errors per refused subscription. */
function refusals(socket: RawSocket): Array<{ message: string; extensions: Record<string, unknown> }> {
  return socket.messages
    .filter((m: RawMessage) => m.type === 'next' && (m.payload as { errors?: unknown[] }).errors)
    .flatMap((m) => (m.payload as { errors: Array<{ message: string; extensions: Record<string, unknown> }> }).errors);
}

function blast(socket: RawSocket, count: number, tag: string): void {
  for (let i = 0; i < count; i++)
    socket.send({
      id: `${tag}-${i}`,
      type: 'subscribe',
      payload: { query: SUBSCRIBE, variables: { accountId: `hog-${i}` } },
    });
}

describe('a fair share of every feed', () => {
  let app: TestApp;
  const sockets: RawSocket[] = [];
  beforeAll(async () => {
    // The service bucket is widened so that the subscription bounds, not the rate limit, answer.
    app = await startTestApp({ env: { RATE_LIMITS: 'service=5000/20000' } });
    await openAccount(app, 'fair-a');
  });
  afterAll(async () => {
    await Promise.all(sockets.map((socket) => socket.close()));
    await app?.close();
  });

  it(`gives one socket asking for ${ASKED} subscriptions its share and refuses the rest SUBSCRIPTION_LIMIT; another client still subscribes and receives`, {
    timeout: 60_000,
  }, async () => {
    const feed = app.services.liveFeeds.ledgerEntries;
    const hog = await openRawSocket(app.wsUrl, app.keys.service);
    sockets.push(hog);
    blast(hog, ASKED, 'hog');
    const refused = ASKED - FeedLimits.subscriptionsPerSocketMax;
    await expect
      .poll(() => hog.messages.filter((m) => m.type === 'complete').length, { timeout: 45_000, interval: 50 })
      .toBe(refused);

    const errors = refusals(hog);
    expect(errors).toHaveLength(refused);
    expect(new Set(errors.map((error) => error.extensions['code']))).toEqual(new Set(['SUBSCRIPTION_LIMIT']));
    expect(errors[0]).toMatchObject({
      extensions: { code: 'SUBSCRIPTION_LIMIT', limit: 'socket', max: FeedLimits.subscriptionsPerSocketMax },
    });
    expect(feed.subscriberCount).toBe(FeedLimits.subscriptionsPerSocketMax);
    expect(
      await metricValue(app.registry, 'subscriptions_refused_total', { feed: 'ledgerEntries', limit: 'socket' }),
    ).toBe(refused);

    // Another client, its own socket and key: attached, and its events arrive.
    const console = await subscribeLedger(app, 'ledgerEntries', { accountId: 'fair-a' }, 'ops');
    await deposit(app, 'fair-a', 7, 'fair-deposit-1');
    const [event] = await takeLedger(console, 1);
    expect(event).toMatchObject({ __typename: 'LedgerEntryAdded', accountId: 'fair-a', amount: 7 });
    console.unsubscribe();
  });

  it('stops one key at its share however many sockets it opens, and gives the shares back when the sockets close', {
    timeout: 60_000,
  }, async () => {
    const feed = app.services.liveFeeds.ledgerEntries;
    const shares = app.services.liveFeeds.shares;
    // The first test's socket holds a full share; enough more sockets to reach the key's bound, and one past it.
    const socketsNeeded = FeedLimits.subscriptionsPerKeyMax / FeedLimits.subscriptionsPerSocketMax;
    const more: RawSocket[] = [];
    for (let i = sockets.length; i <= socketsNeeded; i++) more.push(await openRawSocket(app.wsUrl, app.keys.service));
    sockets.push(...more);
    for (const [i, socket] of more.entries()) blast(socket, FeedLimits.subscriptionsPerSocketMax, `more${i}`);
    const last = more.at(-1)!;
    await expect
      .poll(() => last.messages.filter((m) => m.type === 'complete').length, { timeout: 30_000, interval: 50 })
      .toBe(FeedLimits.subscriptionsPerSocketMax);
    expect(new Set(refusals(last).map((error) => `${error.extensions['code']}:${error.extensions['limit']}`))).toEqual(
      new Set(['SUBSCRIPTION_LIMIT:key']),
    );
    expect(feed.subscriberCount).toBe(FeedLimits.subscriptionsPerKeyMax);

    // Another key is not affected by this key's share.
    const console = await subscribeLedger(app, 'ledgerEntries', { accountId: 'fair-a' }, 'admin');
    console.unsubscribe();

    await Promise.all(sockets.splice(0).map((socket) => socket.close()));
    await expect.poll(() => feed.subscriberCount, { timeout: 10_000, interval: 25 }).toBe(0);
    expect(shares.size).toEqual({ connections: 0, keys: 0 });
  });
});

describe('a feed at its own capacity', () => {
  it('refuses one more subscriber with limit "feed", counted, and admits one again once a subscriber leaves', async () => {
    const test = await connectTestDb('feed_capacity');
    const spec: FeedSpec<Document> = {
      name: 'scratch',
      collection: test.db.collection('scratch'),
      pipeline: [],
      toEvent: (change: Document) => change,
    };
    const registry = new Registry();
    const feed = new ChangeFeed(
      spec,
      pino({ level: 'silent' }),
      createStreamsTelemetry(registry),
      new SubscriptionShares(),
      2,
    );
    await feed.start();
    try {
      const owner = (n: number) => ({ connectionId: `c${n}`, keyId: `k${n}` });
      const [first, second] = [feed.subscribe(() => true, null, owner(1)), feed.subscribe(() => true, null, owner(2))];
      expect([first.ok, second.ok]).toEqual([true, true]);
      expect(feed.subscribe(() => true, null, owner(3))).toEqual({ ok: false, refusal: { limit: 'feed', max: 2 } });
      expect(await metricValue(registry, 'subscriptions_refused_total', { feed: 'scratch', limit: 'feed' })).toBe(1);
      if (first.ok) await first.items.return?.();
      expect(feed.subscribe(() => true, null, owner(3)).ok).toBe(true);
    } finally {
      await feed.stop();
      await test.close();
    }
  });
});

describe('SubscriptionShares', () => {
  it('counts each connection and each key, refuses past either bound, and releases once per subscription', () => {
    const shares = new SubscriptionShares({ perSocketMax: 2, perKeyMax: 3 });
    const a1 = shares.admit({ connectionId: 'a', keyId: 'k' });
    shares.admit({ connectionId: 'a', keyId: 'k' });
    expect(shares.admit({ connectionId: 'a', keyId: 'k' })).toEqual({
      ok: false,
      refusal: { limit: 'socket', max: 2 },
    });
    shares.admit({ connectionId: 'b', keyId: 'k' });
    expect(shares.admit({ connectionId: 'c', keyId: 'k' })).toEqual({ ok: false, refusal: { limit: 'key', max: 3 } });
    expect(shares.admit({ connectionId: 'c', keyId: 'other' }).ok).toBe(true);
    if (!a1.ok) throw new Error('the first subscription was refused');
    a1.release();
    a1.release();
    expect(shares.heldBy({ connectionId: 'a', keyId: 'k' })).toEqual({ connection: 1, key: 2 });
    expect(shares.admit({ connectionId: 'c', keyId: 'k' }).ok).toBe(true);
  });
});
