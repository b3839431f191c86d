// Proves the routes beside GraphQL (src/server/routes.ts) on a bare node:http server: the probes
// and metrics answer, the console's built files are served with their types (its folder redirected
// to its trailing slash, where its relative links resolve, its query kept), nothing but the files its build wrote
// is read (and an unbuilt console says how to build it),
// a HEAD gets headers only, another method is 405 with Allow, an unknown path is a JSON 404 that
// says how to call the API, and `/` tells a browser from a program by its Accept header.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoutes, prefersHtml } from '../../src/server/routes.ts';

/** A console build as scripts/buildConsole.ts lays it out: the page, its hashed assets, the icon. */
async function fakeBuild(dir: string): Promise<void> {
  await mkdir(join(dir, 'assets'), { recursive: true });
  await writeFile(join(dir, 'index.html'), '<script type="module" src="./assets/index-abc123.js"></script>');
  await writeFile(join(dir, 'assets', 'index-abc123.js'), 'console.log(1);');
  await writeFile(join(dir, 'assets', 'index-abc123.css'), 'body {}');
  await writeFile(join(dir, 'favicon.svg'), '<svg/>');
}

describe('routes beside GraphQL', () => {
  let server: Server;
  let origin: string;
  let ready = true;
  let root: string;
  let CONSOLE_DIR: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'routes-console-'));
    CONSOLE_DIR = join(root, 'console');
    await fakeBuild(CONSOLE_DIR);
    // A file beside the build: a path that climbs out of the folder must never reach it.
    await writeFile(join(root, 'secret.txt'), 'not to be served');
    const registry = new Registry();
    registry.setDefaultLabels({ app: 'routes-test' });
    const routes = createRoutes({
      graphqlPath: '/graphql',
      consolePath: '/console',
      consoleDir: CONSOLE_DIR,
      registry,
      readiness: async () => ({ ready }),
    });
    server = createServer(routes);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await rm(root, { recursive: true, force: true });
  });

  it('answers the probes and the metrics scrape', async () => {
    expect(await (await fetch(`${origin}/healthz`)).json()).toEqual({ status: 'ok' });
    expect((await fetch(`${origin}/readyz`)).status).toBe(200);
    ready = false;
    const down = await fetch(`${origin}/readyz`);
    ready = true;
    expect([down.status, await down.json()]).toEqual([503, { ready: false }]);
    const metrics = await fetch(`${origin}/metrics`);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain/);
  });

  it('serves the console under its folder, with each file its type, and nothing else from disk', async () => {
    const bare = await fetch(`${origin}/console`, { redirect: 'manual' });
    expect([bare.status, bare.headers.get('location')]).toEqual([301, '/console/']);
    // The page's settings ride in its query (src/console/refresh.ts): the redirect keeps them.
    const withSettings = await fetch(`${origin}/console?refresh=10`, { redirect: 'manual' });
    expect([withSettings.status, withSettings.headers.get('location')]).toEqual([301, '/console/?refresh=10']);
    const page = await fetch(`${origin}/console/`);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(await page.text()).toContain('assets/index-abc123.js');
    const script = await fetch(`${origin}/console/assets/index-abc123.js`);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    // Hashed names never change content: cached for good.
    expect(script.headers.get('cache-control')).toMatch(/immutable/);
    expect((await fetch(`${origin}/console/assets/index-abc123.css`)).headers.get('content-type')).toBe(
      'text/css; charset=utf-8',
    );
    expect((await fetch(`${origin}/console/favicon.svg`)).headers.get('content-type')).toBe('image/svg+xml');
    for (const path of [
      '/console/../secret.txt',
      '/console/%2e%2e/secret.txt',
      '/console/assets/%2e%2e/%2e%2e/secret.txt',
      '/console/missing.js',
      '/console/index.html/x',
      '/console/assets',
    ]) {
      expect((await fetch(`${origin}${path}`)).status, path).toBe(404);
    }
  });

  it('answers HEAD with headers only, and another method with 405', async () => {
    const head = await fetch(`${origin}/console/assets/index-abc123.js`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(0);
    expect(await head.text()).toBe('');
    const post = await fetch(`${origin}/healthz`, { method: 'POST' });
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
  });

  it('says how to build the console while it is not built, and serves it once it is', async () => {
    await rm(CONSOLE_DIR, { recursive: true, force: true });
    try {
      const unbuilt = await fetch(`${origin}/console/`);
      expect(unbuilt.status).toBe(503);
      expect(await unbuilt.text()).toMatch(/npm run build:console/);
    } finally {
      await fakeBuild(CONSOLE_DIR);
    }
    expect((await fetch(`${origin}/console/`)).status).toBe(200);
  });

  it('answers an unknown path 404 in JSON with the way to call the API', async () => {
    const res = await fetch(`${origin}/nothing-here`);
    expect(res.status).toBe(404);
    expect((await res.json()) as { error: string }).toEqual({
      error: expect.stringMatching(/^Nothing at GET \/nothing-here\. Call the API with POST \/graphql/),
    });
  });

  it('sends a browser from / to the console and tells a program where to go', async () => {
    const browser = await fetch(`${origin}/`, {
      redirect: 'manual',
      headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
    });
    expect([browser.status, browser.headers.get('location')]).toEqual([302, '/console']);
    expect(await (await fetch(`${origin}/`, { headers: { accept: '*/*' } })).json()).toMatchObject({
      graphql: '/graphql',
      console: '/console',
    });
  });

  it('ranks html over json by quality and specificity, json winning a tie', () => {
    expect(prefersHtml(undefined)).toBe(false);
    expect(prefersHtml('*/*')).toBe(false);
    expect(prefersHtml('text/html')).toBe(true);
    expect(prefersHtml('application/json, text/html')).toBe(false);
    expect(prefersHtml('text/html;q=0.9, application/json;q=0.5')).toBe(true);
    expect(prefersHtml('text/*, application/json;q=0.2')).toBe(true);
    expect(prefersHtml('text/html;q=0, */*')).toBe(false);
  });
});
