// Access to the subscriptions follows the roles table: ops, worker, service and admin may open
// workItemStatusChanged; a dashboard key cannot open a subscription socket at all (4403).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { tryWsConnection } from '../support/ws.ts';
import { withProjection } from '../payouts/support/payouts.ts';
import { createItem, subscribeAll, subscriberCount, take } from './support/streamsTest.ts';
import { waitFor } from '../support/waiting.ts';

describe('subscription access', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ ...withProjection(null) });
  });
  afterAll(async () => {
    await app?.close();
  });

  it.each(['ops', 'worker', 'service', 'admin'] as const)('lets %s follow work-item transitions', async (role) => {
    const [sub] = await subscribeAll(app, 1, () => ({ kinds: [`access-${role}`] }), role);
    const id = await createItem(app, `access-${role}`, `access-${role}`);
    expect((await take(sub!, 1))[0]).toMatchObject({ itemId: id, status: 'PENDING' });
    sub!.unsubscribe();
    await waitFor(() => subscriberCount(app) === 0, 'the subscriber to detach');
  });

  it('refuses a dashboard before any subscription starts', async () => {
    expect(await tryWsConnection(app.wsUrl, { authorization: `Bearer ${app.keys.dashboard}` })).toEqual({
      kind: 'closed',
      code: 4403,
      reason: expect.stringMatching(/^Forbidden: role dashboard may open no subscription/),
    });
  });
});
