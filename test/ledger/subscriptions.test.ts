// The ledger subscriptions on the shared feeds: ledgerEntryAdded (inserts of ledger_entries) and
// accountBalanceChanged (balance updates of accounts, from updatedFields). S1: every entry and
// every balance change reaches each matching subscriber, balance changes in version order per
// account, and the balances they carry are ones the entries left (a group commit's one write
// carries the state after all its moves). S2: one stream per
// collection per process whatever the subscribers; `after:` resumes on another process without
// loss or duplicates. Bounded: a subscriber that does not read is ended with SLOW_SUBSCRIBER.
// Roles: dashboard and worker keys cannot open them.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChangeFeed, FeedLimits, type FeedItem } from '../../src/fanout/index.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { tryWsConnection } from '../support/ws.ts';
import type { SubscriberQueue } from '../../src/fanout/SubscriberQueue.ts';
import { withProjection } from '../payouts/support/payouts.ts';
import {
  ledgerSubscriberCount,
  subscribeLedger,
  takeLedger,
  type LedgerEvent,
} from '../fanout/support/ledgerStreams.ts';
import { accountNow, deposit, openAccount, transfer, withdraw } from '../support/callers.ts';
import { changeStreamsOn, expectNoMore } from '../fanout/support/streamsTest.ts';
import { waitFor } from '../support/waiting.ts';

const countByNs = (streams: Array<{ ns: string }>) =>
  streams.reduce<Record<string, number>>((counts, { ns }) => {
    counts[ns] = (counts[ns] ?? 0) + 1;
    return counts;
  }, {});

const versionBalance = (events: LedgerEvent[]) =>
  events.map((event) => [event.version ?? event.versionAfter, event.balance ?? event.balanceAfter]);

