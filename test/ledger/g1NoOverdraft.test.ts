import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLedgerHarness, type LedgerHarness } from './support/harness.ts';
import { expectNoOverdraft, raceWithdrawals } from './support/scenarios.ts';

// G1: the affordance check and the debit are one conditional write, so no interleaving of
// concurrent withdrawals can take the balance below zero. 500 withdrawals of 10 race on an
// account holding 2,000 through 10 separate clients; exactly 200 may apply. Sent all at once,
// each client commits its share as a lone move and a group (group commit); smaller groups and
// their own mutants are in groupCommit.test.ts.

let h: LedgerHarness;
beforeAll(async () => {
  h = await openLedgerHarness('g1');
});
afterAll(async () => {
  await h.close();
});

describe('G1 no overdraft', () => {
  it('applies exactly 200 of 500 concurrent withdrawals of 10 from 2,000 and ends at 0', async () => {
    await h.fundedAccount('g1-acct', 2_000);
    const services = await h.services(10);
    const race = await raceWithdrawals(h.db, services, 'g1-acct', 500, 10);
    expectNoOverdraft(race, 500);
  });

  it('reports the balance it saw when refusing', async () => {
    await h.fundedAccount('g1-small', 5);
    const refused = await h.service.withdraw({ accountId: 'g1-small', amount: 6, requestId: 'g1-small-1' });
    expect(refused).toEqual({ kind: 'insufficientFunds', accountId: 'g1-small', balance: 5, amount: 6 });
  });
});
