// Work items: create a batch, then drain it with concurrent workers, each looping claim-next →
// complete until NothingToClaim. Two lines: creation throughput, and drain throughput with the
// claim's latency and the ConflictLost answers counted (two workers reaching for one item).
import { outcomeLabel, sized, type BenchContext } from '../context.ts';
import { CLAIM_WORK_ITEM, COMPLETE_WORK_ITEM, CREATE_WORK_ITEM, WORK_QUEUE_STATS } from '../documents.ts';
import { measure } from '../measure.ts';
import { atLeastOpsPerSecond, type Measured } from '../measured.ts';
import type { Step } from '../runLoad.ts';
import type { Scenario } from '../scenario.ts';

const NAME = 'work';
const ITEMS = { full: 3_000, quick: 32 };
const CREATE_CONCURRENCY = 16;
const WORKERS = 16;
const LEASE_SECONDS = 60;
/** A cycle either completes an item, loses a race, or ends a worker: more cycles than this means a stuck queue. */
const CYCLES_PER_ITEM_MAX = 3;
const DURATION_MAX_MS = 120_000;
/** One payout item per withdrawal: creating and draining must keep up with the withdrawal peak. */
const CREATE_TARGET_PER_SECOND = 200;
const DRAIN_TARGET_PER_SECOND = 200;

export const workItemsScenario: Scenario = {
  name: NAME,
  describe: (mode) =>
    `create ${sized(mode, ITEMS)} work items at c=${CREATE_CONCURRENCY}, then drain them with ${WORKERS} workers`,
  async run(context) {
    const kind = `bench-${context.runId}`;
    context.book.workKinds.add(kind);
    const items = sized(context.mode, ITEMS);
    return [await create(context, kind, items), await drain(context, kind, items, 'work-drain')];
  },
};

/** Creates `items` of `kind` through the API, each recorded in the book as one to complete. */
export function create(context: BenchContext, kind: string, items: number): Promise<Measured> {
  return measure({
    name: 'work-create',
    target: atLeastOpsPerSecond(
      CREATE_TARGET_PER_SECOND,
      `≥ ${CREATE_TARGET_PER_SECOND} items/s created at c=${CREATE_CONCURRENCY}`,
    ),
    plan: { concurrency: CREATE_CONCURRENCY, opsMax: items, durationMaxMs: DURATION_MAX_MS },
    expected: 'CreateWorkItemSuccess',
    async operation(i) {
      const input = { idempotencyKey: `${kind}-${i}`, kind, payload: { i } };
      const answer = await context.pool.post(context.keys.service, CREATE_WORK_ITEM, { input });
      const label = outcomeLabel(answer, 'createWorkItem');
      if (label === 'CreateWorkItemSuccess') context.book.createdItemIds.add(answer.data?.['createWorkItem'].item.id);
      return { label };
    },
  });
}

/** Drains the `items` of `kind` with WORKERS workers claiming only that kind; reported as `name`. */
export async function drain(context: BenchContext, kind: string, items: number, name: string): Promise<Measured> {
  const serverConflictsBefore = await serverConflicts(context);
  const measured = await measure({
    name,
    target: atLeastOpsPerSecond(
      DRAIN_TARGET_PER_SECOND,
      `≥ ${DRAIN_TARGET_PER_SECOND} items/s drained by ${WORKERS} workers`,
    ),
    plan: { concurrency: WORKERS, opsMax: items * CYCLES_PER_ITEM_MAX + WORKERS, durationMaxMs: DURATION_MAX_MS },
    expected: 'CompleteSuccess',
    tolerated: ['ConflictLost', 'NothingToClaim'],
    operation: (_i, lane) => claimThenComplete(context, kind, `${kind}-worker-${lane}`),
  });
  const answered = measured.tally.get('ConflictLost') ?? 0;
  const counted = (await serverConflicts(context)) - serverConflictsBefore;
  return { ...measured, note: `conflicts: ${answered} answered, ${counted} counted by the server (p50/p99: claim)` };
}

/** The API process's claim_conflict_total since start, as workQueueStats reports it. */
async function serverConflicts(context: BenchContext): Promise<number> {
  const answer = await context.pool.post(context.keys.dashboard, WORK_QUEUE_STATS, {});
  const conflicts = answer.data?.['workQueueStats']?.conflictsSinceStart;
  if (typeof conflicts !== 'number') throw new Error(`workQueueStats: ${JSON.stringify(answer.errors)}`);
  return conflicts;
}

/** One worker cycle; its latency is the claim's alone. */
async function claimThenComplete(context: BenchContext, kind: string, workerId: string): Promise<Step> {
  const claimStartedAtMs = performance.now();
  const claimed = await context.pool.post(context.keys.worker, CLAIM_WORK_ITEM, {
    input: { workerId, kinds: [kind], leaseSeconds: LEASE_SECONDS },
  });
  const latencyMs = performance.now() - claimStartedAtMs;
  const claimLabel = outcomeLabel(claimed, 'claimWorkItem');
  if (claimLabel === 'NothingToClaim') return { label: claimLabel, latencyMs, laneDone: true };
  if (claimLabel !== 'ClaimSuccess') return { label: claimLabel, latencyMs };

  const { id, version } = claimed.data!['claimWorkItem'].item as { id: string; version: number };
  const input = { id, workerId, version, outcome: 'DONE', result: { workerId } };
  const label = outcomeLabel(
    await context.pool.post(context.keys.worker, COMPLETE_WORK_ITEM, { input }),
    'completeWorkItem',
  );
  if (label === 'CompleteSuccess') context.book.completedItemIds.push(id);
  return { label, latencyMs };
}
