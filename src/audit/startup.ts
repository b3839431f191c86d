import type { StartupTask } from '../db/startupTasks.ts';
import { ledgerAuditFor, type LedgerAuditOptions } from './LedgerAudit.ts';
import { ensureAuditIndexes } from './model.ts';

// The audit's start-up step: its indexes, then its loop (every process competes for the lease;
// one audits at a time). It runs after the ledger's and the work items' indexes.
export function ledgerAuditTask(options: LedgerAuditOptions = {}): StartupTask {
  return {
    name: 'audit: ledger audit',
    async run({ db, logger }) {
      await ensureAuditIndexes(db);
      const audit = ledgerAuditFor(db, logger.child({ component: 'ledgerAudit' }), options);
      audit.start();
      return { stop: () => audit.stop() };
    },
  };
}

export const auditStartupTasks: readonly StartupTask[] = [ledgerAuditTask()];
