import { expect } from 'vitest';
import type { WorkService } from '../../../src/work/index.ts';

// The race scenarios of W1 and W3, written once: the race tests run them against the real
// preconditions, and the meta-test runs them against dropped ones and expects the checks to fail.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface ClaimRace {
  outcomes: string[];
  conflictsBefore: number;
  conflictsAfter: number;
}

/** W1: `workers.length` services claim one fresh item at the same moment. */
export async function raceOneClaim(
  creator: WorkService,
  workers: WorkService[],
  conflicts: () => Promise<number>,
  key: string,
): Promise<ClaimRace> {
  const created = await creator.create({ kind: 'RACE', payload: { key }, idempotencyKey: key, maxAttempts: 3 });
  if (created.kind !== 'created') throw new Error(`setup: expected a new item, got ${created.kind}`);
  const id = created.item._id;
  const conflictsBefore = await conflicts();
  const results = await Promise.all(
    workers.map((worker, i) => worker.claim({ workerId: `w${i}`, id, leaseSeconds: 30 })),
  );
  return { outcomes: results.map((r) => r.kind), conflictsBefore, conflictsAfter: await conflicts() };
}

export function expectOneWinner(race: ClaimRace): void {
  const losers = race.outcomes.length - 1;
  expect(race.outcomes.filter((kind) => kind === 'claimed')).toHaveLength(1);
  expect(race.outcomes.filter((kind) => kind === 'conflictLost')).toHaveLength(losers);
  expect(race.conflictsAfter - race.conflictsBefore).toBe(losers);
}

export interface Takeover {
  heartbeat: string;
  completion: string;
  /** The item after the old holder's attempts: must still be the new holder's. */
  after: { status: string; lockedBy: string | null; version: number; result: unknown };
  newHolderVersion: number;
}

/** W3: A's lease expires, B reclaims, then A heartbeats and completes with its old version. */
export async function takeOverExpiredLease(a: WorkService, b: WorkService, key: string): Promise<Takeover> {
  const created = await a.create({ kind: 'FENCE', payload: { key }, idempotencyKey: key, maxAttempts: 5 });
  if (created.kind !== 'created') throw new Error(`setup: expected a new item, got ${created.kind}`);
  const id = created.item._id;
  const first = await a.claim({ workerId: 'A', id, leaseSeconds: 1 });
  if (first.kind !== 'claimed') throw new Error(`setup: A could not claim (${first.kind})`);
  await sleep(1_200); // past A's one-second lease, by the server's clock
  const second = await b.claim({ workerId: 'B', id, leaseSeconds: 60 });
  if (second.kind !== 'claimed') throw new Error(`setup: B could not reclaim (${second.kind})`);
  const heartbeat = await a.heartbeat({ id, workerId: 'A', version: first.item.version });
  const completion = await a.complete({
    id,
    workerId: 'A',
    version: first.item.version,
    outcome: 'DONE',
    result: { by: 'A' },
  });
  const after = await b.get(id);
  if (after === null) throw new Error('item vanished');
  return {
    heartbeat: heartbeat.kind,
    completion: completion.kind,
    after: { status: after.status, lockedBy: after.lockedBy, version: after.version, result: after.result },
    newHolderVersion: second.item.version,
  };
}

export function expectFenced(takeover: Takeover): void {
  expect(takeover.heartbeat).toBe('conflictLost');
  expect(takeover.completion).toBe('conflictLost');
  expect(takeover.after).toEqual({ status: 'PROCESSING', lockedBy: 'B', version: takeover.newHolderVersion, result: null });
}
