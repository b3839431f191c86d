import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { StartupTask } from '../db/startupTask.ts';
import { ensureWorkItemIndexes } from './model.ts';
import { setKindLimits } from './kindLimits.ts';
import { setGroupLimits } from './groupLimits.ts';
import { ensureScheduleIndexes } from './scheduleModel.ts';
import type { WorkService } from './service.ts';

/** The claim walks and the unique idempotency key need their indexes before the first request, and claims the kinds' limits. */
export const workItemIndexesTask: StartupTask = {
  name: 'work: indexes',
  run: async ({ db, config }) => {
    await ensureWorkItemIndexes(db);
    // W5: the configured limits live in the database, where every process's claims read them.
    await setKindLimits(db, config.workKindLimits);
    // W9: and the per-group limits, likewise.
    await setGroupLimits(db, config.workGroupLimits);
    await ensureScheduleIndexes(db);
  },
};

/** Every process competes for the schedule firer's lease; one fires due periods at a time (W8). */
export function scheduleFirerTask(work: WorkService): StartupTask {
  return {
    name: 'work: schedule firer',
    async run({ logger }) {
      const firer = work.scheduleFirer({ logger, holder: `${hostname()}:${process.pid}:${randomUUID()}` });
      firer.start();
      return { stop: () => firer.stop() };
    },
  };
}
