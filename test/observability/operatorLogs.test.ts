// @module-tag processes
// Proves logs an operator can read: one info line per mutation with the union member it answered,
// the key's fingerprint (never the key), the request id and what it was about, with ISO times;
// refused credentials logged but rate-limited (20 refusals, 5 lines); LOG_FORMAT=pretty turns a
// line into one readable line; graphql_operations_total is labelled by the SDK's operation names
// and "other" for any name a client makes up; and a process started on a port already in use stops
// at once, before any start-up work, with a message and exit code 98.
import { startEmulator } from '@precondition/mongo-emulator';
import { createServer } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createClient } from '../../packages/sdk/src/index.ts';
import { loadConfig } from '../../src/config.ts';
import { LogThrottle } from '../../src/observability/logThrottle.ts';
import { createLogger } from '../../src/observability/logger.ts';
import { prettyLine } from '../../src/observability/prettyLog.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { spawnMain } from '../support/app.ts';
import { eventually } from '../support/waiting.ts';

type LogLine = Record<string, unknown> & { msg: string; time: string; level: number };

describe('operator logs', () => {
  let app: TestApp;
  const lines: LogLine[] = [];
  let raw = '';
  beforeAll(async () => {
    const destination = new Writable({
      write(chunk, _encoding, done) {
        raw += String(chunk);
        for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line) as LogLine);
        done();
      },
    });
    app = await startTestApp({ logger: createLogger({ level: 'info', destination }), env: { SEED_DEMO: '0' } });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('writes one info line per money move and work-item transition: member, key fingerprint, request id, ISO time', async () => {
    const service = createClient({ url: app.url, apiKey: app.keys.service });
    await service.openAccount({ accountId: 'log-a', currency: 'EUR' });
    await service.deposit({ accountId: 'log-a', amount: 500, requestId: 'log-d1' });
    await service.withdraw({ accountId: 'log-a', amount: 900, requestId: 'log-w1' });
    const created = await service.createWorkItem({ kind: 'LOG', idempotencyKey: 'log-k' });
    if (created.__typename !== 'CreateWorkItemSuccess') throw new Error(created.__typename);
    await service.claimWorkItem({ workerId: 'log-w', id: created.item.id });

    const moves = lines.filter((line) => typeof line['mutation'] === 'string');
    expect(moves.map((line) => `${line['mutation']} ${line['result']}`)).toEqual([
      'openAccount OpenAccountSuccess',
      'deposit DepositSuccess',
      'withdraw InsufficientFunds',
      'createWorkItem CreateWorkItemSuccess',
      'claimWorkItem ClaimSuccess',
    ]);
    const withdraw = moves[2]!;
    expect(withdraw).toMatchObject({
      level: 30,
      msg: 'withdraw: InsufficientFunds',
      role: 'service',
      transport: 'http',
      input: { accountId: 'log-a', amount: 900, requestId: 'log-w1' },
    });
    expect(withdraw['keyId']).toMatch(/^[0-9a-f]{12}$/);
    expect(withdraw['requestId']).toMatch(/^[0-9a-f-]{36}$/);
    expect(withdraw.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(raw).not.toContain(app.keys.service);
  });

  it('logs refused credentials, at most 5 lines per key and reason in a window', async () => {
    const before = lines.filter((line) => line.msg.startsWith('refused:')).length;
    for (let i = 0; i < 20; i++) await app.gql('{ health { engine } }', {}, { key: 'not-a-key-of-ours-0123456789' });
    const refused = lines.filter((line) => line.msg.startsWith('refused:')).slice(before);
    expect(refused).toHaveLength(5);
    expect(refused[0]).toMatchObject({
      code: 'UNAUTHENTICATED',
      reason: 'unknown',
      msg: expect.stringMatching(/^refused: Unknown API key: /),
    });
  });

  it('labels graphql_operations_total by the SDK operation name, anything else as "other"', async () => {
    await app.gql('query Health { health { engine } }');
    await app.gql('query MyOwnName123 { health { engine } }');
    const metrics = await app.registry.getSingleMetricAsString('graphql_operations_total');
    expect(metrics).toMatch(/graphql_operations_total\{type="query",outcome="ok",operation="Health"\} [1-9]/);
    expect(metrics).toMatch(/operation="other"/);
    expect(metrics).not.toContain('MyOwnName123');
  });
});

describe('subscriber resyncs', () => {
  it('are logged with their feed and reason, a burst of them as one line per reason', async () => {
    const OPLOG_MAX_ENTRIES = 100;
    const emulator = await startEmulator({ port: 0, replSetName: 'rs0', oplogMaxEntries: OPLOG_MAX_ENTRIES });
    const lines: LogLine[] = [];
    const destination = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line) as LogLine);
        done();
      },
    });
    const app = await startTestApp({ mongoUri: emulator.uri, logger: createLogger({ level: 'info', destination }) });
    try {
      const clients = Array.from({ length: 8 }, () =>
        createClient({ url: app.url, apiKey: app.keys.ops, webSocketImpl: WebSocket }),
      );
      const streams = clients.map((client) => client.subscribe.workItemStatusChanged({ kinds: ['LOG_RESYNC'] }));
      const firsts = streams.map((events) => events.next());
      await eventually(() => expect(app.services.liveFeeds.workItems.subscriberCount).toBe(8));
      // More than the whole oplog in one burst: the shared stream loses its place, every subscriber must resync.
      await app.db.collection('filler').insertMany(Array.from({ length: 2 * OPLOG_MAX_ENTRIES }, (_, i) => ({ i })));
      for (const first of firsts)
        expect((await first).value).toMatchObject({ __typename: 'ResyncRequired', reason: 'HISTORY_LOST' });
      const resyncs = lines.filter((line) => line.msg.startsWith('subscriber told to resync'));
      expect(resyncs.length).toBeGreaterThanOrEqual(1);
      expect(resyncs.length).toBeLessThanOrEqual(5);
      expect(resyncs[0]).toMatchObject({
        level: 30,
        feed: 'workItems',
        reason: 'HISTORY_LOST',
        msg: 'subscriber told to resync: HISTORY_LOST',
      });
      for (const events of streams) await events.return();
      for (const client of clients) await client.close();
    } finally {
      await app.close();
      await emulator.stop();
    }
  });
});

