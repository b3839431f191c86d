// Proves the gauges the alerts read: the age of the oldest pending ledger request comes from the
// requests collection at scrape time (the ledger writes every request decided, so it reads 0 unless
// something else left one pending), and the oplog window is present exactly when local.oplog.rs can
// be read. Both cases run on every engine: the readable one on the suite's engine (mongod and the
// emulator both serve the oplog), the unreadable one on a database whose oplog reads are refused
// as a user without read on `local` sees them: the window gauge is then absent and the
// availability gauge 0, so the window alert stays silent rather than reading 0.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectionNames } from '../../src/ledger/index.ts';
import { MongoServerError, type Db } from 'mongodb';
import { Registry } from 'prom-client';
import { readOplogStats, registerOpsGauges } from '../../src/observability/opsGauges.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { databaseClockPasses } from '../support/waiting.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
});

const scrape = async () => (await fetch(new URL('/metrics', app.url))).text();

describe('ops gauges', () => {
  it('reports the age of the oldest pending ledger request, 0 when none', async () => {
    expect(await scrape()).toMatch(/^ledger_request_oldest_pending_age_seconds 0$/m);
    await app.db
      .collection(collectionNames.requests)
      .insertOne({ _id: 'stuck-1', status: 'pending', firstSeenAt: new Date(Date.now() - 600_000) } as never);
    const age = Number(/^ledger_request_oldest_pending_age_seconds (\S+)$/m.exec(await scrape())?.[1]);
    expect(age).toBeGreaterThanOrEqual(600);
    expect(age).toBeLessThan(3_600);
  });

  it('reports the oplog window from the first to the last entry where the oplog can be read', async () => {
    const first = await readOplogStats(app.db);
    // The emulator and mongodb-memory-server both serve local.oplog.rs to the test's user.
    expect(first).not.toBeNull();
    // A window of at least a second: one more entry once the database clock is a second past the first.
    await databaseClockPasses(app.db, new Date(first!.firstAt.getTime() + 1_000));
    await app.db.collection('ops_gauges_probe').insertOne({ at: new Date() });
    const before = (await readOplogStats(app.db))!;
    const text = await scrape();
    const after = (await readOplogStats(app.db))!;
    expect(text).toMatch(/^mongodb_oplog_stats_available 1$/m);
    const window = Number(/^mongodb_oplog_window_seconds\{collection="local.oplog.rs"\} (\S+)$/m.exec(text)?.[1]);
    // Other files write meanwhile: the scrape's window lies between the reads taken around it.
    expect(window).toBeGreaterThanOrEqual((before.lastAt.getTime() - after.firstAt.getTime()) / 1000);
    expect(window).toBeLessThanOrEqual((after.lastAt.getTime() - before.firstAt.getTime()) / 1000);
    expect(window).toBeGreaterThanOrEqual(1);
  });

  it('reports an unreadable oplog as unavailable, with no window gauge rather than a window of 0', async () => {
    // What a user without read on `local` meets: every oplog read is refused.
    const refused = new MongoServerError({
      ok: 0,
      code: 13,
      codeName: 'Unauthorized',
      errmsg: 'not authorized on local to execute command { find: "oplog.rs" }',
    });
    const oplog = { find: () => ({ next: () => Promise.reject(refused) }) };
    const unreadable = {
      client: { db: () => ({ collection: () => oplog, command: () => Promise.reject(refused) }) },
    } as unknown as Db;
    expect(await readOplogStats(unreadable)).toBeNull();
    const registry = new Registry();
    registerOpsGauges(registry, unreadable);
    const text = await registry.metrics();
    expect(text).toMatch(/^mongodb_oplog_stats_available 0$/m);
    expect(text).not.toMatch(/^mongodb_oplog_window_seconds\{/m);
  });
});
