import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWorkHarness, type WorkHarness } from './support/harness.ts';
import { readThenWrite } from './support/readThenWrite.ts';
import {
  expectOneOfLateCompletionOrTakeover,
  expectOneWinner,
  raceLateCompletion,
  raceOneClaim,
} from './support/scenarios.ts';

// The race tests must be able to fail, and for the right reason. The mutant reads the item under
// the real precondition and then writes by _id only: one call at a time it passes every check
// (so the checks do not merely notice a missing filter); only the race harness, which lets a
// write land between another caller's read and write, exposes it.

let h: WorkHarness;
beforeAll(async () => {
  h = await openWorkHarness('meta');
});
afterAll(async () => {
  await h.close();
});

describe('meta: the race tests catch a read-then-write service', () => {
  it('W1: the mutant keeps one winner when claims run one at a time, and loses it when they race', async () => {
    const workers = await h.services(16, {}, readThenWrite);
    expectOneWinner(await raceOneClaim(h.service, workers, () => h.conflicts(), 'meta-w1-one-at-a-time', 'oneAtATime'));
    const raced = await raceOneClaim(h.service, workers, () => h.conflicts(), 'meta-w1-raced');
    expect(() => expectOneWinner(raced)).toThrow();
  });

  it('W3: the mutant fences a late completion when it runs apart from the takeover, and not when they race', async () => {
    const [a, b] = await h.services(2, {}, readThenWrite);
    expectOneOfLateCompletionOrTakeover(
      await raceLateCompletion(a!, b!, h.db.db, 'meta-w3-one-at-a-time', 8, 'oneAtATime'),
    );
    const raced = await raceLateCompletion(a!, b!, h.db.db, 'meta-w3-raced', 8);
    expect(() => expectOneOfLateCompletionOrTakeover(raced)).toThrow();
  });
});
