// A real redis-server for the tests of the BullMQ payout sink (Debian's package; .ci/run installs
// it when missing). Each call starts its own server on a free port of 127.0.0.1, in a temporary
// directory, and `stop()` ends it by its pid (never by name: other sessions run redis too).
//
//   const redis = await startTestRedis();                   // nothing written to disk
//   const durable = await startTestRedis({ durable: true }); // AOF on, so stop()+start() keeps the queue
//   await durable.stop(); ...; await durable.start();        // same port, same data
//   await redis.stop({ remove: true });
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestRedis {
  /** redis://127.0.0.1:<port> (REDIS_URL). */
  url: string;
  port: number;
  /** True while the server process runs. */
  readonly running: boolean;
  /** Starts the server again on the same port and directory (after `stop`). */
  start(): Promise<void>;
  /** Ends the server (SIGTERM, which flushes the AOF of a durable one) and waits for its exit; `remove` also deletes its directory. */
  stop(options?: { remove?: boolean }): Promise<void>;
}

/** How long a start may take before the test fails with the server's own output. */
const START_TIMEOUT_MS = 10_000;

export function redisServerBinary(): string {
  const binary = process.env['REDIS_SERVER'] ?? 'redis-server';
  if (spawnSync(binary, ['--version'], { stdio: 'ignore' }).status !== 0) {
    throw new Error(
      `${binary} not found: install Debian's redis-server package (apt-get install -y --no-install-recommends redis-server; .ci/run does), or set REDIS_SERVER`,
    );
  }
  return binary;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function startTestRedis(options: { durable?: boolean } = {}): Promise<TestRedis> {
  const binary = redisServerBinary();
  const dir = await mkdtemp(join(tmpdir(), 'precondition-redis-'));
  const port = await freePort();
  const persistence = options.durable ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'];
  // No RDB snapshots either way; BullMQ asks for noeviction (a queue must not lose keys to memory pressure).
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    ...persistence,
    '--maxmemory-policy',
    'noeviction',
    '--daemonize',
    'no',
    '--loglevel',
    'notice',
    '--logfile',
    '',
  ];
  let child: ChildProcess | null = null;

  async function start(): Promise<void> {
    if (child) throw new Error('redis-server is running already');
    const started = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child = started;
    let output = '';
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`redis-server did not become ready within ${START_TIMEOUT_MS} ms:\n${output}`)),
        START_TIMEOUT_MS,
      );
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        // Printed at every log level once it listens (and, with an AOF, once it has loaded it).
        if (/Ready to accept connections/.test(output)) {
          clearTimeout(timer);
          resolve();
        }
      };
      started.stdout!.on('data', onData);
      started.stderr!.on('data', onData);
      started.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited (${code ?? signal}) before it was ready:\n${output}`));
      });
    });
    started.once('exit', () => {
      if (child === started) child = null;
    });
    try {
      await ready;
    } catch (error) {
      started.kill('SIGKILL');
      child = null;
      throw error;
    }
  }

  async function stop(stopOptions: { remove?: boolean } = {}): Promise<void> {
    const running = child;
    if (running && running.exitCode === null && running.signalCode === null) {
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGTERM');
      await exited;
    }
    child = null;
    if (stopOptions.remove) await rm(dir, { recursive: true, force: true });
  }

  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    get running() {
      return child !== null;
    },
    start,
    stop,
  };
}
