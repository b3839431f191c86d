// The README's replica-set command, a minute without a fault: one term (issue 36, item 4). The
// short run is packages/mongo-emulator/test/repl/stability.test.ts.
import { describe, expect, it } from 'vitest';
import { expectLauncherOutput, watchReadmeSet } from '../../packages/mongo-emulator/test/repl/stability.ts';

describe("the emulator's README replica-set command", () => {
  it('keeps one primary in one term for 60 s with no fault', async () => {
    const { terms, startOutput } = await watchReadmeSet(60_000);
    expectLauncherOutput(startOutput);
    expect(terms).toEqual([terms[0]]);
  }, 180_000);
});
