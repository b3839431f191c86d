// Abuse class "slow clients and noisy logs" (issue 29, item 5). Proves that a client dripping its
// headers is cut within HTTP_HEADERS_TIMEOUT_MS, and one dripping its body within
// HTTP_REQUEST_TIMEOUT_MS (plus Node's check interval), where Node's defaults let them hold a
// connection for 60 s and 300 s; that a WebSocket older than those bounds is not cut by them; and
// that a body cut off mid-send is logged once, at debug, without a stack (it wrote an error-level
// line each time, and needs no key). Each waits on the socket's close or on the log line, never a sleep.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/observability/logger.ts';
import { timeoutCheckIntervalMs } from '../../../src/server/startServer.ts';
import { startTestApp, type TestApp } from '../../support/app.ts';
import { deposit, openAccount } from '../../support/callers.ts';
import { subscribeLedger, takeLedger } from '../../fanout/support/ledgerStreams.ts';

const HEADERS_TIMEOUT_MS = 1_000;
const REQUEST_TIMEOUT_MS = 3_000;
/** What a loaded CI machine may add to a bound (timer lateness, the close reaching the client). */
const SLACK_MS = 1_500;
const DRIP_INTERVAL_MS = 100;

interface LogLine {
  level: number;
  msg: string;
  err?: unknown;
  [key: string]: unknown;
}

/** Opens a TCP connection to the app, writes `first`, then `drip` every DRIP_INTERVAL_MS until it closes. */
async function drip(app: TestApp, first: string, dripText: string): Promise<{ elapsedMs: number; response: string }> {
  const socket: Socket = connect(app.server.port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const started = performance.now();
  let response = '';
  socket.on('data', (chunk) => (response += String(chunk)));
  socket.on('error', () => undefined); // a reset after the server's close is part of being cut
  socket.write(first);
  const timer = setInterval(() => socket.writable && socket.write(dripText), DRIP_INTERVAL_MS);
  await new Promise<void>((resolve) => socket.once('close', () => resolve()));
  clearInterval(timer);
  return { elapsedMs: performance.now() - started, response };
}

describe('slow clients and noisy logs', () => {
  let app: TestApp;
  const lines: LogLine[] = [];
  beforeAll(async () => {
    const destination = { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) };
    app = await startTestApp({
      env: { HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS), HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) },
      logger: createLogger({ level: 'debug', destination }),
    });
    await openAccount(app, 'slow-a');
  });
  beforeEach(() => {
    lines.length = 0;
  });
  afterAll(async () => {
    await app?.close();
  });

  it(`cuts a client dripping its headers within HTTP_HEADERS_TIMEOUT_MS (${HEADERS_TIMEOUT_MS} ms)`, async () => {
    const { elapsedMs, response } = await drip(app, 'POST /graphql HTTP/1.1\r\nHost: localhost\r\n', 'X-Drip: 1\r\n');
    expect(elapsedMs).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 50);
    expect(elapsedMs).toBeLessThan(HEADERS_TIMEOUT_MS + timeoutCheckIntervalMs(HEADERS_TIMEOUT_MS) + SLACK_MS);
    // Cut by the headers' own bound, not by the request's (which Node also applies to headers).
    expect(elapsedMs).toBeLessThan(REQUEST_TIMEOUT_MS);
    expect(response).toMatch(/^HTTP\/1\.1 408 /);
  });

  it(`cuts a client dripping its body within HTTP_REQUEST_TIMEOUT_MS (${REQUEST_TIMEOUT_MS} ms), and leaves an older WebSocket alone`, async () => {
    const subscription = await subscribeLedger(app, 'ledgerEntries', { accountId: 'slow-a' }, 'ops');
    const head = `POST /graphql HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nAuthorization: Bearer ${app.keys.service}\r\nContent-Length: 100000\r\n\r\n{"query":"`;
    const { elapsedMs } = await drip(app, head, 'a');
    expect(elapsedMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
    expect(elapsedMs).toBeLessThan(REQUEST_TIMEOUT_MS + timeoutCheckIntervalMs(HEADERS_TIMEOUT_MS) + SLACK_MS);
    // The socket was opened before the drip began, so it is older than the request bound: still served.
    await deposit(app, 'slow-a', 3, 'slow-deposit-1');
    expect((await takeLedger(subscription, 1))[0]).toMatchObject({ accountId: 'slow-a', amount: 3 });
    subscription.unsubscribe();
  });

  it('logs a body cut off mid-send once, at debug, without a stack, and nothing at warn or above', async () => {
    const socket = connect(app.server.port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    socket.write(
      'POST /graphql HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"query":"{ viewer',
    );
    await new Promise<void>((resolve) => socket.end(resolve));
    socket.destroy();
    await expect
      .poll(() => lines.filter((line) => line.msg === 'request body aborted by the client').length, {
        timeout: 5_000,
        interval: 20,
      })
      .toBe(1);
    // A request after it is answered: whatever the abort logged, it logged before this answer.
    expect((await app.gql('{ viewer { role } }', {}, { key: 'ops' })).status).toBe(200);
    const aborted = lines.filter((line) => line.msg === 'request body aborted by the client');
    expect(aborted).toHaveLength(1);
    expect(aborted[0]).toMatchObject({ level: 20 });
    expect(aborted[0]).not.toHaveProperty('err');
    expect(JSON.stringify(aborted[0])).not.toContain('    at ');
    expect(lines.filter((line) => line.level >= 40)).toEqual([]);
  });
});
