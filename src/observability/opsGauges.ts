// Gauges read from the database when Prometheus scrapes /metrics, for the alerts in
// ops/prometheus: the oplog window (how far back a change stream can resume: first and last
// oplog entries of local.oplog.rs, and its size from collStats). The age of the oldest pending
// ledger request is the ledger's own gauge (src/ledger/telemetry.ts).
//
// The oplog may be unreadable: a user without read on `local`, or an engine that does not expose
// local.oplog.rs. Then `mongodb_oplog_stats_available`
// is 0 and the window gauge is absent, not 0, so the window alert does not fire on it; the
// availability gauge has its own alert. Each scrape reads for at most `scrapeReadTimeoutMs`.
import type { Db } from 'mongodb';
import type { Registry } from 'prom-client';
import { gaugeOn } from './metrics.ts';

export const OpsGaugeLimits = Object.freeze({
  /** A scrape's database reads give up after this; the gauges then read as unavailable. */
  scrapeReadTimeoutMs: 2_000,
});

async function withTimeout<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), timeoutMs);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export interface OplogStats {
  firstAt: Date;
  lastAt: Date;
  sizeBytes: number | null;
  maxSizeBytes: number | null;
}

/** The oplog's first and last entry times (and size, when collStats answers), or null when unreadable. */
export async function readOplogStats(db: Db): Promise<OplogStats | null> {
  const oplog = db.client.db('local').collection('oplog.rs');
  try {
    const [first, last] = await Promise.all([
      oplog.find({}, { sort: { $natural: 1 }, limit: 1, projection: { ts: 1, wall: 1 } }).next(),
      oplog.find({}, { sort: { $natural: -1 }, limit: 1, projection: { ts: 1, wall: 1 } }).next(),
    ]);
    if (!first || !last) return null;
    const stats = await db.client
      .db('local')
      .command({ collStats: 'oplog.rs' })
      .catch(() => null);
    return {
      firstAt: entryTime(first),
      lastAt: entryTime(last),
      sizeBytes: typeof stats?.['size'] === 'number' ? stats['size'] : null,
      maxSizeBytes: typeof stats?.['maxSize'] === 'number' ? stats['maxSize'] : null,
    };
  } catch {
    return null;
  }
}

// `wall` is the entry's wall-clock time; `ts` (a Timestamp, seconds since the epoch) is always there.
function entryTime(entry: Record<string, unknown>): Date {
  if (entry['wall'] instanceof Date) return entry['wall'];
  const ts = entry['ts'] as { getHighBits?: () => number; high?: number };
  return new Date((ts.getHighBits?.() ?? ts.high ?? 0) * 1000);
}

/**
 * Registers the gauges on `registry`, read from `db` on each scrape until the returned stop()
 * runs (then the oplog reads as unavailable). One registry per app (src/app/createApp.ts), so one source.
 */
export function registerOpsGauges(registry: Registry, db: Db): { stop(): void } {
  if (registry.getSingleMetric('mongodb_oplog_window_seconds'))
    throw new Error('the ops gauges are already registered on this registry');
  let source: Db | null = db;
  // Both gauges answer from one read per scrape: prom-client collects them concurrently, and the
  // availability gauge set from the window gauge's read showed the previous scrape's state.
  let reading: Promise<OplogStats | null> | null = null;
  const read = (): Promise<OplogStats | null> =>
    (reading ??= (
      source
        ? withTimeout(readOplogStats(source), OpsGaugeLimits.scrapeReadTimeoutMs).catch(() => null)
        : Promise.resolve(null)
    ).finally(() => {
      reading = null;
    }));
  gaugeOn(registry, {
    name: 'mongodb_oplog_stats_available',
    help: '1 when local.oplog.rs could be read at the last scrape (the window gauges are then present), else 0',
    async collect() {
      this.set((await read()) ? 1 : 0);
    },
  });
  gaugeOn(registry, {
    name: 'mongodb_oplog_window_seconds',
    help: 'Seconds between the first and the last oplog entry: how far back a change stream can resume. Absent when the oplog is unreadable',
    // A labelled gauge has no series until set (an unlabelled one always shows 0): absent, not 0.
    labelNames: ['collection'] as const,
    async collect() {
      this.reset();
      const stats = await read();
      if (stats) this.set({ collection: 'local.oplog.rs' }, (stats.lastAt.getTime() - stats.firstAt.getTime()) / 1000);
    },
  });
  return {
    stop() {
      source = null;
    },
  };
}
