// @module-tag processes
// Proves the standalone command works with no build step: it logs its ready line, serves the
// driver, stops cleanly on SIGTERM, takes --oplogSizeMB and --setParameter, and rejects bad flags
// with exit code 2.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MongoClient } from 'mongodb';

const BIN = fileURLToPath(new URL('../../bin/mongo-emulator.mjs', import.meta.url));
const READY_TIMEOUT_MS = 15_000;

function run(args: string[]): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function readyUri(output: () => string): Promise<string> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const match = /mongo-emulator ready on (mongodb:\/\/\S+) \(replica set rs0, in-memory; not for production\)/.exec(
      output(),
    );
    if (match) return match[1]!;
    if (Date.now() > deadline) throw new Error(`no ready line: ${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('mongo-emulator CLI', () => {
  it('serves the driver and stops cleanly on SIGTERM', async () => {
    const { child, output, exited } = run(['--port', '0', '--replSet', 'rs0']);
    try {
      const uri = await readyUri(output);
      const client = new MongoClient(uri);
      try {
        expect((await client.db('admin').command({ ping: 1 })).ok).toBe(1);
      } finally {
        await client.close();
      }
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('stops on the shutdown command, as mongod, and exits 0', async () => {
    const { child, output, exited } = run(['--port', '0', '--replSet', 'rs0']);
    try {
      const uri = await readyUri(output);
      const client = new MongoClient(uri, { retryReads: false });
      try {
        // The process stops before it answers: the driver sees the connection close.
        await client
          .db('admin')
          .command({ shutdown: 1 })
          .catch(() => undefined);
      } finally {
        await client.close();
      }
      expect(await exited).toBe(0);
      expect(output()).toContain('shutdown command received, stopping');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('--nodes 3 starts a replica set of three member processes, prints its URI and stops them all on SIGTERM', async () => {
    const { child, output, exited } = run([
      '--nodes',
      '3',
      '--port',
      '0',
      '--replSet',
      'rs0',
      '--electionTimeoutMillis',
      '1000',
      '--heartbeatIntervalMillis',
      '200',
    ]);
    try {
      const deadline = Date.now() + 30_000;
      let match: RegExpExecArray | null = null;
      while (
        !(match = /ready on (mongodb:\/\/\S+) \(replica set rs0 of 3 member processes, pids (\d+), (\d+), (\d+)/.exec(
          output(),
        ))
      ) {
        if (Date.now() > deadline) throw new Error(`no ready line: ${output()}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const [, uri, ...pids] = match;
      expect(uri!.split('/')[2]!.split(',')).toHaveLength(3);
      const client = new MongoClient(uri!);
      try {
        await client
          .db('cli')
          .collection('t')
          .insertOne({ _id: 1 } as never, { writeConcern: { w: 3 } });
        const hello = await client.db('admin').command({ hello: 1 });
        expect(hello.hosts).toHaveLength(3);
      } finally {
        await client.close();
      }
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      for (const pid of pids) expect(() => process.kill(Number(pid), 0)).toThrow();
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('rejects an unknown flag with a clear message and exit code 2', async () => {
    const { output, exited } = run(['--bogus']);
    expect(await exited).toBe(2);
    expect(output()).toMatch(/Unknown option '--bogus'[\s\S]*Usage: mongo-emulator/);
  });

  it('rejects a bad port with exit code 2', async () => {
    const { output, exited } = run(['--port', 'seventy']);
    expect(await exited).toBe(2);
    expect(output()).toContain("--port must be 0-65535, got 'seventy'");
  });

  it('bounds the oplog by --oplogSizeMB, as collStats on local.oplog.rs reports', async () => {
    const { child, output, exited } = run(['--port', '0', '--replSet', 'rs0', '--oplogSizeMB', '2']);
    try {
      const client = new MongoClient(await readyUri(output));
      try {
        const stats = await client.db('local').command({ collStats: 'oplog.rs' });
        expect(stats).toMatchObject({ capped: true, maxSize: 2 * 1024 * 1024 });
      } finally {
        await client.close();
      }
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('rejects a non-positive --oplogSizeMB with exit code 2', async () => {
    const { output, exited } = run(['--oplogSizeMB', '0']);
    expect(await exited).toBe(2);
    expect(output()).toContain("--oplogSizeMB must be a positive number, got '0'");
  });

  it("takes mongod's --setParameter transactionLifetimeLimitSeconds=N, as getParameter reports", async () => {
    const { child, output, exited } = run([
      '--port',
      '0',
      '--setParameter',
      'transactionLifetimeLimitSeconds=10',
      '--setParameter',
      'enableTestCommands=1',
    ]);
    try {
      const client = new MongoClient(await readyUri(output));
      try {
        expect(await client.db('admin').command({ getParameter: 1, transactionLifetimeLimitSeconds: 1 })).toMatchObject(
          { transactionLifetimeLimitSeconds: 10 },
        );
      } finally {
        await client.close();
      }
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('rejects an unknown or invalid --setParameter with exit code 2', async () => {
    const unknown = run(['--setParameter', 'noSuchParameter=1']);
    expect(await unknown.exited).toBe(2);
    expect(unknown.output()).toContain('Illegal --setParameter parameter: "noSuchParameter"');
    const invalid = run(['--setParameter', 'transactionLifetimeLimitSeconds=0']);
    expect(await invalid.exited).toBe(2);
    expect(invalid.output()).toContain('transactionLifetimeLimitSeconds: 0 is not greater than or equal to 1');
  });

  it('prints help', async () => {
    const { output, exited } = run(['--help']);
    expect(await exited).toBe(0);
    expect(output()).toContain('For tests and development only');
  });
});
