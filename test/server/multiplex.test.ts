// Fan-out: a subscription's per-event execution runs once per event and distinct selection
// (document + variables + role), and its serialized frame is shared by every subscriber of that
// selection; each subscriber still gets exactly its own events, under its own operation id.
import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import {
  createItem,
  expectNoMore,
  subscribeAll,
  subscriberCount,
  take,
  WORK_ITEM_STATUS,
} from '../fanout/support/streamsTest.ts';
import { waitFor } from '../support/waiting.ts';

async function results(app: TestApp): Promise<{ executed: number; shared: number }> {
  const metric = await app.registry.getSingleMetric('subscription_results_total')!.get();
  const of = (outcome: string) => metric.values.find((value) => value.labels['outcome'] === outcome)?.value ?? 0;
  return { executed: of('executed'), shared: of('shared') };
}

describe('subscription multiplexing', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ dbName: `test_streams_mux_${randomBytes(4).toString('hex')}` });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('executes each distinct selection once per event and shares it across its subscribers', async () => {
    const kind = `mux-${randomBytes(3).toString('hex')}`;
    const same = await subscribeAll(app, 20, () => ({ kinds: [kind] }), 'ops');
    // Other variables, and the same variables under another role: two more selections.
    const otherVariables = await subscribeAll(app, 5, () => ({ kinds: [kind, 'mux-other'] }), 'ops');
    const otherRole = await subscribeAll(app, 5, () => ({ kinds: [kind] }), 'worker');
    const before = await results(app);

    const id = await createItem(app, kind, `${kind}-1`);
    for (const sub of [...same, ...otherVariables, ...otherRole]) {
      expect(await take(sub, 1)).toEqual([
        expect.objectContaining({
          __typename: 'WorkItemStatusChanged',
          itemId: id,
          kind,
          version: 1,
          status: 'PENDING',
        }),
      ]);
    }
    const after = await results(app);
    expect(after.executed - before.executed).toBe(3);
    expect(after.shared - before.shared).toBe(20 + 5 + 5 - 3);
    let marker = '';
    await expectNoMore(
      [...same, ...otherVariables, ...otherRole],
      async () => (marker = await createItem(app, kind, `${kind}-marker`)),
      (event) => event['itemId'] === marker,
    );
    for (const sub of [...same, ...otherVariables, ...otherRole]) sub.unsubscribe();
    await waitFor(() => subscriberCount(app) === 0, 'every subscriber to detach');
  });

  it("writes a shared frame under each subscriber's own id, whatever the id", async () => {
    const kind = `mux-id-${randomBytes(3).toString('hex')}`;
    // An id that looks like the server's internal placeholder must still come back as sent.
    const ids = ['plain', '\u0000shared-payload', 'x"}\u0000shared-payload'];
    const socket = new WebSocket(app.server.wsUrl, 'graphql-transport-ws');
    const frames: Array<{ id?: string; type: string; payload?: any }> = [];
    socket.on('message', (data) => frames.push(JSON.parse(String(data))));
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${app.keys.ops}` } }));
    await waitFor(() => frames.some((frame) => frame.type === 'connection_ack'), 'connection_ack');
    const before = subscriberCount(app);
    for (const id of ids)
      socket.send(
        JSON.stringify({ id, type: 'subscribe', payload: { query: WORK_ITEM_STATUS, variables: { kinds: [kind] } } }),
      );
    await waitFor(() => subscriberCount(app) === before + ids.length, 'three subscribers');

    const itemId = await createItem(app, kind, `${kind}-1`);
    const next = await waitFor(() => {
      const got = frames.filter((frame) => frame.type === 'next');
      return got.length === ids.length ? got : undefined;
    }, 'one next frame per subscription');
    expect(next.map((frame) => frame.id).sort()).toEqual([...ids].sort());
    for (const frame of next)
      expect(frame.payload.data.workItemStatusChanged).toMatchObject({ itemId, kind, version: 1 });
    socket.close();
    await waitFor(() => subscriberCount(app) === before, 'the subscribers to detach');
  });
});
