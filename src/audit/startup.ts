import type { StartupTask } from '../db/startupTask.ts';
import type { LedgerAudit } from './LedgerAudit.ts';
import { ensureAuditIndexes } from './model.ts';

// The audit's start-up step: its indexes, then the loop of the app's one audit (src/app/createApp.ts builds
// it; every process competes for the lease, one audits at a time). It runs after the ledger's and
// the work items' indexes.
export function ledgerAuditTask(audit: LedgerAudit): StartupTask {
  return {
    name: 'audit: ledger audit',
    async run({ db }) {
      await ensureAuditIndexes(db);
      audit.start();
      return { stop: () => audit.stop() };
    },
  };
}