describe('the log throttle', () => {
  it('writes the first lines of a window per key, then reports how many it dropped on the next line written', () => {
    let nowMs = 0;
    const throttle = new LogThrottle({ windowMs: 10_000, perWindowMax: 2, keysMax: 2, now: () => nowMs });
    expect(Array.from({ length: 5 }, () => throttle.take('a').write)).toEqual([true, true, false, false, false]);
    expect(throttle.take('b')).toEqual({ write: true, suppressed: 0 });
    nowMs = 10_000;
    expect(throttle.take('a')).toEqual({ write: true, suppressed: 3 });
    expect(throttle.take('a')).toEqual({ write: true, suppressed: 0 });
  });
});

describe('LOG_FORMAT', () => {
  it('is validated: json (default) or pretty', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).logFormat).toBe('json');
    expect(loadConfig({ NODE_ENV: 'test', LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(() => loadConfig({ NODE_ENV: 'test', LOG_FORMAT: 'color' })).toThrow(/LOG_FORMAT/);
  });

  it('pretty prints one readable line: time, level, message, then the fields', () => {
    const json = JSON.stringify({
      level: 30,
      time: '2026-12-03T22:59:01.123Z',
      service: 'precondition',
      msg: 'withdraw: WithdrawSuccess',
      keyId: 'abc123def456',
      input: { amount: 5 },
    });
    expect(prettyLine(json)).toBe('22:59:01.123 INFO  withdraw: WithdrawSuccess keyId=abc123def456 input={"amount":5}');
  });
});

describe('a port already in use', () => {
  it('stops the process at once with a clear message and exit code 98, before any start-up work', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as { port: number };
    try {
      const startedMs = Date.now();
      const main = spawnMain({
        PORT: String(port),
        HOST: '127.0.0.1',
        NODE_ENV: 'development',
        MONGO_ENGINE: 'emulator',
      });
      const { code } = await main.exited;
      expect(code).toBe(98);
      expect(main.stderr()).toContain(
        `port ${port} on 127.0.0.1 is already in use (EADDRINUSE): stop the process that holds it, or set PORT`,
      );
      // Nothing was started: no engine chosen, no start-up task run, no key generated.
      expect(main.stdout()).not.toMatch(/engine|start-up task|listening/);
      expect(main.stderr()).not.toContain('generated a development admin key');
      console.log(`EADDRINUSE: exited ${code} after ${Date.now() - startedMs} ms`);
    } finally {
      holder.close();
    }
  }, 30_000);
});
