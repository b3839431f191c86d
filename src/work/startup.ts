import type { StartupTask } from '../db/startupTask.ts';
import { ensureWorkItemIndexes } from './model.ts';

/** The claim walks and the unique idempotency key need their indexes before the first request. */
export const workItemIndexesTask: StartupTask = {
  name: 'work: indexes',
  run: async ({ db }) => {
    await ensureWorkItemIndexes(db);
  },
};
