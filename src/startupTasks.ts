// The app's start-up tasks, in order: the ledger's and the work items' indexes before the streams,
// whose projection writes and reconciliation rely on them. Lives above the features (they export
// their tasks, db/startupTasks.ts says what a task is), so no feature and not db/ imports it.
import type { StartupTask } from './db/startupTasks.ts';
import { ledgerStartupTasks } from './ledger/startup.ts';
import { streamStartupTasks } from './streams/startup.ts';
import { workItemIndexesTask } from './work/startupTask.ts';

export const startupTasks: readonly StartupTask[] = [
  ...ledgerStartupTasks,
  workItemIndexesTask,
  ...streamStartupTasks,
];
