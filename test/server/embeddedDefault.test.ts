// @module-tag processes
// Proves the embedded default keeps its data (issue 36 item 5): `npm start` without MONGODB_URI,
// on a machine with no mongod, runs the emulator on DATA_DIR/db and says so; money moved before
// a restart is there after it, with the same generated admin key, after a clean stop and after a
// SIGKILL of the server alike.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { spawnMain, type MainProcess } from '../support/app.ts';

const START_TIMEOUT_MS = 60_000;
const dataDir = mkdtempSync(join(tmpdir(), 'precondition-embedded-'));
const running: MainProcess[] = [];

afterEach(() => {
  for (const main of running.splice(0))
    if (main.child.exitCode === null && main.child.signalCode === null) main.child.kill('SIGKILL');
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function start(): Promise<{ main: MainProcess; url: string; key: string }> {
  const main = spawnMain({
    // What a newcomer has: no MONGODB_URI, no mongod binary (named missing, so no download probe).
    MONGOMS_SYSTEM_BINARY: '/nonexistent/mongod',
    NODE_ENV: 'development',
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    SEED_DEMO: '0',
  });
  running.push(main);
  const [, key] = await main.waitFor(
    /admin key \(kept in \S+admin-key, mode 0600; delete the file for a new one\): (\S+)/,
    START_TIMEOUT_MS,
  );
  const [, url] = await main.waitFor(/listening on (http:\S+\/graphql)/, START_TIMEOUT_MS);
  return { main, url: url!, key: key! };
}

async function gql(
  server: { url: string; key: string },
  query: string,
  variables: Record<string, unknown> = {},
): Promise<any> {
  const res = await fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${server.key}` },
    body: JSON.stringify({ query, variables }),
  });
  return res.json();
}

const BALANCE = '{ account(id: "embedded-alice") { balance } }';

describe('npm start without MONGODB_URI', () => {
  it('keeps the money and the admin key in DATA_DIR across a clean stop and a SIGKILL', async () => {
    const first = await start();
    expect(first.main.stdout() + first.main.stderr()).toContain(`its data is kept in ${join(dataDir, 'db')}`);
    await gql(first, 'mutation ($i: OpenAccountInput!) { openAccount(input: $i) { __typename } }', {
      i: { accountId: 'embedded-alice', currency: 'EUR' },
    });
    const deposit = await gql(first, 'mutation ($i: DepositInput!) { deposit(input: $i) { __typename } }', {
      i: { accountId: 'embedded-alice', amount: 10000, requestId: 'embedded-dep-1' },
    });
    expect(deposit.data.deposit.__typename).toBe('DepositSuccess');
    first.main.child.kill('SIGTERM');
    await first.main.exited;

    const second = await start();
    expect(second.key).toBe(first.key);
    expect((await gql(second, BALANCE)).data.account).toEqual({ balance: 10000 });
    // Acknowledged (the default write concern is majority: journaled), then the server is killed.
    await gql(second, 'mutation ($i: DepositInput!) { deposit(input: $i) { __typename } }', {
      i: { accountId: 'embedded-alice', amount: 500, requestId: 'embedded-dep-2' },
    });
    second.main.child.kill('SIGKILL');
    await second.main.exited;

    const third = await start();
    expect((await gql(third, BALANCE)).data.account).toEqual({ balance: 10500 });
    third.main.child.kill('SIGTERM');
    await third.main.exited;
  }, 240_000);
});
