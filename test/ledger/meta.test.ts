import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { debitCheckedOnARead, paramsHashIgnored } from './support/brokenPreconditions.ts';
import { openLedgerHarness, type LedgerHarness } from './support/harness.ts';
import { expectNoOverdraft, raceWithdrawals, type WithdrawalRace } from './support/scenarios.ts';

// The guarantee tests must be able to fail. Each realistic mistake of
// support/brokenPreconditions.ts is injected and the very same checks must go red. (The key per
// attempt, G3, needs a lost commit reply, so it lives with the fail points in g5LostReply.)

/** Races the G1 mutant may take to overdraw; one usually suffices, a few make a miss negligible. */
const mutantRaceRoundsMax = 20;

let h: LedgerHarness;
beforeAll(async () => {
  h = await openLedgerHarness('meta');
});
afterAll(async () => {
  await h.close();
});

describe('meta: the guarantee tests catch a broken precondition', () => {
  it('G1: a balance checked on a read outside the transaction passes one at a time, and overdraws under concurrency', async () => {
    const [broken] = await h.services(1, { preconditions: debitCheckedOnARead });
    await h.fundedAccount('meta-calm', 50);
    // One call at a time, the mistake is invisible.
    for (let i = 0; i < 5; i += 1) {
      expect((await broken!.withdraw({ accountId: 'meta-calm', amount: 10, requestId: `meta-calm-${i}` })).kind).toBe(
        'withdrawSuccess',
      );
    }
    expect(await broken!.withdraw({ accountId: 'meta-calm', amount: 10, requestId: 'meta-calm-over' })).toMatchObject({
      kind: 'insufficientFunds',
      balance: 0,
    });

    // Under concurrency it overdraws when a debit's read lands before another move's commit and
    // its transaction starts after it: a window of one round trip, which a race opens often but
    // not on every run. So the race runs on fresh accounts, a bounded number of rounds, until the
    // G1 checks go red; the real debit never overdraws in this harness (g1NoOverdraft.test.ts).
    const services = await h.services(10, { preconditions: debitCheckedOnARead });
    let overdrawn: WithdrawalRace | null = null;
    for (let round = 0; round < mutantRaceRoundsMax && overdrawn === null; round += 1) {
      await h.fundedAccount(`meta-acct-${round}`, 2_000);
      // One at a time per process (waves of 1): every move goes alone, through the debit this
      // mutant breaks; a group's decision has its own meta-test (groupCommit.test.ts).
      const race = await raceWithdrawals(h.db, services, `meta-acct-${round}`, 500, 10, 1);
      if (race.finalBalance < 0) overdrawn = race;
    }
    expect(overdrawn, `no overdraft in ${mutantRaceRoundsMax} races`).not.toBeNull();
    expect(() => expectNoOverdraft(overdrawn!, 500)).toThrow();
  }, 120_000); // at worst every round (about 2 s each); usually the first one or two

  it('G4: ignoring the parameters hash replays another move instead of refusing it', async () => {
    await h.fundedAccount('meta-g4', 1_000);
    const [broken] = await h.services(1, { rules: paramsHashIgnored });
    expect((await broken!.withdraw({ accountId: 'meta-g4', amount: 100, requestId: 'meta-g4-key' })).kind).toBe(
      'withdrawSuccess',
    );
    // The G4 check (g4KeyReused.test.ts): the same key with another amount is IdempotencyKeyReused.
    const reused = await broken!.withdraw({ accountId: 'meta-g4', amount: 101, requestId: 'meta-g4-key' });
    expect(() => expect(reused).toEqual({ kind: 'idempotencyKeyReused', requestId: 'meta-g4-key' })).toThrow();
    expect(reused).toMatchObject({
      kind: 'duplicateReplayed',
      original: { kind: 'withdrawSuccess', entry: { amount: 100 } },
    });
  });
});
