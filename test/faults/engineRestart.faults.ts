// The long form of the engine-restart readiness test (test/health/readiness.test.ts has the short
// one in npm test): the engine stays down for more failed reopens than the old code's give-up
// count (8), and the feed still reopens by itself once an engine is back on the same port, with
// /readyz back to 200 and a new subscription receiving events. Run by `npm run test:faults`.
import { afterAll, describe, expect, it } from 'vitest';
import { startEngineProcess, startTestApp, type EngineProcess, type TestApp } from '../support/app.ts';
import { claimAndComplete, createItem, subscriberCount, take, WORK_ITEM_STATUS } from '../fanout/support/streamsTest.ts';
import { waitFor } from '../support/waiting.ts';
import { metricValue } from '../payouts/support/payouts.ts';
import { allFeedsOpen, freePort, readyz } from '../health/support/readiness.ts';

describe('readiness through a long engine outage', () => {
  let engine: EngineProcess | undefined;
  let app: TestApp | undefined;
  afterAll(async () => {
    await app?.close().catch(() => undefined);
    await engine?.kill();
  });

  it('turns 503 when the engine dies and back to 200 when it returns on the same port; the feed recovers', async () => {
    const port = await freePort();
    engine = await startEngineProcess({ port });
    app = await startTestApp({ mongoUri: engine.uri, env: { MONGO_SERVER_SELECTION_TIMEOUT_MS: '2000' } });
    expect((await readyz(app)).status).toBe(200);
    const failuresBefore = await metricValue(app!.registry, 'change_feed_reopen_failures_total', { feed: 'workItems' });

    await engine.kill();
    const down = await waitFor(async () => {
      const res = await readyz(app!);
      return res.status === 503 && res.body.feeds[0]?.state === 'reopening' ? res : undefined;
    }, 'readyz 503 with the feed reopening', 30_000);
    expect(down.body.ready).toBe(false);
    expect(down.body.engine.ok).toBe(false);
    expect(down.body.reasons).toEqual(
      expect.arrayContaining([expect.stringMatching(/^the engine did not answer a ping within 1000 ms/), expect.stringMatching(/^live feed workItems is reopening/)]),
    );
    expect((await fetch(new URL('/healthz', app.url))).status).toBe(200); // liveness is not readiness

    // Stay down long enough for more failed reopens than the old give-up count (8).
    await waitFor(async () => (await readyz(app!)).body.feeds[0].consecutiveFailures > 8, 'more than 8 failed reopens', 60_000);
    expect(await metricValue(app!.registry, 'change_feed_up', { feed: 'workItems' })).toBe(0);

    engine = await startEngineProcess({ port });
    const up = await waitFor(async () => {
      const res = await readyz(app!);
      return res.status === 200 ? res : undefined;
    }, 'readyz back to 200', 60_000);
    expect(up.body).toMatchObject({ ready: true, feeds: allFeedsOpen });
    expect(await metricValue(app!.registry, 'change_feed_up', { feed: 'workItems' })).toBe(1);
    expect(await metricValue(app!.registry, 'change_feed_reopen_failures_total', { feed: 'workItems' })).toBeGreaterThan(failuresBefore + 8);

    // The reopened feed delivers: a new subscriber sees an item's transitions.
    const subscription = app.ws('ops').subscribe(WORK_ITEM_STATUS, { kinds: ['after-restart'] });
    await waitFor(() => subscriberCount(app!) === 1, 'the subscriber attached');
    const id = await waitFor(async () => createItem(app!, 'after-restart', 'after-restart-1').catch(() => undefined), 'an item created after the restart');
    await claimAndComplete(app, id, 'worker-1');
    const events = await take(subscription, 3);
    expect(events.map((event) => event.status)).toEqual(['PENDING', 'PROCESSING', 'DONE']);
  }, 180_000);
});
