import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAllowedTransition, type WorkItemDoc, type WorkService } from '../../src/work/index.ts';
import { openWorkHarness, type WorkHarness } from './support/harness.ts';

// W1/W2 under load: 16 workers on 16 clients drain 600 items with claim-next loops. Each item
// must be completed exactly once, none left behind, and every transition the writes recorded in
// the stored history must be an edge of the table, with versions rising by one each time.

/**
 * Items to drain: enough that every worker claims dozens of times while the other 15 race it for
 * the same head of the queue (2,000 cost the file 9 s of CPU for no other race). With a claim
 * that checks on a read and writes by _id (support/readThenWrite.ts) this drain goes red.
 */
const ITEM_COUNT = 600;
const WORKER_COUNT = 16;
const CREATE_CONCURRENCY = 16;
/** A worker that loops more often than there are items is stuck, not busy. */
const LOOP_ITERATIONS_MAX = ITEM_COUNT * 2;
/** Items through three commands each: seconds on the in-memory emulator, more on a loaded machine. */
const DRAIN_TIMEOUT_MS = 150_000;

let h: WorkHarness;
beforeAll(async () => {
  h = await openWorkHarness('drain');
});
afterAll(async () => {
  await h.close();
});

async function createItems(services: WorkService[]): Promise<void> {
  await Promise.all(
    services.slice(0, CREATE_CONCURRENCY).map(async (service, lane) => {
      for (let i = lane; i < ITEM_COUNT; i += CREATE_CONCURRENCY) {
        const created = await service.create({
          kind: i % 2 ? 'ODD' : 'EVEN',
          payload: { i },
          idempotencyKey: `d-${i}`,
          maxAttempts: 3,
        });
        if (created.kind !== 'createWorkItemSuccess') throw new Error(`create ${i}: ${created.kind}`);
      }
    }),
  );
}

/** Claim next → complete until the queue is empty; returns the ids this worker completed. */
async function drain(service: WorkService, workerId: string): Promise<string[]> {
  const completed: string[] = [];
  for (let i = 0; i < LOOP_ITERATIONS_MAX; i++) {
    const claimed = await service.claim({ workerId, kinds: ['ODD', 'EVEN'], leaseSeconds: 60 });
    if (claimed.kind === 'nothingToClaim') return completed;
    if (claimed.kind !== 'claimSuccess') throw new Error(`${workerId} claim-next: ${claimed.kind}`);
    const { _id: id, version } = claimed.item;
    const done = await service.complete({ id, workerId, version, outcome: 'DONE', result: { workerId } });
    if (done.kind !== 'completeSuccess') throw new Error(`${workerId} complete: ${done.kind}`);
    completed.push(id.toHexString());
  }
  throw new Error(`${workerId} did not finish within ${LOOP_ITERATIONS_MAX} iterations`);
}

function expectLawfulHistory(item: WorkItemDoc): void {
  item.history.forEach((step, i) => {
    expect(isAllowedTransition(step.from, step.to), `${step.from} → ${step.to}`).toBe(true);
    expect(step.version).toBe(i + 1);
    if (i > 0) expect(step.from).toBe(item.history[i - 1]!.to);
  });
  expect(item.history.at(-1)).toMatchObject({ to: item.status, version: item.version });
}

describe('W1/W2: draining a queue with concurrent claim-next loops', () => {
  it(
    `completes each of ${ITEM_COUNT} items exactly once with ${WORKER_COUNT} workers, through lawful transitions only`,
    async () => {
      const services = await h.services(WORKER_COUNT);
      await createItems(services);

      const perWorker = await Promise.all(services.map((service, i) => drain(service, `w${i}`)));
      const completed = perWorker.flat();
      expect(completed).toHaveLength(ITEM_COUNT);
      expect(new Set(completed).size).toBe(ITEM_COUNT);

      const items = await h.db.db.collection<WorkItemDoc>('workItems').find().toArray();
      expect(items).toHaveLength(ITEM_COUNT);
      for (const item of items) {
        expect(item).toMatchObject({ status: 'DONE', previousStatus: 'PROCESSING', version: 3, attempts: 1 });
        expectLawfulHistory(item);
      }
    },
    DRAIN_TIMEOUT_MS,
  );
});
