// What the readiness tests share: a free port for an engine that must come back on the same one,
// a /readyz reader, and the feeds a healthy app reports.
import { createServer } from 'node:net';
import type { TestApp } from '../../support/app.ts';

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
export const allFeedsOpen = ['workItems', 'ledgerEntries', 'accountBalances', 'holds'].map((name) => ({ name, state: 'open', consecutiveFailures: 0 }));
