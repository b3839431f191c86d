// The app's start-up tasks, in order, over the services src/app/createApp.ts built: the ledger's and the
// work items' indexes before the streams, whose projection writes and reconciliation rely on
// them, and the audit last (it reads both). Lives above the features (they export their tasks,
// db/startupTask.ts says what a task is), so no feature and not db/ imports it.
import { ledgerAuditTask } from '../audit/startup.ts';
import { processLivenessTask } from '../db/processLiveness.ts';
import type { StartupTask } from '../db/startupTask.ts';
import { ledgerDashboardIndexesTask } from '../ledger/dashboard.ts';
import { ledgerStartupTasks } from '../ledger/startup.ts';
import type { AppServices } from './services.ts';
import { payoutProjectionTask } from '../payouts/index.ts';
import { liveWatchersTask } from './liveFeeds.ts';
import { scheduleFirerTask, workItemIndexesTask } from '../work/startup.ts';

export function appStartupTasks(services: AppServices): readonly StartupTask[] {
  return [
    processLivenessTask(services.processLiveness),
    ...ledgerStartupTasks(services.ledger),
    ledgerDashboardIndexesTask,
    workItemIndexesTask,
    scheduleFirerTask(services.work),
    liveWatchersTask(services.liveFeeds),
    payoutProjectionTask(services.payoutProjection),
    ledgerAuditTask(services.ledgerAudit),
  ];
}
