// @module-tag processes
// Proves liveness, readiness and feeds that never give up: /readyz is 200 with the engine and
// the feeds up; when the engine process is killed it turns 503 with the reasons as JSON while
// /healthz stays 200; when an engine comes back on the same port the feed reopens by itself and
// /readyz returns to 200, with a new subscription receiving events (the long outage, past the old
// code's give-up count of 8 reopens, is test/faults/engineRestart.faults.ts). The engine is the
// emulator CLI in a process of its own, so killing it is a real crash seen through TCP.
import { afterAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.ts';
import { LIVE_WATCHERS_TASK } from '../../src/app/liveFeeds.ts';
import { allFeedsOpen, engineOutage, readyz, type OutageRun } from './support/readiness.ts';

describe('readiness', () => {
  const run: OutageRun = {};
  afterAll(async () => {
    await run.app?.close().catch(() => undefined);
    await run.engine?.kill();
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
    const noFeeds = await startTestApp({
      startupTasks: (tasks) => tasks.filter((task) => task.name !== LIVE_WATCHERS_TASK),
    });
    try {
      const { status, body } = await readyz(noFeeds);
      expect(status).toBe(503);
      expect(body.reasons).toEqual(['the live feeds are not running in this process']);
    } finally {
      await noFeeds.close();
    }
  });

  it('turns 503 when the engine dies and back to 200 when it returns on the same port; the feed recovers', async () => {
    await engineOutage(run, 0);
  }, 180_000);
});
