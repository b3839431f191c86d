// A dashboard's queue overview over a big collection: `workQueueStats` with 1,000,000 work items
// stored (inserted straight into the database, untimed: the API would take hours). The items
// spread over 4 kinds and every status, mostly DONE as in a long-running system, so a
// `$group` over the collection would read a million documents per call; the stats instead
// walk the kind index (one seek per kind) and count each (kind, status) up to a cap.
import { ObjectId } from 'mongodb';
import { outcomeLabel, sized } from '../context.ts';
import { measure } from '../measure.ts';
import { p99AtMostMs } from '../measured.ts';
import type { Scenario } from '../scenario.ts';

const NAME = 'work-queue-stats';
const ITEMS = { full: 1_000_000, quick: 2_000 };
const OPS = { full: 200, quick: 8 };
const CONCURRENCY = 4;
const INSERT_BATCH_MAX = 10_000;
const DURATION_MAX_MS = 120_000;
/** A console polling every few seconds stays interactive. */
const P99_MS_MAX = 250;
/** Share of items per status, per 100: most of a long-lived queue is done. */
const STATUS_MIX: ReadonlyArray<readonly [string, number]> = [
  ['DONE', 90],
  ['PENDING', 6],
  ['PROCESSING', 2],
  ['FAILED', 2],
];

const WORK_QUEUE_STATS_COUNTS = `query { workQueueStats { counts { status kind count capped } oldestPendingAgeSeconds conflictsSinceStart } }`;

export const workQueueStatsScenario: Scenario = {
  name: NAME,
  describe: (mode) =>
    `store ${sized(mode, ITEMS).toLocaleString('en')} work items (untimed), then ${sized(mode, OPS)} workQueueStats at c=${CONCURRENCY}`,
  async run(context) {
    const items = sized(context.mode, ITEMS);
    const kinds = [0, 1, 2, 3].map((k) => `bench-stats-${context.runId}-${k}`);
    const statuses = STATUS_MIX.flatMap(([status, share]) => Array.from({ length: share }, () => status));
    const now = new Date();
    for (let start = 0; start < items; start += INSERT_BATCH_MAX) {
      const batch = Array.from({ length: Math.min(INSERT_BATCH_MAX, items - start) }, (_, j) => {
        const i = start + j;
        return {
          _id: new ObjectId(),
          idempotencyKey: `client:${kinds[0]}-${i}`,
          kind: kinds[i % kinds.length],
          status: statuses[i % statuses.length],
          previousStatus: null,
          version: 1,
          availableAt: now,
          leaseExpiresAt: null,
          createdAt: now,
          updatedAt: now,
        };
      });
      await context.db.collection('workItems').insertMany(batch, { ordered: false });
    }
    const measured = await measure({
      name: NAME,
      target: p99AtMostMs(
        P99_MS_MAX,
        `p99 ≤ ${P99_MS_MAX} ms per call with ${items.toLocaleString('en')} items stored`,
      ),
      plan: { concurrency: CONCURRENCY, opsMax: sized(context.mode, OPS), durationMaxMs: DURATION_MAX_MS },
      expected: 'WorkQueueStats',
      async operation() {
        const answer = await context.pool.post(context.keys.dashboard, WORK_QUEUE_STATS_COUNTS, {});
        const label = answer.errors.length > 0 ? outcomeLabel(answer, 'workQueueStats') : 'WorkQueueStats';
        const counts =
          (answer.data?.['workQueueStats'] as { counts?: Array<{ kind: string }> } | undefined)?.counts ?? [];
        // Every bench kind must be reported, or the call answered something else than asked.
        return {
          label:
            label === 'WorkQueueStats' && kinds.every((kind) => counts.some((count) => count.kind === kind))
              ? label
              : `incomplete:${label}`,
        };
      },
    });
    return [
      {
        ...measured,
        note: `${items.toLocaleString('en')} items in ${kinds.length} kinds; counts capped at 10,000 per (kind, status)`,
      },
    ];
  },
};
