// Proves the development convenience has no hole: without API_KEYS outside production the server
// generates one admin key, announces it once (not through the logger) and accepts only it; in
// production introspection and the Sandbox landing page are off.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { buildAppSchema } from '../../src/app/schema.ts';
import { createLogger } from '../../src/observability/logger.ts';
import { startServer } from '../../src/server/startServer.ts';
import { AccessProbeResolver, PROBE_MUTATIONS } from '../support/accessProbe.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { connectTestDb, testMongoEngine } from '../support/mongo.ts';

async function post(url: string, query: string, authorization?: string) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
    body: JSON.stringify({ query }),
  });
  return (await res.json()) as { data?: any; errors?: Array<{ extensions?: { code?: string } }> };
}

describe('development without API_KEYS', () => {
  it('generates one admin key, announces it once, never logs it, and accepts only it', async () => {
    const testDb = await connectTestDb('dev_key');
    const announced: string[] = [];
    let logged = '';
    const destination = new Writable({ write: (chunk, _encoding, done) => void ((logged += String(chunk)), done()) });
    const server = await startServer({
      config: loadConfig({ NODE_ENV: 'development', PORT: '0', HOST: '127.0.0.1' }),
      db: testDb.db,
      engine: testMongoEngine(),
      schema: await buildAppSchema({ extraResolvers: [AccessProbeResolver] }),
      logger: createLogger({ level: 'trace', destination }),
      announce: (line) => announced.push(line),
    });
    try {
      const key = server.generatedAdminKey as string;
      expect(key).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(announced).toEqual([`API_KEYS is unset: generated a development admin key for this run only: ${key}`]);
      // Admin-only rights work with it; another token does not.
      expect((await post(server.url, PROBE_MUTATIONS.requeueWork, `Bearer ${key}`)).data).toEqual({ probeRequeueWork: 'requeueWork' });
      expect((await post(server.url, '{ probeQuery }', `Bearer ${key}x`)).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
      expect(logged).not.toContain(key);
    } finally {
      await server.stop();
      await testDb.close();
    }
  });

  it('generates a different key each start', async () => {
    const testDb = await connectTestDb('dev_key_twice');
    const keys: Array<string | undefined> = [];
    for (let run = 0; run < 2; run++) {
      const server = await startServer({
        config: loadConfig({ NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' }),
        db: testDb.db,
        announce: () => undefined,
      });
      keys.push(server.generatedAdminKey);
      await server.stop();
    }
    await testDb.close();
    expect(new Set(keys).size).toBe(2);
  });
});

describe('production', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { NODE_ENV: 'production' } });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('refuses introspection, even to an admin', async () => {
    const res = await app.gql('{ __schema { queryType { name } } }', {}, { key: 'admin' });
    expect(res.data).toBeUndefined();
    expect(res.errors?.[0]?.message).toMatch(/introspection is not allowed/i);
  });

  it('serves no landing page', async () => {
    const res = await fetch(app.url, { headers: { accept: 'text/html' } });
    expect(res.headers.get('content-type')).not.toMatch(/html/);
    expect(await res.text()).not.toMatch(/<html|sandbox/i);
  });

  it('still answers queries with a key', async () => {
    const res = await app.gql('{ health { engine } }', {}, { key: 'dashboard' });
    expect(res.data).toEqual({ health: { engine: testMongoEngine().kind } });
  });
});

describe('development', () => {
  it('allows introspection and serves the landing page, for contrast with production', async () => {
    const app = await startTestApp({ env: { NODE_ENV: 'development' } });
    try {
      const res = await app.gql('{ __schema { queryType { name } } }', {}, { key: 'dashboard' });
      expect(res.data).toEqual({ __schema: { queryType: { name: 'Query' } } });
      const page = await fetch(app.url, { headers: { accept: 'text/html' } });
      expect(page.headers.get('content-type')).toMatch(/html/);
      expect(await page.text()).toMatch(/sandbox/i);
    } finally {
      await app.close();
    }
  });
});
