// Proves what src/app/createApp.ts promises: each app owns what it built. Two apps run in this one process
// (as two API processes would run apart): the operations of one are counted on its own registry
// and not on the other's (a registry held by a module would show them on both), each runs its own
// live feeds, and a request's context hands resolvers the app's services and no database handle.
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/waiting.ts';
import { buildServices } from '../../src/app/createApp.ts';
import { createContext } from '../../src/app/requestContext.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { connectTestDb, testMongoEngine, type TestDb } from '../support/mongo.ts';

/** The `graphql_operations_total` of successful queries in an app's GET /metrics, every operation name summed; 0 when absent. */
async function okQueries(app: TestApp): Promise<number> {
  const text = await (await fetch(new URL('/metrics', app.url))).text();
  return [...text.matchAll(/^graphql_operations_total\{type="query",outcome="ok",operation="[^"]*"\} (\d+)$/gm)].reduce(
    (sum, match) => sum + Number(match[1]),
    0,
  );
}

describe('composition root', () => {
  let a: TestApp;
  let b: TestApp;
  let test: TestDb;
  beforeAll(async () => {
    [a, b, test] = await Promise.all([startTestApp(), startTestApp(), connectTestDb('composition_root')]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close(), test?.close()]);
  });

  it("serves each app's own registry: one app's operations are not counted on the other's", async () => {
    for (let i = 0; i < 3; i += 1)
      expect((await a.gql('{ health { engine } }', {}, { key: 'dashboard' })).errors).toBeUndefined();
    expect(await okQueries(a)).toBe(3);
    expect(await okQueries(b)).toBe(0);
    // Each registry still carries the process metrics.
    expect(await (await fetch(new URL('/metrics', b.url))).text()).toContain('process_cpu_seconds_total');
  });

  it('runs live feeds per app: a subscriber of one is not attached to the other', async () => {
    const subscription = a.ws('ops').subscribe('subscription { workItemStatusChanged { __typename } }');
    try {
      await eventually(() => expect(a.services.liveFeeds.workItems.subscriberCount).toBe(1));
      expect(b.services.liveFeeds.workItems.subscriberCount).toBe(0);
      expect(a.services.liveFeeds).not.toBe(b.services.liveFeeds);
    } finally {
      subscription.unsubscribe();
    }
  });

  it("hands resolvers the app's services in the context, and no database or client handle", () => {
    const logger = pino({ level: 'silent' });
    const services = buildServices({ db: test.db, engine: testMongoEngine(), logger, registry: new Registry() });
    const context = createContext(
      { db: test.db, logger, services },
      { ok: true, principal: { role: 'admin', keyId: 'test' } },
      'http',
    );
    expect(context.services).toBe(services);
    expect(Object.keys(context)).not.toContain('db');
    expect(Object.keys(context)).not.toContain('client');
    expect(Object.values(context).filter((value) => value === test.db || value === test.client)).toEqual([]);
  });
});
