// Start-up steps, run in order once the database is reachable and before the server listens:
// index creation, seeding, recovery sweeps, background workers. This module only says what a
// task is: each feature exports its own tasks (a task that drives a service is made over the
// instance src/app/createApp.ts built), and src/app/startupList.ts lists them in order, so db/ never imports a
// feature. A task that leaves something running (a watcher, a projection) returns a handle; the
// app stops those handles in reverse order on shutdown.
import type { Db, MongoClient } from 'mongodb';
import type { Config } from '../config.ts';
import type { Logger } from '../observability/logger.ts';

export interface StartupDeps {
  client: MongoClient;
  db: Db;
  config: Config;
  logger: Logger;
  /** This process's id (src/db/processLiveness.ts): the holder of the leases its jobs take. */
  processId: string;
}

export interface RunningTask {
  stop(): Promise<void>;
}

export interface StartupTask {
  /** Shown in logs, e.g. 'ledger: indexes'. */
  name: string;
  run(deps: StartupDeps): Promise<RunningTask | void>;
}
