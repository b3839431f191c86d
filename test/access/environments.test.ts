// Proves the development convenience has no hole: without API_KEYS outside production the server
// generates one admin key, keeps it in DATA_DIR (0600) so a restart keeps it, announces it on the
// terminal (not through the logger) and accepts only it; in production introspection and the
// Sandbox landing page are off.
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'precondition-data-'));
  });
  afterAll(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('generates one admin key, keeps it in DATA_DIR (0600), announces it, never logs it, and accepts only it', async () => {
    const testDb = await connectTestDb('dev_key');
    const keyDir = join(dataDir, 'first');
    const announced: string[] = [];
    let logged = '';
    const destination = new Writable({ write: (chunk, _encoding, done) => void ((logged += String(chunk)), done()) });
    const server = await startServer({
      config: loadConfig({ NODE_ENV: 'development', PORT: '0', HOST: '127.0.0.1', DATA_DIR: keyDir }),
      db: testDb.db,
      engine: testMongoEngine(),
      schema: await buildAppSchema({ extraResolvers: [AccessProbeResolver] }),
      logger: createLogger({ level: 'trace', destination }),
      announce: (line) => announced.push(line),
    });
    try {
      const key = server.generatedAdminKey as string;
      expect(key).toMatch(/^[A-Za-z0-9_-]{32}$/);
      const file = join(keyDir, 'admin-key');
      expect(announced).toEqual([
        `API_KEYS is unset: generated a development admin key (kept in ${file}, mode 0600; delete the file for a new one): ${key}`,
      ]);
      expect((await readFile(file, 'utf8')).trim()).toBe(key);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      // Admin-only rights work with it; another token does not.
      expect((await post(server.url, PROBE_MUTATIONS.requeueWork, `Bearer ${key}`)).data).toEqual({
        probeRequeueWork: 'requeueWork',
      });
      const unknown = (await post(server.url, '{ probeQuery }', `Bearer ${key}x`)).errors?.[0] as {
        message?: string;
        extensions?: { code?: string };
      };
      expect(unknown.extensions?.code).toBe('UNAUTHENTICATED');
      // An old key (another DATA_DIR, a deleted file) hears where a development key lives.
      expect(unknown.message).toContain(
        'npm start keeps its generated admin key in DATA_DIR/admin-key (by default .data/admin-key)',
      );
      expect(logged).not.toContain(key);
    } finally {
      await server.stop();
      await testDb.close();
    }
  });

  it('keeps the key across restarts on one DATA_DIR, makes another in another DATA_DIR, and narrows a key file others could read', async () => {
    const testDb = await connectTestDb('dev_key_twice');
    const start = async (dir: string) => {
      const announced: string[] = [];
      const server = await startServer({
        config: loadConfig({ NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATA_DIR: dir }),
        db: testDb.db,
        announce: (line) => announced.push(line),
      });
      const key = server.generatedAdminKey;
      const answer = await post(server.url, '{ __typename }', `Bearer ${key}`);
      await server.stop();
      return { key, announced, answer };
    };
    try {
      const first = await start(join(dataDir, 'kept'));
      await writeFile(join(dataDir, 'kept', 'admin-key'), `${first.key}\n`, { mode: 0o644 });
      const second = await start(join(dataDir, 'kept'));
      const other = await start(join(dataDir, 'other'));
      expect(second.key).toBe(first.key);
      expect(second.answer.data).toEqual({ __typename: 'Query' });
      expect(second.announced[0]).toMatch(/^API_KEYS is unset: the development admin key \(kept in .*admin-key/);
      expect((await stat(join(dataDir, 'kept', 'admin-key'))).mode & 0o777).toBe(0o600);
      expect(other.key).not.toBe(first.key);
    } finally {
      await testDb.close();
    }
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
