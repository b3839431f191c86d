import { setTimeout as sleep } from 'node:timers/promises';
import type { Collection } from 'mongodb';
import type { EntryDoc } from '../ledger/index.ts';
import { fromLong } from '../ledger/index.ts';
import type { Logger } from '../observability/logger.ts';
import type { StreamsTelemetry } from '../fanout/telemetry.ts';
import type { CatchUpProgress } from './lease.ts';
import { payoutOf, type PayoutWriter } from './payoutWriter.ts';
import type { PayoutSink } from './sink.ts';
import { withdrawalsAfter } from './withdrawalWalk.ts';

export type ReconcileReason = 'NO_CHECKPOINT' | 'HISTORY_LOST' | 'INVALIDATED';

export interface CatchUpLimits {
  batchMax: number;
  pagesPerSliceMax: number;
  pauseMs: number;
}

export interface CatchUpDeps {
  entries: Collection<EntryDoc>;
  /** Which entries are handed over already (the sink's own unique key). */
  sink: Pick<PayoutSink, 'entriesWithPayout'>;
  writePayout: PayoutWriter;
  /** Stores the progress under the lease after each page (and renews it): false stops the walk. */
  saveProgress: (progress: CatchUpProgress) => Promise<boolean>;
  limits: CatchUpLimits;
  signal: AbortSignal;
  logger: Logger;
  telemetry: StreamsTelemetry;
}

/** Where a new catch-up starts: the watermark less the margin, or the beginning without one. */
export function catchUpStart(watermark: Date | null, marginMs: number): Date | null {
  return watermark === null ? null : new Date(watermark.getTime() - marginMs);
}

/**
 * Creates the payout of every applied withdrawal from `progress` on that has none: an index walk
 * over withdrawal entries by (createdAt, _id), page by page, each page checked against the
 * payouts' unique key, the position saved under the lease after each page so that a new holder
 * resumes there. It never compares times with tokens. There is no cap: after each slice of pages
 * it pauses (logged and counted) and goes on. Returns how many payouts it created, or null when
 * it was stopped or the lease was lost (the saved progress stays for the next holder).
 */
export async function catchUpPayouts(deps: CatchUpDeps, start: CatchUpProgress): Promise<number | null> {
  deps.telemetry.payoutReconciliationsTotal.inc({ reason: start.reason });
  const progress: CatchUpProgress = { ...start };
  let created = 0;
  let scanned = 0;
  deps.logger.info({ reason: progress.reason, from: progress.from, after: progress.after }, 'payout catch-up started');
  for (let page = 1; ; page++) {
    const withdrawals = await withdrawalsAfter(deps.entries, progress.after, progress.from, deps.limits.batchMax);
    if (withdrawals.length === 0) {
      deps.logger.info({ reason: progress.reason, created, scanned }, 'payout catch-up done');
      return created;
    }
    const projected = await deps.sink.entriesWithPayout(withdrawals.map((entry) => entry._id));
    for (const entry of withdrawals) {
      if (projected.has(entry._id)) continue;
      const { _id: entryId, requestId, accountId, currency, traceparent } = entry;
      const result = await deps.writePayout(
        payoutOf({ entryId, requestId, accountId, currency, amount: fromLong(entry.amount), traceparent }),
      );
      if (result.created) {
        created++;
        deps.telemetry.payoutReconciledTotal.inc();
      }
    }
    scanned += withdrawals.length;
    deps.telemetry.payoutCatchUpScannedTotal.inc(withdrawals.length);
    const last = withdrawals.at(-1) as EntryDoc;
    progress.after = { createdAt: last.createdAt, id: last._id };
    if (deps.signal.aborted || !(await deps.saveProgress(progress))) return null;
    if (page % deps.limits.pagesPerSliceMax === 0) {
      deps.telemetry.payoutCatchUpPausesTotal.inc();
      deps.logger.info(
        { reason: progress.reason, created, scanned, after: progress.after },
        'payout catch-up pausing after a slice of pages',
      );
      await sleep(deps.limits.pauseMs, undefined, { signal: deps.signal }).catch(() => undefined);
    }
  }
}
