// Proves the gauges the alerts read: the age of the oldest pending ledger request comes from the
// requests collection at scrape time (the ledger writes every request decided, so it reads 0 unless
// something else left one pending), and the oplog window is present exactly when local.oplog.rs can
// be read (mongod and the emulator both serve it; a user without read on `local` cannot: the gauge
// is then absent and the availability gauge 0, so the window alert stays silent rather than reading 0).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectionNames } from '../../src/ledger/index.ts';
import { readOplogStats } from '../../src/observability/opsGauges.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

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
    await app.db.collection(collectionNames.requests).insertOne({ _id: 'stuck-1', status: 'pending', firstSeenAt: new Date(Date.now() - 600_000) } as never);
    const age = Number(/^ledger_request_oldest_pending_age_seconds (\S+)$/m.exec(await scrape())?.[1]);
    expect(age).toBeGreaterThanOrEqual(600);
    expect(age).toBeLessThan(3_600);
  });

  it('reports the oplog window exactly when the oplog can be read', async () => {
    const stats = await readOplogStats(app.db);
    const text = await scrape();
    if (stats === null) {
      expect(text).toMatch(/^mongodb_oplog_stats_available 0$/m);
      expect(text).not.toMatch(/^mongodb_oplog_window_seconds\{/m);
    } else {
      expect(text).toMatch(/^mongodb_oplog_stats_available 1$/m);
      expect(Number(/^mongodb_oplog_window_seconds\{[^}]*\} (\S+)$/m.exec(text)?.[1])).toBeGreaterThanOrEqual(0);
      expect(stats.lastAt.getTime()).toBeGreaterThanOrEqual(stats.firstAt.getTime());
    }
  });
});
