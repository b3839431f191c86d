// The app's start-up tasks, in order: the ledger's and the work items' indexes before the streams,
// whose projection writes and reconciliation rely on them, and the audit last (it reads both).
// Lives above the features (they export their tasks, db/startupTasks.ts says what a task is), so
// no feature and not db/ imports it.
import { auditStartupTasks } from './audit/startup.ts';
import type { StartupTask } from './db/startupTasks.ts';
import { ledgerDashboardIndexesTask } from './ledger/dashboard.ts';
import { ledgerStartupTasks } from './ledger/startup.ts';
import { streamStartupTasks } from './streams/startup.ts';
import { workItemIndexesTask } from './work/startupTask.ts';

export const startupTasks: readonly StartupTask[] = [
  ...ledgerStartupTasks,
  ledgerDashboardIndexesTask,
  workItemIndexesTask,
  ...streamStartupTasks,
  ...auditStartupTasks,
];
