import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedgerService, createLedgerTelemetry } from '../../src/ledger/index.ts';
import { debitCheckedOnARead, paramsHashIgnored } from './support/brokenPreconditions.ts';
import { openLedgerHarness, type LedgerHarness } from './support/harness.ts';
import { expectNoOverdraft, raceWithdrawals } from './support/scenarios.ts';
import { pino } from 'pino';
import { Registry } from 'prom-client';

// The guarantee tests must be able to fail. Each realistic mistake of
// support/brokenPreconditions.ts is injected and the very same checks must go red. (The key per
// attempt, G3, needs a lost commit reply, so it lives with the fail points in g5LostReply.)

let h: LedgerHarness;
beforeAll(async () => {
  h = await openLedgerHarness('meta');
});
afterAll(async () => {
  await h.close();
});

describe('meta: the guarantee tests catch a broken precondition', () => {
  it('G1: a balance checked on a read outside the transaction passes one at a time, and overdraws under concurrency', async () => {
    const [broken] = await h.services(1, { preconditionsForTest: debitCheckedOnARead });
    await h.fundedAccount('meta-calm', 50);
    // One call at a time, the mistake is invisible.
    for (let i = 0; i < 5; i += 1) {
      expect((await broken!.withdraw({ accountId: 'meta-calm', amount: 10, requestId: `meta-calm-${i}` })).kind).toBe('withdrawSuccess');
    }
    expect(await broken!.withdraw({ accountId: 'meta-calm', amount: 10, requestId: 'meta-calm-over' })).toMatchObject({ kind: 'insufficientFunds', balance: 0 });

    await h.fundedAccount('meta-acct', 2_000);
    const services = await h.services(10, { preconditionsForTest: debitCheckedOnARead });
    const race = await raceWithdrawals(h.db, services, 'meta-acct', 500, 10);
    expect(() => expectNoOverdraft(race, 500)).toThrow();
    expect(race.finalBalance).toBeLessThan(0);
  });

  it('G4: ignoring the parameters hash replays another move instead of refusing it', async () => {
    await h.fundedAccount('meta-g4', 1_000);
    const [broken] = await h.services(1, { requestRulesForTest: paramsHashIgnored });
    expect((await broken!.withdraw({ accountId: 'meta-g4', amount: 100, requestId: 'meta-g4-key' })).kind).toBe('withdrawSuccess');
    // The G4 check (g4KeyReused.test.ts): the same key with another amount is IdempotencyKeyReused.
    const reused = await broken!.withdraw({ accountId: 'meta-g4', amount: 101, requestId: 'meta-g4-key' });
    expect(() => expect(reused).toEqual({ kind: 'idempotencyKeyReused', requestId: 'meta-g4-key' })).toThrow();
    expect(reused).toMatchObject({ kind: 'duplicateReplayed', original: { kind: 'withdrawSuccess', entry: { amount: 100 } } });
  });

  it('refuses injected preconditions and request rules outside the test runner', () => {
    const saved = process.env.VITEST;
    try {
      delete process.env.VITEST;
      const telemetry = createLedgerTelemetry(new Registry(), pino({ level: 'silent' }));
      expect(() => createLedgerService({ db: h.db.db, telemetry, preconditionsForTest: debitCheckedOnARead })).toThrow(/test suite only/);
      expect(() => createLedgerService({ db: h.db.db, telemetry, requestRulesForTest: paramsHashIgnored })).toThrow(/test suite only/);
    } finally {
      process.env.VITEST = saved;
    }
  });
});
