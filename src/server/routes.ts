// Everything on the port but GraphQL, straight from node:http: the liveness and readiness
// probes, the metrics scrape, the index that points a newcomer at /graphql and the console, and
// the console's four static files. One HTTP stack for the whole port (GraphQL's is http.ts):
// these few routes needed no router, and Express (its router, `send`, its finalhandler) was a
// second way of answering a request, with its own defaults for errors, methods and headers.
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { Registry } from 'prom-client';
import { builtConsoleFiles, CONSOLE_NOT_BUILT, consoleContentType } from './consoleFiles.ts';
import { HOW_TO_CALL } from './http.ts';

export interface RoutesOptions {
  graphqlPath: string;
  consolePath: string;
  /** The folder of the console's build (dist/console, consoleFiles.ts). */
  consoleDir: string;
  registry: Registry;
  /** GET /readyz's answer: 200 when ready, else 503, the body as given. */
  readiness(): Promise<{ ready: boolean }>;
}

export function createRoutes(options: RoutesOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const { graphqlPath, consolePath } = options;
  const index = {
    graphql: graphqlPath,
    console: consolePath,
    health: '/healthz',
    ready: '/readyz',
    metrics: '/metrics',
    howToCall: HOW_TO_CALL,
  };
  const routes = new Map<string, (req: IncomingMessage, res: ServerResponse) => void | Promise<void>>([
    ['/healthz', (_req, res) => sendJson(res, 200, { status: 'ok' })],
    [
      '/readyz',
      async (_req, res) => {
        const readiness = await options.readiness();
        sendJson(res, readiness.ready ? 200 : 503, readiness);
      },
    ],
    [
      '/metrics',
      async (_req, res) => {
        const text = await options.registry.metrics();
        send(res, 200, options.registry.contentType, text);
      },
    ],
    // The first thing a newcomer opens: a browser goes to the console, anything else is told where to go.
    [
      '/',
      (req, res) => (prefersHtml(req.headers.accept) ? redirect(res, 302, consolePath) : sendJson(res, 200, index)),
    ],
    ['/favicon.ico', (_req, res) => redirect(res, 301, `${consolePath}/favicon.svg`)],
    // Relative links in the page (console.css, console.js) resolve under the folder only. The query
    // goes along: it holds the page's settings (`/console?refresh=10`, src/console/refresh.ts).
    [consolePath, (req, res) => redirect(res, 301, `${consolePath}/${queryOf(req.url)}`)],
  ]);
  const consolePrefix = `${consolePath}/`;
  return (req, res) => {
    const path = (req.url ?? '/').split('?', 1)[0]!;
    const route = routes.get(path);
    const file =
      route === undefined && path.startsWith(consolePrefix)
        ? path.slice(consolePrefix.length) || 'index.html'
        : undefined;
    if (route === undefined && file === undefined) return notFound(req, res, path);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD');
      return sendJson(res, 405, { error: `${path} answers GET and HEAD only` });
    }
    const answered = route ? route(req, res) : serveConsoleFile(options.consoleDir, file!, req, res);
    void Promise.resolve(answered).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: 'Internal server error' });
      else res.destroy(error as Error);
    });
  };
}

async function serveConsoleFile(dir: string, file: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const files = await builtConsoleFiles(dir);
  if (!files.has('index.html')) return send(res, 503, 'text/plain; charset=utf-8', CONSOLE_NOT_BUILT);
  if (!files.has(file)) return notFound(req, res, (req.url ?? file).split('?', 1)[0]!);
  const body = await readFile(join(dir, file));
  // Hashed assets never change under their name; the page itself always revalidates.
  res.setHeader('cache-control', file.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
  send(res, 200, consoleContentType(file), body);
}

/** A request target's query, its `?` included ('' when it has none). */
function queryOf(url: string | undefined): string {
  const at = (url ?? '').indexOf('?');
  return at === -1 ? '' : url!.slice(at);
}

function notFound(req: IncomingMessage, res: ServerResponse, path: string): void {
  sendJson(res, 404, { error: `Nothing at ${req.method ?? 'GET'} ${path}. ${HOW_TO_CALL}` });
}

function redirect(res: ServerResponse, status: 301 | 302, location: string): void {
  res.setHeader('location', location);
  send(res, status, 'text/plain; charset=utf-8', `Redirecting to ${location}`);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(body));
}

function send(res: ServerResponse, status: number, contentType: string, body: string | Buffer): void {
  res.statusCode = status;
  res.setHeader('content-type', contentType);
  res.setHeader('content-length', Buffer.byteLength(body));
  // A HEAD gets the headers only; Node drops the body of a HEAD answer itself, but not its cost.
  res.end(res.req?.method === 'HEAD' ? undefined : body);
}

/**
 * Whether an Accept header ranks text/html above application/json (a browser's does; curl's
 * `*\/*`, or none, does not: JSON wins a tie). Each type's quality is that of the most specific
 * range matching it (RFC 9110 §12.5.1).
 */
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  return quality(accept, 'text', 'html') > quality(accept, 'application', 'json');
}

function quality(accept: string, type: string, subtype: string): number {
  let best = -1;
  let q = 0;
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.trim().toLowerCase().split(';');
    const [rangeType, rangeSubtype] = range.trim().split('/');
    const specificity =
      rangeType === type && rangeSubtype === subtype
        ? 2
        : rangeType === type && rangeSubtype === '*'
          ? 1
          : rangeType === '*' && rangeSubtype === '*'
            ? 0
            : -1;
    if (specificity < best || specificity < 0) continue;
    const qParam = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    const value = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (specificity > best || value > q) q = Number.isFinite(value) ? value : 0;
    best = specificity;
  }
  return q;
}
