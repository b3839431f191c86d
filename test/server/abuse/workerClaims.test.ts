// Issue 41, item 6, noted by the abuse campaign and decided here (README "Defaults and maxima" and
// "Access"):
// - the Authorization scheme is matched without regard to case and spaces around the value are
//   ignored, over HTTP and graphql-ws alike; the token itself is compared exactly;
// - a worker key's claimWorkItem naming neither id nor kinds claims any kind, PAYOUT included: rights
//   are per operation, and the same key may name PAYOUT anyway.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../support/app.ts';
import { deposit, openAccount } from '../../support/callers.ts';
import WebSocket from 'ws';

describe('authorization header forms and kind-less claims', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { RATE_LIMITS: 'off' } });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('accepts a lowercase or upper-case scheme and spaces around the value, over HTTP and graphql-ws; not another token', async () => {
    const key = app.keys.dashboard;
    for (const authorization of [`bearer ${key}`, `BEARER ${key}`, `Bearer ${key}   `, `  Bearer ${key}`]) {
      const res = await app.gql('{ viewer { role } }', {}, { authorization });
      expect({ authorization, status: res.status, data: res.data }).toEqual({
        authorization,
        status: 200,
        data: { viewer: { role: 'dashboard' } },
      });
    }
    for (const authorization of [`Bearer ${key.toUpperCase()}`, `Bearer ${key}x`, `Bearer  ${key} x`]) {
      const res = await app.gql('{ viewer { role } }', {}, { authorization });
      expect({ authorization, status: res.status }).toEqual({ authorization, status: 401 });
    }
    // graphql-ws: the same value in connection_init is acknowledged.
    const socket = new WebSocket(app.wsUrl, 'graphql-transport-ws');
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const first = new Promise<string>((resolve) =>
      socket.once('message', (data) => resolve(JSON.parse(String(data)).type)),
    );
    socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `bearer ${app.keys.ops}  ` } }));
    expect(await first).toBe('connection_ack');
    socket.close();
  });

  it('lets a worker key claim a PAYOUT item with a claim that names neither id nor kinds', async () => {
    await openAccount(app, 'wc-a');
    await deposit(app, 'wc-a', 1_000, 'wc-fund');
    const withdrawn = await app.gql(
      `mutation { withdraw(input: { accountId: "wc-a", amount: 100, requestId: "wc-wd" }) { __typename } }`,
      {},
      { key: 'service' },
    );
    expect(withdrawn.data.withdraw.__typename).toBe('WithdrawSuccess');
    // The projection writes the withdrawal's PAYOUT item.
    await expect
      .poll(
        async () =>
          (await app.gql(`{ workItems(kind: "PAYOUT", status: PENDING) { items { id } } }`, {}, { key: 'dashboard' }))
            .data.workItems.items.length,
        { timeout: 20_000 },
      )
      .toBe(1);
    const claimed = await app.gql(
      `mutation { claimWorkItem(input: { workerId: "wc-worker" }) { __typename ... on ClaimSuccess { item { kind } } } }`,
      {},
      { key: 'worker' },
    );
    expect(claimed.data.claimWorkItem).toEqual({ __typename: 'ClaimSuccess', item: { kind: 'PAYOUT' } });
  });
});
