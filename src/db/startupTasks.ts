// Start-up steps, run in order once the database is reachable and before the server listens:
// index creation, seeding, recovery sweeps, background workers. A feature appends one entry.
// A task that leaves something running (a watcher, a projection) returns a handle; the server
// stops those handles in reverse order on shutdown.
import type { Db, MongoClient } from 'mongodb';
import type { Config } from '../config.ts';
import type { Logger } from '../observability/logger.ts';
import { ledgerDashboardIndexesTask } from '../ledger/dashboard.ts';
import { ledgerStartupTasks } from '../ledger/startup.ts';
import { streamStartupTasks } from '../streams/startup.ts';
import { workItemIndexesTask } from '../work/startupTask.ts';

export interface StartupDeps {
  client: MongoClient;
  db: Db;
  config: Config;
  logger: Logger;
}

export interface RunningTask {
  stop(): Promise<void>;
}

export interface StartupTask {
  /** Shown in logs, e.g. 'ledger: indexes'. */
  name: string;
  run(deps: StartupDeps): Promise<RunningTask | void>;
}

export const startupTasks: readonly StartupTask[] = [
  ...ledgerStartupTasks,
  ledgerDashboardIndexesTask,
  workItemIndexesTask,
  ...streamStartupTasks,
];
