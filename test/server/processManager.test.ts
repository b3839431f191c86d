// @module-tag processes
// Proves `npm start` stops as a process manager stops it (issue 37 item 2): systemd, or a container
// whose command is `npm start`, sends SIGTERM (or SIGINT) to the pid it started, which is npm's.
// The script `exec`s node, so no shell sits between npm and the server, and npm passes the signal
// on: the server drains, logs "stopped", frees its port within SHUTDOWN_GRACE_MS and exits; npm
// exits after it. Should npm die without passing anything on (SIGKILL here), the server notices it
// was re-parented and stops the same way. The generated admin key survives the restart (item 3),
// and an unreachable trace collector is a rate-limited warning while serving and costs shutdown
// no more than its 2 s flush, exiting 0 within the grace (item 5).
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spawnCommand, spawnMain, type MainProcess } from '../support/app.ts';
import { testMongoUri } from '../support/mongo.ts';
import { waitFor } from '../support/waiting.ts';

/** The server's default grace: what a process manager would wait before SIGKILL is at least this. */
const GRACE_MS = 10_000;
const START_TIMEOUT_MS = 60_000;

let dataDir: string;
const running: MainProcess[] = [];
/** node pids a test saw: a red test whose npm is gone must not leave its server running. */
const nodes: number[] = [];
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'precondition-npm-start-'));
});
afterEach(() => {
  // node first: a SIGKILLed npm cannot pass anything on, and its orphan would serve on.
  for (const process of running.splice(0)) {
    if (process.child.exitCode !== null || process.child.signalCode !== null) continue;
    for (const node of childrenOf(process.child.pid!)) {
      try {
        globalThis.process.kill(node, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    process.child.kill('SIGKILL');
  }
  for (const node of nodes.splice(0)) {
    try {
      globalThis.process.kill(node, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});
afterAll(async () => {
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** `npm start` as a process manager runs it: npm is the pid it knows. */
function npmStart(env: Record<string, string> = {}): MainProcess {
  const npm = spawnCommand('npm', ['start'], {
    MONGODB_URI: testMongoUri(),
    MONGODB_DB: 'test_npm_start',
    PORT: '0',
    HOST: '127.0.0.1',
    SEED_DEMO: '0',
    DATA_DIR: dataDir,
    ...env,
  });
  running.push(npm);
  return npm;
}

async function listening(main: MainProcess): Promise<{ url: string; port: number }> {
  const [, url] = await main.waitFor(/listening on (http:\S+\/graphql)/, START_TIMEOUT_MS);
  return { url: url!, port: Number(new URL(url!).port) };
}

/** The pids whose parent is `pid` (npm's child: node itself, since the script execs). */
function childrenOf(pid: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return []; // ps exits 1 when there are none
  }
}

/** Gone, or a zombie waiting for its new parent to reap it: either way it runs no more. */
async function isGone(pid: number): Promise<boolean> {
  try {
    return (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.startsWith('Z');
  } catch {
    return true;
  }
}

function portAccepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

async function health(url: string): Promise<number> {
  return (await fetch(url.replace(/\/graphql$/, '/healthz'))).status;
}

async function stopsWithin(server: { port: number }, node: number, send: () => void): Promise<number> {
  const sent = Date.now();
  send();
  await waitFor(async () => !(await portAccepts(server.port)), `the port ${server.port} freed`, GRACE_MS);
  await waitFor(() => isGone(node), `node (pid ${node}) gone`, GRACE_MS);
  return Date.now() - sent;
}

describe('npm start under a process manager', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    '%s to npm stops the server: port freed within the grace, node gone, npm exits',
    async (signal) => {
      const npm = npmStart();
      const server = await listening(npm);
      expect(await health(server.url)).toBe(200);
      const [node] = childrenOf(npm.child.pid!);
      expect(node, 'npm has one child').toBeDefined();
      // No shell between npm and node: sh would die of the signal npm passes on and leave node behind.
      expect(execFileSync('ps', ['-o', 'comm=', '-p', String(node)], { encoding: 'utf8' }).trim()).toBe('node');
      const tookMs = await stopsWithin(server, node!, () => npm.child.kill(signal));
      console.log(`${signal} to npm start: port freed and node gone in ${tookMs} ms`);
      expect(npm.stdout()).toContain('"msg":"stopped"');
      const exit = await npm.exited;
      expect(exit.code === 0 || exit.signal === signal, `npm exited with ${JSON.stringify(exit)}`).toBe(true);
    },
    120_000,
  );

  it('stops by itself when npm dies without passing a signal on (re-parented)', async () => {
    const npm = npmStart();
    const server = await listening(npm);
    const [node] = childrenOf(npm.child.pid!);
    const tookMs = await stopsWithin(server, node!, () => npm.child.kill('SIGKILL'));
    console.log(`npm SIGKILLed: the orphaned server stopped in ${tookMs} ms`);
  }, 120_000);

  it('stops by itself when npm dies while the server is still loading (before it could read its parent)', async () => {
    const npm = npmStart();
    const node = await waitFor(
      () => childrenOf(npm.child.pid!)[0],
      "npm's child (node, exec'd by the script)",
      START_TIMEOUT_MS,
    );
    nodes.push(node);
    npm.child.kill('SIGKILL');
    await waitFor(
      () => isGone(node),
      `node (pid ${node}) gone after its npm was SIGKILLed during start-up`,
      START_TIMEOUT_MS,
    );
    expect(npm.stdout()).not.toMatch(/listening on/);
  }, 120_000);

  it('keeps the generated admin key in DATA_DIR across a restart, and says where an unknown key comes from', async () => {
    const keyDir = join(dataDir, 'restart');
    const keyOf = async () => {
      const npm = npmStart({ DATA_DIR: keyDir });
      const [, key] = await npm.waitFor(
        /API_KEYS is unset: .*admin key \(kept in \S+admin-key, mode 0600; delete the file for a new one\): (\S+)/,
        START_TIMEOUT_MS,
      );
      const { url } = await listening(npm);
      const call = (token: string) =>
        fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ query: '{ viewer { role } }' }),
        }).then((res) => res.json() as Promise<any>);
      const answers = { mine: await call(key!), stale: await call('an-old-key-from-yesterday-0123456789') };
      npm.child.kill('SIGTERM');
      await npm.exited;
      return { key: key!, answers };
    };
    const first = await keyOf();
    const second = await keyOf();
    expect(second.key).toBe(first.key);
    expect(second.answers.mine).toEqual({ data: { viewer: { role: 'admin' } } });
    expect((await readFile(join(keyDir, 'admin-key'), 'utf8')).trim()).toBe(first.key);
    expect(second.answers.stale.errors[0].message).toContain(
      'npm start keeps its generated admin key in DATA_DIR/admin-key',
    );
  }, 180_000);
});

describe('an unreachable trace collector', () => {
  it('is a rate-limited warning while serving, and SIGTERM still exits 0 within the grace', async () => {
    // A port that was free a moment ago: nothing answers there.
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const main = spawnMain({
      MONGODB_URI: testMongoUri(),
      MONGODB_DB: 'test_otlp_unreachable',
      PORT: '0',
      HOST: '127.0.0.1',
      SEED_DEMO: '0',
      API_KEYS: 'otlp-test-admin-key-0123456789=admin',
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${closed}`,
      // Batches every 200 ms, and the exporter gives a batch up after 1 s of retries: many
      // failed exports within the test's few seconds, so the rate limit has something to limit.
      OTEL_BSP_SCHEDULE_DELAY: '200',
      OTEL_EXPORTER_OTLP_TIMEOUT: '1000',
    });
    running.push(main);
    const { url } = await listening(main);
    const call = () =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer otlp-test-admin-key-0123456789' },
        body: JSON.stringify({ query: '{ health { engine } }' }),
      });
    // Requests keep making spans until the first failed export is said, then for as long again.
    let calls = 0;
    await waitFor(
      async () => {
        expect((await call()).status).toBe(200);
        calls++;
        return /could not export/.test(main.stdout());
      },
      'a warning about the failed export',
      30_000,
    );
    const firstSaidAt = Date.now();
    while (Date.now() - firstSaidAt < 3_000) {
      expect((await call()).status).toBe(200);
      calls++;
    }
    const warnings = main
      .stdout()
      .split('\n')
      .filter((line) => line.includes('could not export'));
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0]!)).toMatchObject({ level: 40, error: expect.stringContaining('ECONNREFUSED') });

    const sent = Date.now();
    main.child.kill('SIGTERM');
    expect(await main.exited).toEqual({ code: 0, signal: null });
    const tookMs = Date.now() - sent;
    console.log(`${calls} calls traced to nowhere; SIGTERM to exit 0 in ${tookMs} ms`);
    expect(tookMs).toBeLessThan(GRACE_MS);
    expect(main.stdout()).not.toContain('shutdown failed');
  }, 120_000);
});
