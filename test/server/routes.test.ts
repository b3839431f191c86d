// Proves the routes beside GraphQL (src/server/routes.ts) on a bare node:http server: the probes
// and metrics answer, the console's files are served with their types (its folder redirected to
// its trailing slash, where its relative links resolve), nothing outside the four files is read,
// a HEAD gets headers only, another method is 405 with Allow, an unknown path is a JSON 404 that
// says how to call the API, and `/` tells a browser from a program by its Accept header.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoutes, prefersHtml } from '../../src/server/routes.ts';

const CONSOLE_DIR = fileURLToPath(new URL('../../src/console/', import.meta.url));

describe('routes beside GraphQL', () => {
  let server: Server;
  let origin: string;
  let ready = true;
  beforeAll(async () => {
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
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

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
    const page = await fetch(`${origin}/console/`);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toContain('console.js');
    expect((await fetch(`${origin}/console/console.js`)).headers.get('content-type')).toBe(
      'text/javascript; charset=utf-8',
    );
    expect((await fetch(`${origin}/console/console.css`)).headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect((await fetch(`${origin}/console/favicon.svg`)).headers.get('content-type')).toBe('image/svg+xml');
    for (const path of [
      '/console/../config.ts',
      '/console/%2e%2e/config.ts',
      '/console/missing.js',
      '/console/index.html/x',
    ]) {
      expect((await fetch(`${origin}${path}`)).status, path).toBe(404);
    }
  });

  it('answers HEAD with headers only, and another method with 405', async () => {
    const head = await fetch(`${origin}/console/console.js`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(0);
    expect(await head.text()).toBe('');
    const post = await fetch(`${origin}/healthz`, { method: 'POST' });
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
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