describe('ledger subscriptions', () => {
  const dbName = `test_streams_ledger_${randomBytes(4).toString('hex')}`;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    // No projection: the stream counts below are then the live feeds' alone.
    a = await startTestApp({ dbName, ...withProjection(null) });
    b = await startTestApp({ dbName, ...withProjection(null) });
  });
  afterAll(async () => {
    await b?.close();
    await a?.db.dropDatabase();
    await a?.close();
  });

  it('delivers every entry and balance change to matching subscribers; balances in version order per account (S1)', async () => {
    const [x, y, z] = ['s1l-x', 's1l-y', 's1l-z'];
    for (const id of [x, y, z]) await openAccount(a, id);
    const onlyX = await subscribeLedger(a, 'ledgerEntries', { accountId: x });
    const everyEntry = await subscribeLedger(a, 'ledgerEntries', {});
    const balancesXY = await subscribeLedger(a, 'accountBalances', { accountIds: [x, y] });

    // Concurrent moves on three accounts, every one affordable (rejections change no balance).
    for (const id of [x, y, z]) await deposit(a, id, 10_000, `${id}-fund`);
    await Promise.all([
      ...[1, 2, 3, 4, 5].map((i) =>
        withdraw(a, x, i, `s1l-wx-${i}`).then((kind) => expect(kind).toBe('WithdrawSuccess')),
      ),
      ...[1, 2, 3].map((i) => transfer(a, y, x, 10 * i, `s1l-t-${i}`)),
      ...[1, 2].map((i) => deposit(a, z, i, `s1l-dz-${i}`)),
    ]);
    const entriesOfX = 1 + 5 + 3; // funding, withdrawals, transfer credits
    const entriesAll = 3 + 5 + 3 * 2 + 2;

    const xEntries = await takeLedger(onlyX, entriesOfX);
    expect(new Set(xEntries.map((event) => event.accountId))).toEqual(new Set([x]));
    expect(xEntries.filter((event) => event.kind === 'transferIn').map((event) => event.counterpartyAccountId)).toEqual(
      [y, y, y],
    );
    const all = await takeLedger(everyEntry, entriesAll);
    expect(new Set(all.map((event) => event.entryId)).size).toBe(entriesAll);
    expect(
      all
        .filter((event) => event.accountId === x)
        .map((event) => event.entryId)
        .sort(),
    ).toEqual(xEntries.map((event) => event.entryId).sort());

    // Balance events: x and y only, one per write of the account, each account's in strictly
    // increasing version; a group commit writes the account once for all its moves, so an event
    // may skip versions, but every (version, balance) it carries is one an entry left, and the
    // last is the account as it is now. Taken until each account's last event is its current state.
    const now = { [x]: await accountNow(a, x), [y]: await accountNow(a, y) };
    const balances: LedgerEvent[] = [];
    const caughtUp = () =>
      [x, y].every((id) => balances.filter((event) => event.accountId === id).at(-1)?.version === now[id]!.version);
    while (!caughtUp()) balances.push(...(await takeLedger(balancesXY, 1)));
    for (const id of [x, y]) {
      const ofAccount = balances.filter((event) => event.accountId === id);
      const versions = ofAccount.map((event) => event.version as number);
      expect(versions).toEqual([...versions].sort((p, q) => p - q));
      expect(new Set(versions).size).toBe(versions.length);
      const fromEntries = versionBalance(all.filter((event) => event.accountId === id)).map((pair) =>
        JSON.stringify(pair),
      );
      for (const pair of versionBalance(ofAccount)) expect(fromEntries).toContain(JSON.stringify(pair));
      expect(ofAccount.at(-1)).toMatchObject(now[id]!);
    }
    expect(balances.some((event) => event.accountId === z)).toBe(false);
    // The marker: a deposit on x after every expected move, one entry (onlyX, everyEntry) and one
    // balance change (balancesXY), told apart by its key and by x's version after it.
    const markerVersion = (await accountNow(a, x)).version + 1;
    await expectNoMore(
      [onlyX, everyEntry, balancesXY],
      () => deposit(a, x, 1, 's1l-marker'),
      (event) =>
        event['requestId'] === 's1l-marker' || (event['accountId'] === x && event['version'] === markerVersion),
    );
    for (const sub of [onlyX, everyEntry, balancesXY]) sub.unsubscribe();
    await waitFor(
      () => ledgerSubscriberCount(a, 'ledgerEntries') + ledgerSubscriberCount(a, 'accountBalances') === 0,
      'every subscriber to detach',
    );
  });

  it('keeps one stream per watched collection per process with 1 or 30 subscribers of each (S2)', async () => {
    const ns = (collection: string) => `${dbName}.${collection}`;
    const baseline = countByNs(await changeStreamsOn(a.client, dbName));
    expect(baseline[ns('ledger_entries')]).toBe(2); // one per process (a and b)
    expect(baseline[ns('accounts')]).toBe(2);

    const subs = [];
    for (let i = 0; i < 30; i++) {
      subs.push(await subscribeLedger(a, 'ledgerEntries', i % 2 ? {} : { accountId: 's2l' }));
      subs.push(await subscribeLedger(a, 'accountBalances', { accountIds: ['s2l'] }));
    }
    expect(countByNs(await changeStreamsOn(a.client, dbName))).toEqual(baseline);

    await openAccount(a, 's2l');
    await deposit(a, 's2l', 5, 's2l-dep');
    for (const sub of subs) expect((await takeLedger(sub, 1))[0]).toMatchObject({ accountId: 's2l' });
    for (const sub of subs) sub.unsubscribe();
    await waitFor(
      () => ledgerSubscriberCount(a, 'ledgerEntries') + ledgerSubscriberCount(a, 'accountBalances') === 0,
      'every subscriber to detach',
    );
  });

  it.each(['ledgerEntries', 'accountBalances'] as const)(
    'resumes %s `after:` a cursor on another process: missed then live, none lost or doubled (S2)',
    async (feed) => {
      const id = `s2r-${feed}`;
      await openAccount(a, id);
      const vars = feed === 'ledgerEntries' ? { accountId: id } : { accountIds: [id] };
      const first = await subscribeLedger(a, feed, vars);
      await deposit(a, id, 1_000, `${id}-fund`);
      const [seen] = await takeLedger(first, 1);
      first.unsubscribe();

      // Missed while nobody listened, then more while the resumed subscription catches up on b.
      for (let i = 1; i <= 4; i++) await withdraw(a, id, i, `${id}-missed-${i}`);
      const resumed = await subscribeLedger(b, feed, { ...vars, after: seen!.cursor });
      // One at a time: sent at once, b's group commit could write the account once for all three.
      for (const i of [5, 6, 7]) await withdraw(b, id, i, `${id}-live-${i}`);

      const events = await takeLedger(resumed, 7);
      const versions = events.map((event) => (event.version ?? event.versionAfter) as number);
      expect(new Set(versions).size).toBe(7);
      expect([...versions].sort((p, q) => p - q)).toEqual([2, 3, 4, 5, 6, 7, 8]);
      if (feed === 'accountBalances') expect(versions).toEqual([2, 3, 4, 5, 6, 7, 8]);
      expect(events.at(-1)?.balance ?? Math.min(...events.map((event) => event.balanceAfter as number))).toBe(
        (await accountNow(a, id)).balance,
      );
      const markerVersion = (await accountNow(a, id)).version + 1;
      await expectNoMore(
        [resumed],
        () => deposit(a, id, 1, `${id}-marker`),
        (event) =>
          event['requestId'] === `${id}-marker` || (event['accountId'] === id && event['version'] === markerVersion),
      );
      resumed.unsubscribe();
      await waitFor(
        async () =>
          countByNs(await changeStreamsOn(a.client, dbName))[
            `${dbName}.${feed === 'ledgerEntries' ? 'ledger_entries' : 'accounts'}`
          ] === 2,
        'the catch-up stream to close',
      );
    },
  );

  it.each(['ledgerEntries', 'accountBalances'] as const)(
    'ends a %s subscriber that does not read with SLOW_SUBSCRIBER after its bounded queue',
    { timeout: 60_000 },
    async (feed) => {
      // Straight on the feed (a socket would read for it): 5 more changes than the queue holds, in one command.
      const liveFeed: Pick<ChangeFeed<{ accountId: string }>, 'subscribe'> = a.services.liveFeeds[feed];
      const subscription = liveFeed.subscribe((event) => event.accountId === 'slow', null);
      if (!subscription.ok) throw new Error(`the feed refused the subscription: ${subscription.refusal.limit}`);
      const iterator = subscription.items;
      const overflow = FeedLimits.subscriberQueueMax + 5;
      if (feed === 'ledgerEntries') {
        await a.db
          .collection('ledger_entries')
          .insertMany(
            Array.from({ length: overflow }, (_, i) => ({
              _id: `slow-${i}` as never,
              requestId: `slow-${i}`,
              accountId: 'slow',
              currency: 'EUR',
              kind: 'deposit',
              amount: 1,
              balanceAfter: i + 1,
              versionAfter: i + 1,
              counterpartyAccountId: null,
              createdAt: new Date(),
            })),
          );
      } else {
        await a.db.collection('accounts').insertOne({ _id: 'slow' as never, currency: 'EUR', balance: 0, version: 0 });
        await a.db
          .collection('accounts')
          .bulkWrite(
            Array.from({ length: overflow }, () => ({
              updateOne: { filter: { _id: 'slow' as never }, update: { $inc: { balance: 1, version: 1 } } },
            })),
          );
      }
      // Nothing read until the feed has ended it: the queue alone holds what was offered.
      await waitFor(() => (iterator as SubscriberQueue<unknown>).ended, 'the feed to end the slow subscriber', 45_000);
      const items: FeedItem<unknown>[] = [];
      for await (const item of iterator) items.push(item);
      expect(items).toHaveLength(FeedLimits.subscriberQueueMax + 1);
      expect(items.at(-1)).toMatchObject({ kind: 'resync', reason: 'SLOW_SUBSCRIBER' });
      expect(items.at(-1)).toHaveProperty('cursor', (items.at(-2) as { cursor: string }).cursor);
      await waitFor(() => ledgerSubscriberCount(a, feed) === 0, 'the slow subscriber to detach');
    },
  );

  it('refuses the ledger subscriptions to a worker key (FORBIDDEN) and lets service and admin keys open them', async () => {
    for (const query of [
      'subscription { ledgerEntryAdded { __typename } }',
      'subscription { accountBalanceChanged(accountIds: ["x"]) { __typename } }',
    ]) {
      const sub = a.ws('worker').subscribe(query);
      const outcome = await Promise.race([
        sub.next().then((result) => ({ result })),
        sub.ended.then((error) => ({ error })),
      ]);
      expect(JSON.stringify(outcome)).toContain('FORBIDDEN');
    }
    for (const role of ['service', 'admin'] as const) {
      const entries = await subscribeLedger(a, 'ledgerEntries', { accountId: `roles-${role}` }, role);
      const balances = await subscribeLedger(a, 'accountBalances', { accountIds: [`roles-${role}`] }, role);
      await openAccount(a, `roles-${role}`);
      await deposit(a, `roles-${role}`, 7, `roles-${role}-dep`);
      expect((await takeLedger(entries, 1))[0]).toMatchObject({ __typename: 'LedgerEntryAdded', amount: 7 });
      expect((await takeLedger(balances, 1))[0]).toMatchObject({ __typename: 'AccountBalanceChanged', balance: 7 });
      entries.unsubscribe();
      balances.unsubscribe();
      await waitFor(
        () => ledgerSubscriberCount(a, 'ledgerEntries') + ledgerSubscriberCount(a, 'accountBalances') === 0,
        'both to detach',
      );
    }
  });

  it('refuses a dashboard key before any subscription starts', async () => {
    expect(await tryWsConnection(a.wsUrl, { authorization: `Bearer ${a.keys.dashboard}` })).toEqual({
      kind: 'closed',
      code: 4403,
      reason: expect.stringMatching(/^Forbidden: role dashboard may open no subscription/),
    });
  });
});
