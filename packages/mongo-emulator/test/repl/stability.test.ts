// @module-tag processes
// The README's replica-set command keeps its primary: a secondary fetching from a sync source
// that names a primary postpones its election timer (as mongod's processMetadata does), so the
// 2 s default heartbeats against a 1 s election timeout elect nobody. The minute-long run is in
// test:faults (test/faults/emulatorStability.faults.ts); this one watches long enough for the old
// behaviour (an election every few seconds) to show.
import { describe, expect, it } from 'vitest';
import { expectLauncherOutput, watchReadmeSet } from './stability.ts';

const WATCH_MS = 8_000;

describe("the README's replica-set command", () => {
  it('keeps one primary in one term with no fault, and prints the set URI last', async () => {
    const { terms, startOutput } = await watchReadmeSet(WATCH_MS);
    expectLauncherOutput(startOutput);
    expect(terms).toEqual([terms[0]]);
  }, 90_000);
});
