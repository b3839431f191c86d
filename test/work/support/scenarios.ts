import type { Db, ObjectId } from 'mongodb';
import { expect } from 'vitest';
import { eventually } from '../../support/waiting.ts';
import { workItems, type WorkService } from '../../../src/work/index.ts';

// The race scenarios of W1 and W3, written once: the race tests run them against the real
// service, and the meta-test runs them against a read-then-write mutant, one call at a time
// (the checks hold) and raced (the checks must fail).

/** `race`: every call at once (the harness); `oneAtATime`: each call awaited before the next. */
export type Schedule = 'race' | 'oneAtATime';

async function run<T>(schedule: Schedule, calls: (() => Promise<T>)[]): Promise<T[]> {
  if (schedule === 'race') return Promise.all(calls.map((call) => call()));
  const results: T[] = [];
  for (const call of calls) results.push(await call());
  return results;
}

/** Resolves once every one of `ids` has a lease expired by the server's clock (the claim's own test). */
async function leasesExpired(db: Db, ids: ObjectId[]): Promise<void> {
  const expired = () =>
    workItems(db).countDocuments({ _id: { $in: ids }, $expr: { $lte: ['$leaseExpiresAt', '$$NOW'] } });
  await eventually(async () => expect(await expired()).toBe(ids.length), { timeout: 10_000, interval: 50 });
}

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
  schedule: Schedule = 'race',
): Promise<ClaimRace> {
  const created = await creator.create({ kind: 'RACE', payload: { key }, idempotencyKey: key, maxAttempts: 3 });
  if (created.kind !== 'createWorkItemSuccess') throw new Error(`setup: expected a new item, got ${created.kind}`);
  const id = created.item._id;
  const conflictsBefore = await conflicts();
  const results = await run(
    schedule,
    workers.map((worker, i) => () => worker.claim({ workerId: `w${i}`, id, leaseSeconds: 30 })),
  );
  return { outcomes: results.map((r) => r.kind), conflictsBefore, conflictsAfter: await conflicts() };
}

export function expectOneWinner(race: ClaimRace): void {
  const losers = race.outcomes.length - 1;
  expect(race.outcomes.filter((kind) => kind === 'claimSuccess')).toHaveLength(1);
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
  if (created.kind !== 'createWorkItemSuccess') throw new Error(`setup: expected a new item, got ${created.kind}`);
  const id = created.item._id;
  const first = await a.claim({ workerId: 'A', id, leaseSeconds: 1 });
  if (first.kind !== 'claimSuccess') throw new Error(`setup: A could not claim (${first.kind})`);
  // B retries until A's one-second lease has expired by the server's clock (the claim's filter).
  const second = await eventually(
    async () => {
      const claim = await b.claim({ workerId: 'B', id, leaseSeconds: 60 });
      if (claim.kind !== 'claimSuccess') throw new Error(`setup: B could not reclaim yet (${claim.kind})`);
      return claim;
    },
    { timeout: 10_000, interval: 100 },
  );
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
  expect(takeover.after).toEqual({
    status: 'PROCESSING',
    lockedBy: 'B',
    version: takeover.newHolderVersion,
    result: null,
  });
}

export interface LateCompletionRace {
  /** Per item: A's completion and B's takeover claim, and the item after both. */
  rounds: { completion: string; claim: string; after: { status: string; lockedBy: string | null; result: unknown } }[];
}

/**
 * W3 raced: A's lease on each of `rounds` items has expired; A completes late while B takes the
 * item over. Whichever write comes second must match nothing.
 */
export async function raceLateCompletion(
  a: WorkService,
  b: WorkService,
  db: Db,
  key: string,
  rounds: number,
  schedule: Schedule = 'race',
): Promise<LateCompletionRace> {
  const claimed = [];
  for (let i = 0; i < rounds; i++) {
    const created = await a.create({
      kind: 'LATE',
      payload: { key, i },
      idempotencyKey: `${key}-${i}`,
      maxAttempts: 5,
    });
    if (created.kind !== 'createWorkItemSuccess') throw new Error(`setup: expected a new item, got ${created.kind}`);
    const first = await a.claim({ workerId: 'A', id: created.item._id, leaseSeconds: 1 });
    if (first.kind !== 'claimSuccess') throw new Error(`setup: A could not claim (${first.kind})`);
    claimed.push(first.item);
  }
  await leasesExpired(
    db,
    claimed.map((item) => item._id),
  );
  const results = await Promise.all(
    claimed.map(async (item) => {
      const [completion, claim] = await run<{ kind: string }>(schedule, [
        () => a.complete({ id: item._id, workerId: 'A', version: item.version, outcome: 'DONE', result: { by: 'A' } }),
        () => b.claim({ workerId: 'B', id: item._id, leaseSeconds: 60 }),
      ]);
      const after = await b.get(item._id);
      if (after === null) throw new Error('item vanished');
      return {
        completion: completion!.kind,
        claim: claim!.kind,
        after: { status: after.status, lockedBy: after.lockedBy, result: after.result },
      };
    }),
  );
  return { rounds: results };
}

/** Exactly one of A's late completion and B's takeover applied, and the item shows that one. */
export function expectOneOfLateCompletionOrTakeover(race: LateCompletionRace): void {
  for (const round of race.rounds) {
    if (round.completion === 'completeSuccess') {
      expect(round).toEqual({
        completion: 'completeSuccess',
        claim: 'conflictLost',
        after: { status: 'DONE', lockedBy: null, result: { by: 'A' } },
      });
    } else {
      expect(round).toEqual({
        completion: 'conflictLost',
        claim: 'claimSuccess',
        after: { status: 'PROCESSING', lockedBy: 'B', result: null },
      });
    }
  }
}
