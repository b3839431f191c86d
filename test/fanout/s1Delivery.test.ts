// S1: every committed transition reaches every matching subscriber, in order per document.
// Many WebSocket clients subscribe with different filters; work items are created, claimed and
// completed concurrently over HTTP; each subscriber must see exactly the transitions of its
// matching items, each item's versions 1, 2, 3 in order, and nothing else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/waiting.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { claimAndComplete, createItem, expectNoMore, groupByItem, subscribeAll, take } from './support/streamsTest.ts';

const ITEMS_PER_KIND = 8;
const SUBSCRIBERS_PER_FILTER = 6;
const FILTERS: ReadonlyArray<{ kinds?: string[] }> = [
  {},
  { kinds: ['s1-a'] },
  { kinds: ['s1-b'] },
  { kinds: ['s1-a', 's1-b'] },
];

describe('S1: work-item transitions reach every matching subscriber in order', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('delivers every transition of matching items, per item in version order, to each of many subscribers', async () => {
    const filterOf = (i: number) => FILTERS[i % FILTERS.length] as { kinds?: string[] };
    const subscriptions = await subscribeAll(app, FILTERS.length * SUBSCRIBERS_PER_FILTER, filterOf);

    const kinds = ['s1-a', 's1-b'];
    const items = await Promise.all(
      kinds.flatMap((kind) =>
        Array.from({ length: ITEMS_PER_KIND }, (_, i) =>
          createItem(app, kind, `s1-${kind}-${i}`).then((id) => ({ id, kind })),
        ),
      ),
    );
    await Promise.all(items.map(({ id }, i) => claimAndComplete(app, id, `s1-worker-${i}`)));

    for (const [i, sub] of subscriptions.entries()) {
      const { kinds: wantedKinds } = filterOf(i);
      const wanted = items.filter(({ kind }) => wantedKinds === undefined || wantedKinds.includes(kind));
      const byItem = groupByItem(await take(sub, wanted.length * 3));
      expect([...byItem.keys()].sort()).toEqual(wanted.map(({ id }) => id).sort());
      for (const itemEvents of byItem.values()) {
        expect(
          itemEvents.map(({ __typename, status, previousStatus, version }) => ({
            __typename,
            status,
            previousStatus,
            version,
          })),
        ).toEqual([
          { __typename: 'WorkItemStatusChanged', status: 'PENDING', previousStatus: null, version: 1 },
          { __typename: 'WorkItemStatusChanged', status: 'PROCESSING', previousStatus: 'PENDING', version: 2 },
          { __typename: 'WorkItemStatusChanged', status: 'DONE', previousStatus: 'PROCESSING', version: 3 },
        ]);
      }
    }
    // One marker item per kind, after every expected transition: each filter matches one or both.
    const markers = new Set<string>();
    const writeMarkers = async () => {
      for (const kind of kinds) markers.add(await createItem(app, kind, `s1-${kind}-marker`));
    };
    await expectNoMore(subscriptions, writeMarkers, (event) => markers.has(event['itemId'] as string));
  });

  it('filters by item id and reports a reclaim (PROCESSING → PROCESSING) with its own version', async () => {
    const id = await createItem(app, 's1-c', 's1-reclaim');
    const [sub] = await subscribeAll(app, 1, () => ({ id }), 'worker');
    const claim = `mutation ($input: ClaimWorkItemInput!) { claimWorkItem(input: $input) { __typename } }`;
    expect(
      (await app.gql(claim, { input: { id, workerId: 'w1', leaseSeconds: 1 } }, { key: 'worker' })).data.claimWorkItem
        .__typename,
    ).toBe('ClaimSuccess');
    // w2 reclaims once w1's one-second lease has expired by the server's clock (a refused claim writes nothing).
    const reclaim = async () =>
      (await app.gql(claim, { input: { id, workerId: 'w2' } }, { key: 'worker' })).data.claimWorkItem.__typename;
    await eventually(async () => expect(await reclaim()).toBe('ClaimSuccess'), { timeout: 10_000, interval: 100 });
    const events = await take(sub!, 2);
    expect(
      events.map(({ itemId, status, previousStatus, version }) => ({ itemId, status, previousStatus, version })),
    ).toEqual([
      { itemId: id, status: 'PROCESSING', previousStatus: 'PENDING', version: 2 },
      { itemId: id, status: 'PROCESSING', previousStatus: 'PROCESSING', version: 3 },
    ]);
  });
});
