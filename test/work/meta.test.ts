import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkService } from '../../src/work/index.ts';
import { droppedPreconditions } from './support/droppedPreconditions.ts';
import { openWorkHarness, type WorkHarness } from './support/harness.ts';
import { expectFenced, expectOneWinner, raceOneClaim, takeOverExpiredLease } from './support/scenarios.ts';

// The race tests must be able to fail. With the preconditions dropped from the write filters
// (the seed's find → mutate → save), the very same W1 and W3 scenarios must break their checks.

let h: WorkHarness;
beforeAll(async () => {
  h = await openWorkHarness('meta');
});
afterAll(async () => {
  await h.close();
});

describe('meta: the race tests catch a missing precondition', () => {
  it('W1 fails when the claim filter no longer holds the expected status', async () => {
    const workers = await h.services(32, { preconditionsForTest: droppedPreconditions });
    const race = await raceOneClaim(h.service, workers, () => h.conflicts(), 'meta-w1');
    expect(() => expectOneWinner(race)).toThrow();
  });

  it('W3 fails when heartbeat and completion no longer hold the version and holder', async () => {
    const [a, b] = await h.services(2, { preconditionsForTest: droppedPreconditions });
    const takeover = await takeOverExpiredLease(a!, b!, 'meta-w3');
    expect(() => expectFenced(takeover)).toThrow();
  });

  it('refuses injected preconditions outside the test runner', () => {
    const saved = process.env.VITEST;
    try {
      delete process.env.VITEST;
      expect(() =>
        createWorkService({ db: h.db.db, telemetry: undefined as never, preconditionsForTest: droppedPreconditions }),
      ).toThrow(/test suite only/);
    } finally {
      process.env.VITEST = saved;
    }
  });
});
