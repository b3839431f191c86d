// What the readiness tests share: a free port for an engine that must come back on the same one,
// a /readyz reader, the feeds a healthy app reports, and the engine outage both lengths run.
import { createServer } from 'node:net';
import { expect } from 'vitest';
import { startEngineProcess, startTestApp, type EngineProcess, type TestApp } from '../../support/app.ts';
import {
  claimAndComplete,
  createItem,
  subscriberCount,
  take,
  WORK_ITEM_STATUS,
} from '../../fanout/support/streamsTest.ts';
import { waitFor } from '../../support/waiting.ts';
import { metricValue } from '../../payouts/support/payouts.ts';

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function readyz(app: TestApp): Promise<{ status: number; body: any }> {
  const res = await fetch(new URL('/readyz', app.url));
  return { status: res.status, body: await res.json() };
}

// One live feed per watched collection (src/app/liveFeeds.ts), each reported by /readyz.
export const allFeedsOpen = ['workItems', 'ledgerEntries', 'accountBalances', 'holds'].map((name) => ({
  name,
  state: 'open',
  consecutiveFailures: 0,
}));

/** What an outage started, for the caller's afterAll to stop whatever a failure left running. */
export interface OutageRun {
  engine?: EngineProcess | undefined;
  app?: TestApp | undefined;
}

/**
 * An app on an engine process of its own: /readyz 200; the engine killed (a real crash through
 * TCP): 503 with the reasons while /healthz stays 200, the feed reopening; down until the feed
 * has failed more than `reopenFailuresOver` reopens; an engine back on the same port: 200 again,
 * the feed reopened by itself, and a new subscription receiving an item's transitions.
 */
export async function engineOutage(run: OutageRun, reopenFailuresOver: number): Promise<void> {
  const port = await freePort();
  const engine = (run.engine = await startEngineProcess({ port }));
  const app = (run.app = await startTestApp({
    mongoUri: engine.uri,
    env: { MONGO_SERVER_SELECTION_TIMEOUT_MS: '2000' },
  }));
  expect((await readyz(app)).status).toBe(200);
  const failuresBefore = await metricValue(app.registry, 'change_feed_reopen_failures_total', { feed: 'workItems' });

  await engine.kill();
  const down = await waitFor(
    async () => {
      const res = await readyz(app);
      return res.status === 503 && res.body.feeds[0]?.state === 'reopening' ? res : undefined;
    },
    'readyz 503 with the feed reopening',
    30_000,
  );
  expect(down.body.ready).toBe(false);
  expect(down.body.engine.ok).toBe(false);
  expect(down.body.reasons).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^the engine did not answer a ping within 1000 ms/),
      expect.stringMatching(/^live feed workItems is reopening/),
    ]),
  );
  expect((await fetch(new URL('/healthz', app.url))).status).toBe(200); // liveness is not readiness

  // Stay down for more failed reopens than `reopenFailuresOver` (the old code gave up after 8).
  if (reopenFailuresOver > 0) {
    await waitFor(
      async () => (await readyz(app)).body.feeds[0].consecutiveFailures > reopenFailuresOver,
      `more than ${reopenFailuresOver} failed reopens`,
      60_000,
    );
  }
  expect(await metricValue(app.registry, 'change_feed_up', { feed: 'workItems' })).toBe(0);

  run.engine = await startEngineProcess({ port });
  const up = await waitFor(
    async () => {
      const res = await readyz(app);
      return res.status === 200 ? res : undefined;
    },
    'readyz back to 200',
    60_000,
  );
  expect(up.body).toMatchObject({ ready: true, feeds: allFeedsOpen });
  expect(await metricValue(app.registry, 'change_feed_up', { feed: 'workItems' })).toBe(1);
  expect(await metricValue(app.registry, 'change_feed_reopen_failures_total', { feed: 'workItems' })).toBeGreaterThan(
    failuresBefore + reopenFailuresOver,
  );

  // The reopened feed delivers: a new subscriber sees an item's transitions.
  const subscription = app.ws('ops').subscribe(WORK_ITEM_STATUS, { kinds: ['after-restart'] });
  await waitFor(() => subscriberCount(app) === 1, 'the subscriber attached');
  const id = await waitFor(
    async () => createItem(app, 'after-restart', 'after-restart-1').catch(() => undefined),
    'an item created after the restart',
  );
  await claimAndComplete(app, id, 'worker-1');
  const events = await take(subscription, 3);
  expect(events.map((event) => event.status)).toEqual(['PENDING', 'PROCESSING', 'DONE']);
}
