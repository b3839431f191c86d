// Work items behind a backlog: drain one kind while at least 10,000 older PENDING items of
// another kind wait (as after a full run, when the payout projection has queued a PAYOUT per
// withdrawal). A claim for one kind must stay an index walk of that kind, so the drain keeps
// the same target as `work-drain`. The backlog is made untimed through the API and is not in
// the book: it is never drained, so it is not part of "each created item done once".
import { setTimeout as sleep } from 'node:timers/promises';
import { outcomeLabel, sized, type BenchContext } from '../context.ts';
import { CREATE_WORK_ITEM } from '../documents.ts';
import { runLoad } from '../runLoad.ts';
import type { Scenario } from '../scenario.ts';
import { create, drain } from './workItems.ts';

const NAME = 'work-drain-backlog';
const BACKLOG_ITEMS = { full: 10_000, quick: 10_000 };
const ITEMS = { full: 3_000, quick: 32 };
const BACKLOG_CONCURRENCY = 16;
const BACKLOG_DURATION_MAX_MS = 300_000;

export const workDrainBacklogScenario: Scenario = {
  name: NAME,
  describe: (mode) =>
    `queue ${sized(mode, BACKLOG_ITEMS)} items of another kind (untimed), then create and drain ${sized(mode, ITEMS)} of one kind`,
  async run(context) {
    await queueBacklog(context, `bench-backlog-${context.runId}`, sized(context.mode, BACKLOG_ITEMS));
    const kind = `bench-behind-backlog-${context.runId}`;
    context.book.workKinds.add(kind);
    const items = sized(context.mode, ITEMS);
    const created = await create(context, kind, items);
    return [{ ...created, name: `${NAME}-create` }, await drain(context, kind, items, NAME)];
  },
};

/** Creates the backlog through the API; fails fast when any creation is not a success. */
async function queueBacklog(context: BenchContext, kind: string, items: number): Promise<void> {
  const run = await runLoad(
    { concurrency: BACKLOG_CONCURRENCY, opsMax: items, durationMaxMs: BACKLOG_DURATION_MAX_MS },
    async (i) => {
      const input = { idempotencyKey: `${kind}-${i}`, kind, payload: { i } };
      // Untimed set-up, written as a client should: past the key's rate limit, wait as told and
      // send the same key again (the API can create faster than the service role's limit).
      for (;;) {
        const answer = await context.pool.post(context.keys.service, CREATE_WORK_ITEM, { input });
        const retryAfterSeconds = (answer.errors[0]?.extensions as { retryAfterSeconds?: unknown } | undefined)
          ?.retryAfterSeconds;
        if (answer.errors[0]?.extensions?.code !== 'RATE_LIMITED' || typeof retryAfterSeconds !== 'number') {
          return { label: outcomeLabel(answer, 'createWorkItem') };
        }
        await sleep(retryAfterSeconds * 1000);
      }
    },
  );
  const createdCount = run.tally.get('CreateWorkItemSuccess') ?? 0;
  if (createdCount !== items)
    throw new Error(`backlog: ${createdCount} of ${items} items created (${JSON.stringify([...run.tally])})`);
}
