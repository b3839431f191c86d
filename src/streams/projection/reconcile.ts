import type { Logger } from '../../observability/logger.ts';
import type { LedgerService } from '../../ledger/index.ts';
import type { WorkService } from '../../work/index.ts';
import { ProjectionLimits } from '../limits.ts';
import type { StreamsTelemetry } from '../telemetry.ts';
import { payoutOf, type PayoutWriter } from './payouts.ts';

export type ReconcileReason = 'NO_CHECKPOINT' | 'HISTORY_LOST' | 'INVALIDATED';

export interface ReconcileDeps {
  ledger: Pick<LedgerService, 'withdrawalsAfter'>;
  work: Pick<WorkService, 'entriesWithPayout'>;
  writePayout: PayoutWriter;
  /** Called after each page: false stops the walk (the lease was lost). */
  stillHolding: () => Promise<boolean>;
  logger: Logger;
  telemetry: Pick<StreamsTelemetry, 'payoutReconciliationsTotal' | 'payoutReconciledTotal'>;
}

/**
 * Creates the payout of every applied withdrawal that has none: an index walk over withdrawal
 * entries by `_id`, page by page, each page checked against the payouts' unique key. It never
 * compares times with tokens, so it is right however much history was lost. Returns how many
 * payouts it created, or null when the lease was lost on the way.
 */
export async function reconcilePayouts(deps: ReconcileDeps, reason: ReconcileReason): Promise<number | null> {
  deps.telemetry.payoutReconciliationsTotal.inc({ reason });
  let afterId: string | null = null;
  let created = 0;
  for (let page = 0; page < ProjectionLimits.reconcilePagesMax; page++) {
    const withdrawals = await deps.ledger.withdrawalsAfter(afterId, ProjectionLimits.reconcileBatchMax);
    if (withdrawals.length === 0) {
      deps.logger.info({ reason, created }, 'payout reconciliation done');
      return created;
    }
    const projected = await deps.work.entriesWithPayout(withdrawals.map((entry) => entry.id));
    for (const entry of withdrawals) {
      if (projected.has(entry.id)) continue;
      const result = await deps.writePayout(payoutOf({ entryId: entry.id, ...entry }));
      if (result.created) {
        created++;
        deps.telemetry.payoutReconciledTotal.inc();
      }
    }
    afterId = (withdrawals.at(-1) as { id: string }).id;
    if (!(await deps.stillHolding())) return null;
  }
  deps.logger.error({ reason, created, pagesMax: ProjectionLimits.reconcilePagesMax }, 'payout reconciliation stopped at its page limit');
  return created;
}
