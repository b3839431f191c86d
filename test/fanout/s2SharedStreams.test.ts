// S2: in steady state one change stream per watched collection per process, whatever the number
// of subscribers; a client resuming with `after:` (on another process) gets a short catch-up
// stream, then joins the shared one without loss or duplicates. Streams are counted as the
// server lists them ($currentOp with idle cursors), per namespace of this file's database.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYOUT_LEASE_NAME, projectionLeases } from '../../src/payouts/index.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import {
  changeStreamsOn,
  claimAndComplete,
  createItem,
  expectNoMore,
  subscribeAll,
  subscriberCount,
  take,
  type StatusEvent,
} from './support/streamsTest.ts';
import { waitFor } from '../support/waiting.ts';

const countByNs = (streams: Array<{ ns: string }>) =>
  streams.reduce<Record<string, number>>((counts, { ns }) => {
    counts[ns] = (counts[ns] ?? 0) + 1;
    return counts;
  }, {});

describe('S2: shared change streams', () => {
  const dbName = `test_streams_s2_${randomBytes(4).toString('hex')}`;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await startTestApp({ dbName });
    b = await startTestApp({ dbName });
    // One of the two holds the projection's lease and its entries stream.
    await waitFor(
      async () => (await projectionLeases(a.db).findOne({ _id: PAYOUT_LEASE_NAME }))?.holder,
      'the projection lease',
    );
  });
  afterAll(async () => {
    await b?.close();
    await a?.db.dropDatabase();
    await a?.close();
  });

  it('keeps one stream per watched collection per process with 1 or 50 subscribers', async () => {
    const workItemsNs = `${dbName}.workItems`;
    const baseline = countByNs(await changeStreamsOn(a.client, dbName));
    expect(baseline[workItemsNs]).toBe(2); // one per process (a and b)
    expect(baseline[`${dbName}.ledger_entries`]).toBe(3); // the live feed of each process, and the projection in one
    expect(baseline[`${dbName}.accounts`]).toBe(2); // the balance feed of each process

    const one = await subscribeAll(a, 1);
    expect(countByNs(await changeStreamsOn(a.client, dbName))).toEqual(baseline);
    const fifty = await subscribeAll(a, 50);
    expect(countByNs(await changeStreamsOn(a.client, dbName))).toEqual(baseline);

    // And all of them are live on that one stream.
    const id = await createItem(a, 's2-kind', 's2-one');
    for (const sub of [...one, ...fifty]) expect((await take(sub, 1))[0]).toMatchObject({ itemId: id, version: 1 });
    for (const sub of [...one, ...fifty]) sub.unsubscribe();
    await waitFor(() => subscriberCount(a) === 0, 'every subscriber to detach');
  });

  it('resumes `after:` a cursor on another process: the missed events, then live ones, none lost or doubled', async () => {
    const kinds = ['s2-resume'];
    const [first] = await subscribeAll(a, 1, () => ({ kinds }));
    const ids = await Promise.all([0, 1, 2, 3].map((i) => createItem(a, 's2-resume', `s2-r-${i}`)));
    const seen = await take(first!, ids.length);
    first!.unsubscribe();
    const cursor = (seen.at(-1) as StatusEvent).cursor;

    // Missed while nobody listened: 4 items x 2 transitions.
    await Promise.all(ids.map((id, i) => claimAndComplete(a, id, `s2-w-${i}`)));
    // Resume on the other process while more transitions commit concurrently.
    const later = await Promise.all([4, 5, 6].map((i) => createItem(a, 's2-resume', `s2-r-${i}`)));
    const resumed = b.ws('service').subscribe(
      `subscription ($kinds: [String!], $after: String) {
      workItemStatusChanged(kinds: $kinds, after: $after) { __typename ... on WorkItemStatusChanged { itemId version } } }`,
      { kinds, after: cursor },
    );
    await Promise.all(later.map((id, i) => claimAndComplete(b, id, `s2-l-${i}`)));

    const events = await take(resumed, ids.length * 2 + later.length * 3);
    const keys = events.map((event) => `${event.itemId}@${event.version}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.sort()).toEqual(
      [
        ...ids.flatMap((id) => [`${id}@2`, `${id}@3`]),
        ...later.flatMap((id) => [`${id}@1`, `${id}@2`, `${id}@3`]),
      ].sort(),
    );
    for (const id of [...ids, ...later]) {
      const versions = events.filter((event) => event.itemId === id).map((event) => event.version);
      expect(versions).toEqual([...versions].sort());
    }
    let marker = '';
    await expectNoMore(
      [resumed],
      async () => (marker = await createItem(a, 's2-resume', 's2-r-marker')),
      (event) => event['itemId'] === marker,
    );

    // The catch-up stream is gone: back to one stream per collection per process.
    await waitFor(
      async () => countByNs(await changeStreamsOn(a.client, dbName))[`${dbName}.workItems`] === 2,
      'the catch-up stream to close',
    );
  });

  it('refuses a cursor that is not one of ours', async () => {
    const sub = a
      .ws('ops')
      .subscribe(`subscription { workItemStatusChanged(after: "bm90IGEgY3Vyc29y") { __typename } }`);
    const outcome = await Promise.race([
      sub.next().then((result) => ({ result })),
      sub.ended.then((error) => ({ error })),
    ]);
    expect(JSON.stringify(outcome)).toContain('BAD_USER_INPUT');
  });
});
