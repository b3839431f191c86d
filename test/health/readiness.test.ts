// Proves liveness, readiness and feeds that never give up: /readyz is 200 with the engine and
// the feeds up; when the engine process is killed it turns 503 with the reasons as JSON while
// /healthz stays 200; when an engine comes back on the same port the feed reopens by itself and
// /readyz returns to 200, with a new subscription receiving events (the long outage, past the old
// code's give-up count of 8 reopens, is test/faults/engineRestart.faults.ts). The engine is the
// emulator CLI in a process of its own, so killing it is a real crash seen through TCP.
import { afterAll, describe, expect, it } from 'vitest';
import { startEngineProcess, startTestApp, type EngineProcess, type TestApp } from '../support/app.ts';
import { claimAndComplete, createItem, subscriberCount, take, WORK_ITEM_STATUS } from '../fanout/support/streamsTest.ts';
import { waitFor } from '../support/waiting.ts';
import { metricValue } from '../payouts/support/payouts.ts';
import { LIVE_WATCHERS_TASK } from '../../src/app/liveFeeds.ts';
import { allFeedsOpen, freePort, readyz } from './support/readiness.ts';

describe('readiness', () => {
  let engine: EngineProcess | undefined;
  let app: TestApp | undefined;
  afterAll(async () => {
    await app?.close().catch(() => undefined);
    await engine?.kill();
  });

  it('is 200 on a healthy app, with the engine and feeds reported', async () => {
    const healthy = await startTestApp();
    try {
      const { status, body } = await readyz(healthy);
      expect(status).toBe(200);
      expect(body).toMatchObject({
        ready: true,
        reasons: [],
        engine: { ok: true },
        feeds: allFeedsOpen,
        payoutProjection: { state: expect.stringMatching(/starting|projecting|standby/) },
      });
    } finally {
      await healthy.close();
    }
  });

  it('is 503 without live feeds, naming the reason', async () => {
    const noFeeds = await startTestApp({ startupTasks: (tasks) => tasks.filter((task) => task.name !== LIVE_WATCHERS_TASK) });
    try {
      const { status, body } = await readyz(noFeeds);
      expect(status).toBe(503);
      expect(body.reasons).toEqual(['the live feeds are not running in this process']);
    } finally {
      await noFeeds.close();
    }
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

    // The feed is down and counted so; the long outage (more failed reopens than the old give-up
    // count, 8) is test/faults/engineRestart.faults.ts, in `npm run test:faults`.
    expect(await metricValue(app!.registry, 'change_feed_up', { feed: 'workItems' })).toBe(0);

    engine = await startEngineProcess({ port });
    const up = await waitFor(async () => {
      const res = await readyz(app!);
      return res.status === 200 ? res : undefined;
    }, 'readyz back to 200', 60_000);
    expect(up.body).toMatchObject({ ready: true, feeds: allFeedsOpen });
    expect(await metricValue(app!.registry, 'change_feed_up', { feed: 'workItems' })).toBe(1);
    expect(await metricValue(app!.registry, 'change_feed_reopen_failures_total', { feed: 'workItems' })).toBeGreaterThan(failuresBefore);

    // The reopened feed delivers: a new subscriber sees an item's transitions.
    const subscription = app.ws('ops').subscribe(WORK_ITEM_STATUS, { kinds: ['after-restart'] });
    await waitFor(() => subscriberCount(app!) === 1, 'the subscriber attached');
    const id = await waitFor(async () => createItem(app!, 'after-restart', 'after-restart-1').catch(() => undefined), 'an item created after the restart');
    await claimAndComplete(app, id, 'worker-1');
    const events = await take(subscription, 3);
    expect(events.map((event) => event.status)).toEqual(['PENDING', 'PROCESSING', 'DONE']);
  }, 180_000);
});
