import { sweepBatchMax } from './limits.ts';
import { driveWithRetries, type LedgerDeps } from './moveMoney.ts';

export interface SweepReport {
  completed: number;
  unfinished: number;
}

/**
 * Completes requests left pending by a crash or a lost reply (G5). Safe to run while other
 * processes serve traffic: driving a request is idempotent, so a request that is in fact still
 * in flight elsewhere reaches the same single outcome. Bounded to `sweepBatchMax` per run.
 */
export async function sweepPendingRequests(deps: LedgerDeps): Promise<SweepReport> {
  const pending = await deps.collections.requests
    .find({ status: 'pending' })
    .sort({ firstSeenAt: 1 })
    .limit(sweepBatchMax)
    .toArray();
  const report: SweepReport = { completed: 0, unfinished: 0 };
  for (const request of pending) {
    const driven = await driveWithRetries(deps, request);
    report[driven.kind === 'decided' ? 'completed' : 'unfinished'] += 1;
  }
  return report;
}
