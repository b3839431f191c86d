// Proves the WebSocket is no side door: bad credentials close the socket with 4401 and a role
// without any subscription right with 4403, before any subscription starts; a worker may open
// only the work-item subscription; mutations over the socket obey the same rules as over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAppSchema } from '../../src/app/schema.ts';
import { AccessProbeResolver, PROBE_MUTATIONS, PROBE_SUBSCRIPTIONS, probeEffects } from '../support/accessProbe.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { tryWsConnection } from '../support/ws.ts';

const effects = (app: TestApp) => probeEffects(app.db);

describe('access over WebSocket', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ schema: await buildAppSchema({ extraResolvers: [AccessProbeResolver] }) });
  });
  afterAll(async () => {
    await app?.close();
  });

  it.each([
    ['missing', undefined],
    ['missing authorization', {}],
    ['malformed', { authorization: 'Basic abc' }],
    ['unknown', { authorization: 'Bearer not-a-key-of-this-server' }],
    ['non-string', { authorization: 42 }],
  ] as const)('closes a connection with %s credentials with 4401', async (_name, payload) => {
    expect(await tryWsConnection(app.wsUrl, payload)).toEqual({
      kind: 'closed',
      code: 4401,
      reason: expect.stringMatching(
        /^Unauthorized: (An API key is required|Malformed Authorization header|Unknown API key)/,
      ),
    });
  });

  it('closes a dashboard connection with 4403: dashboards may not subscribe', async () => {
    const outcome = await tryWsConnection(app.wsUrl, { authorization: `Bearer ${app.keys.dashboard}` });
    expect(outcome).toEqual({
      kind: 'closed',
      code: 4403,
      reason: 'Forbidden: role dashboard may open no subscription (allowed: ops, worker, service, admin)',
    });
  });

  it.each(['ops', 'worker', 'service', 'admin'] as const)('acknowledges a %s connection', async (role) => {
    expect(await tryWsConnection(app.wsUrl, { authorization: `Bearer ${app.keys[role]}` })).toEqual({
      kind: 'acknowledged',
    });
  });

  it.each(['ops', 'service', 'admin'] as const)('lets %s open every subscription', async (role) => {
    const ws = app.ws(role);
    for (const query of Object.values(PROBE_SUBSCRIPTIONS)) {
      const result = await ws.subscribe(query).next();
      expect(result.errors).toBeUndefined();
    }
  });

  it('lets a worker open the work-item subscription and refuses it any other', async () => {
    const ws = app.ws('worker');
    const allowed = await ws.subscribe(PROBE_SUBSCRIPTIONS.subscribeWorkItemStatus).next();
    expect(allowed).toEqual({ data: { probeWorkItemStatus: 1 } });
    const refused = ws.subscribe(PROBE_SUBSCRIPTIONS.subscribe);
    const outcome = await Promise.race([
      refused.next().then((result) => ({ result })),
      refused.ended.then((error) => ({ error })),
    ]);
    expect(JSON.stringify(outcome)).toContain('FORBIDDEN');
  });

  it('refuses a mutation over the socket exactly as over HTTP, with no effect', async () => {
    const before = await effects(app);
    const refused = await app.ws('worker').execute(PROBE_MUTATIONS.moveMoney);
    expect(refused.errors?.[0]?.extensions?.['code']).toBe('FORBIDDEN');
    expect(await effects(app)).toBe(before);
    const allowed = await app.ws('worker').execute(PROBE_MUTATIONS.processWork);
    // As over HTTP, a mutation's result carries its consistency token.
    expect(allowed).toEqual({
      data: { probeProcessWork: 'processWork' },
      extensions: { consistencyToken: expect.any(String) },
    });
    expect(await effects(app)).toBe(before + 1);
  });
});
