// Proves the skeleton end to end over real HTTP: the health query reports the run's engine,
// /healthz and /metrics answer without a key, and stop() releases the port.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { testMongoEngine } from '../support/mongo.ts';

describe('server', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers the health query with the engine the run resolved', async () => {
    const res = await app.gql('{ health { engine engineReason version } }', {}, { key: 'dashboard' });
    expect(res.errors).toBeUndefined();
    expect(res.data.health.engine).toBe(testMongoEngine().kind);
    expect(res.data.health.engineReason).toBe(testMongoEngine().reason);
    expect(res.data.health.version).toMatch(/^\d+\.\d+/);
  });

  it('reports the replica set the embedded engines run as', async () => {
    const res = await app.gql('{ health { replicaSet { name members primary } } }', {}, { key: 'dashboard' });
    expect(res.errors).toBeUndefined();
    // An external MONGODB_URI may be a sharded cluster (no replica set); the embedded engines are rs0.
    if (testMongoEngine().kind !== 'uri') {
      expect(res.data.health.replicaSet).toEqual({ name: 'rs0', members: 1, primary: expect.stringMatching(/:\d+$/) });
    }
  });

  it('serves /healthz without a key', async () => {
    const res = await fetch(new URL('/healthz', app.url));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('serves Prometheus metrics, including operation counts', async () => {
    await app.gql('{ health { engine } }');
    const text = await (await fetch(new URL('/metrics', app.url))).text();
    expect(text).toMatch(/graphql_operations_total\{type="query",outcome="ok"\} \d+/);
    expect(text).toContain('process_cpu_seconds_total');
  });

  it('answers queries over graphql-ws on the same port and path', async () => {
    const ws = app.ws('ops');
    const result = await ws.execute('{ health { engine } }');
    expect(result.data).toEqual({ health: { engine: testMongoEngine().kind } });
  });
});
