// The two GraphQL reads behind the console's "moves by result" and "feed state" charts, against
// the API: `moveOutcomes` is ledger_outcomes_total of this process (each answer counted once, by
// the mutation and the union member it answered; a batch's moves under their own kind), and
// `liveFeeds` each feed's stream state and fan-out series (a subscriber attached shows, an event
// delivered to it counts, a stopped feed reads down). Any role may read them, like the other
// console reads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Counter } from 'prom-client';
import { startTestApp, type TestApp } from '../support/app.ts';
import { deposit, openAccount, withdraw } from '../support/callers.ts';
import { eventually } from '../support/waiting.ts';

const MOVE_OUTCOMES = `{ moveOutcomes { operation outcome count } }`;
const LIVE_FEEDS = `{ liveFeeds { feed up status subscribers eventsDelivered resyncs } }`;

type Outcome = { operation: string; outcome: string; count: number };
type Feed = {
  feed: string;
  up: boolean;
  status: string;
  subscribers: number;
  eventsDelivered: number;
  resyncs: number;
};

describe('the reads behind the console charts', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { SEED_DEMO: '0' } });
  });
  afterAll(async () => {
    await app?.close();
  });

  async function outcomes(): Promise<Map<string, number>> {
    const res = await app.gql<{ moveOutcomes: Outcome[] }>(MOVE_OUTCOMES, {}, { key: 'dashboard' });
    expect(res.errors).toBeUndefined();
    return new Map(res.data!.moveOutcomes.map(({ operation, outcome, count }) => [`${operation} ${outcome}`, count]));
  }

  async function feeds(): Promise<Map<string, Feed>> {
    const res = await app.gql<{ liveFeeds: Feed[] }>(LIVE_FEEDS, {}, { key: 'worker' });
    expect(res.errors).toBeUndefined();
    return new Map(res.data!.liveFeeds.map((feed) => [feed.feed, feed]));
  }

  it('moveOutcomes counts each answer once, by mutation and union member, as /metrics does', async () => {
    await openAccount(app, 'cr-a');
    const before = await outcomes();
    await deposit(app, 'cr-a', 100, 'cr-d1');
    expect(await withdraw(app, 'cr-a', 30, 'cr-w1')).toBe('WithdrawSuccess');
    expect(await withdraw(app, 'cr-a', 30, 'cr-w1')).toBe('DuplicateReplayed');
    expect(await withdraw(app, 'cr-a', 1_000, 'cr-w2')).toBe('InsufficientFunds');
    const batch = await app.gql(
      `mutation ($input: SubmitMovesInput!) { submitMoves(input: $input) { __typename } }`,
      {
        input: { atomic: false, moves: [{ kind: 'DEPOSIT', accountId: 'cr-a', amount: 5, requestId: 'cr-b1' }] },
      },
      { key: 'service' },
    );
    expect(batch.data.submitMoves.__typename).toBe('SubmitMovesSuccess');

    const after = await outcomes();
    const grown = Object.fromEntries(
      [...after]
        .map(([series, count]) => [series, count - (before.get(series) ?? 0)])
        .filter(([, delta]) => delta !== 0),
    );
    expect(grown).toEqual({
      'deposit DepositSuccess': 2,
      'withdraw WithdrawSuccess': 1,
      'withdraw DuplicateReplayed': 1,
      'withdraw InsufficientFunds': 1,
      'submitMoves SubmitMovesSuccess': 1,
    });
    // The same numbers as the process's counter: one series each, the label's kind capitalised.
    const { values } = await (app.registry.getSingleMetric('ledger_outcomes_total') as Counter).get();
    expect(
      new Map(
        values.map(({ labels, value }) => [
          `${labels['op']} ${String(labels['outcome']).replace(/^./, (c) => c.toUpperCase())}`,
          value,
        ]),
      ),
    ).toEqual(after);
  });

  it('liveFeeds shows every feed up, a subscriber attached and the events delivered to it', async () => {
    await openAccount(app, 'cr-f');
    const start = await feeds();
    expect([...start.keys()].sort()).toEqual(['accountBalances', 'holds', 'ledgerEntries', 'workItems']);
    for (const feed of start.values())
      expect(feed).toMatchObject({ up: true, status: 'OPEN', subscribers: 0, resyncs: 0 });

    const ws = app.ws('ops');
    const sub = ws.subscribe(`subscription ($ids: [ID!]!) { accountBalanceChanged(accountIds: $ids) { __typename } }`, {
      ids: ['cr-f'],
    });
    await eventually(async () =>
      expect((await feeds()).get('accountBalances')).toMatchObject({ up: true, subscribers: 1 }),
    );
    await deposit(app, 'cr-f', 7, 'cr-f1');
    await deposit(app, 'cr-f', 8, 'cr-f2');
    for (let i = 0; i < 2; i++)
      expect((await sub.next()).data).toEqual({ accountBalanceChanged: { __typename: 'AccountBalanceChanged' } });
    const delivered = (await feeds()).get('accountBalances')!;
    expect(delivered).toMatchObject({
      subscribers: 1,
      eventsDelivered: start.get('accountBalances')!.eventsDelivered + 2,
    });
    expect((await feeds()).get('holds')).toMatchObject({
      subscribers: 0,
      eventsDelivered: start.get('holds')!.eventsDelivered,
    });

    sub.unsubscribe();
    await eventually(async () => expect((await feeds()).get('accountBalances')!.subscribers).toBe(0));
    await ws.close();
  });

  it('liveFeeds reads down once the feeds stop', async () => {
    await app.services.liveFeeds.stop();
    const stopped = await feeds();
    expect([...stopped.values()].map(({ feed, up, status }) => ({ feed, up, status }))).toEqual(
      ['workItems', 'ledgerEntries', 'accountBalances', 'holds'].map((feed) => ({
        feed,
        up: false,
        status: 'STOPPED',
      })),
    );
  });
});
