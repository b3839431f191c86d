import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedgerService, createLedgerTelemetry } from '../../src/ledger/index.ts';
import { debitWithoutBalanceCheck } from './support/brokenPreconditions.ts';
import { openLedgerHarness, type LedgerHarness } from './support/harness.ts';
import { expectNoOverdraft, raceWithdrawals } from './support/scenarios.ts';
import { pino } from 'pino';
import { Registry } from 'prom-client';

// The race test must be able to fail. With `balance >= amount` dropped from the debit filter,
// the very same G1 scenario must break its checks.

let h: LedgerHarness;
beforeAll(async () => {
  h = await openLedgerHarness('meta');
});
afterAll(async () => {
  await h.close();
});

describe('meta: the race test catches a missing precondition', () => {
  it('G1 fails when the debit filter no longer requires enough balance', async () => {
    await h.fundedAccount('meta-acct', 2_000);
    const services = await h.services(10, { preconditionsForTest: debitWithoutBalanceCheck });
    const race = await raceWithdrawals(h.db, services, 'meta-acct', 500, 10);
    expect(() => expectNoOverdraft(race, 500)).toThrow();
    expect(race.finalBalance).toBeLessThan(0);
  });

  it('refuses injected preconditions outside the test runner', () => {
    const saved = process.env.VITEST;
    try {
      delete process.env.VITEST;
      const telemetry = createLedgerTelemetry(new Registry(), pino({ level: 'silent' }));
      expect(() => createLedgerService({ db: h.db.db, telemetry, preconditionsForTest: debitWithoutBalanceCheck })).toThrow(
        /test suite only/,
      );
    } finally {
      process.env.VITEST = saved;
    }
  });
});
