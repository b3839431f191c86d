import { afterAll, beforeAll, describe, it } from 'vitest';
import { openWorkHarness, type WorkHarness } from './support/harness.ts';
import {
  expectFenced,
  expectOneOfLateCompletionOrTakeover,
  raceLateCompletion,
  takeOverExpiredLease,
} from './support/scenarios.ts';

// W3: the version is a fencing token. Once another worker has reclaimed an expired lease, the
// old holder's heartbeat and completion match nothing and change nothing.

let h: WorkHarness;
beforeAll(async () => {
  h = await openWorkHarness('fencing');
});
afterAll(async () => {
  await h.close();
});

describe('W3: fencing after a lease takeover', () => {
  it("refuses the old holder's heartbeat and completion and leaves the new holder's item untouched", async () => {
    const [a, b] = await h.services(2);
    expectFenced(await takeOverExpiredLease(a!, b!, 'fence-1'));
  });

  it('lets exactly one of a late completion and a takeover apply when they race', async () => {
    const [a, b] = await h.services(2);
    expectOneOfLateCompletionOrTakeover(await raceLateCompletion(a!, b!, h.db.db, 'fence-race', 8));
  });
});
