import type { StartupTask } from '../db/startupTask.ts';
import { ensureWorkItemIndexes } from './model.ts';
import { setKindLimits } from './kindLimits.ts';

/** The claim walks and the unique idempotency key need their indexes before the first request, and claims the kinds' limits. */
export const workItemIndexesTask: StartupTask = {
  name: 'work: indexes',
  run: async ({ db, config }) => {
    await ensureWorkItemIndexes(db);
    // W5: the configured limits live in the database, where every process's claims read them.
    await setKindLimits(db, config.workKindLimits);
  },
};
