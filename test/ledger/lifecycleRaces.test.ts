import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCheckedOnARead, reversalCheckedOnARead } from './support/brokenPreconditions.ts';
import { openLedgerHarness, type LedgerHarness } from './support/harness.ts';
import {
  type CloseRace,
  expectCloseWholeAndFinal,
  expectNoOverReversal,
  raceDepositsWithClose,
  raceReversals,
  type ReversalRace,
} from './support/lifecycleScenarios.ts';

// L1 and L2 under concurrency: services on separate clients stand for separate API processes
// (each has its own turns, so their transactions really race on the server). Each race runs
// against the real writes, and, in the meta-tests, against the mistake of checking the
// precondition on a read before the write: the same checks must go red.

/** Rounds the mutants may take to show their race; one or two usually suffice. */
const mutantRoundsMax = 20;

let h: LedgerHarness;
beforeAll(async () => {
  h = await openLedgerHarness('lifecycle_races');
});
afterAll(async () => {
  await h.close();
});

/** An account holding `spare` besides the deposit `requestId` of `amount` (so only L1 bounds its reversals). */
async function depositToReverse(accountId: string, requestId: string, amount: number, spare: number): Promise<void> {
  await h.fundedAccount(accountId, spare);
  const deposited = await h.service.deposit({ accountId, amount, requestId });
  if (deposited.kind !== 'depositSuccess') throw new Error(`setup: ${deposited.kind}`);
}

describe('L1: a reversal never takes back more than its original', () => {
  it('holds for 60 reversals of one deposit from eight processes', async () => {
    const services = await h.services(8);
    await depositToReverse('l1-acct', 'l1-orig', 1_000, 5_000);
    const race = await raceReversals(h.db, services, 'l1-orig', 60, 50);
    expectNoOverReversal(race, 50);
    expect(race.reversedOnRecord).toBe(1_000);
    expect((await h.service.accountsByIds(['l1-acct']))[0]).toMatchObject({ balance: 5_000 });
  }, 60_000);

  it('meta: the reversed total checked on a read made before the transaction passes alone, and over-reverses under concurrency', async () => {
    const [alone] = await h.services(1, { lifecycleRules: reversalCheckedOnARead });
    await depositToReverse('l1m-calm', 'l1m-calm-orig', 100, 1_000);
    for (let i = 0; i < 2; i += 1)
      expect(
        (await alone!.reverseMove({ requestId: `l1m-calm-${i}`, originalRequestId: 'l1m-calm-orig', amount: 50 })).kind,
      ).toBe('reverseMoveSuccess');
    expect(
      (await alone!.reverseMove({ requestId: 'l1m-calm-over', originalRequestId: 'l1m-calm-orig', amount: 1 })).kind,
    ).toBe('reversalExceedsOriginal');

    const services = await h.services(8, { lifecycleRules: reversalCheckedOnARead });
    let broken: ReversalRace | null = null;
    for (let round = 0; round < mutantRoundsMax && broken === null; round += 1) {
      await depositToReverse(`l1m-${round}`, `l1m-orig-${round}`, 1_000, 5_000);
      const race = await raceReversals(h.db, services, `l1m-orig-${round}`, 60, 50);
      if (race.reversedInEntries > race.originalAmount) broken = race;
    }
    expect(broken, `no over-reversal in ${mutantRoundsMax} races`).not.toBeNull();
    expect(() => expectNoOverReversal(broken!, 50)).toThrow();
  }, 180_000);
});

describe('L2: after a close, nothing applies to the account', () => {
  it('a close racing 240 deposits from eight processes: each deposit is moved by the close or refused', async () => {
    const services = await h.services(8);
    await h.fundedAccount('l2-acct', 100);
    await h.fundedAccount('l2-to', 0);
    const race = await raceDepositsWithClose(h.db, services, 'l2-acct', 'l2-to', 240, 100);
    expectCloseWholeAndFinal(race, 240);
    expect(race.kinds['accountClosed']).toBeGreaterThan(0);
    expect((await h.service.accountsByIds(['l2-to']))[0]).toMatchObject({ balance: race.movedAmount });
  }, 60_000);

  it('meta: an account status checked on a read before the write lets a deposit into a closed account', async () => {
    const services = await h.services(8, { preconditions: openCheckedOnARead });
    let broken: CloseRace | null = null;
    for (let round = 0; round < mutantRoundsMax && broken === null; round += 1) {
      await h.fundedAccount(`l2m-${round}`, 100);
      await h.fundedAccount(`l2m-to-${round}`, 0);
      const race = await raceDepositsWithClose(h.db, services, `l2m-${round}`, `l2m-to-${round}`, 240, 100);
      if (race.closedBalance !== 0 || race.appliedAfterClose > 0) broken = race;
    }
    expect(broken, `no deposit after the close in ${mutantRoundsMax} races`).not.toBeNull();
    expect(() => expectCloseWholeAndFinal(broken!, 240)).toThrow();
  }, 180_000);
});

describe('L3: balanceAt is the balance a read at that time returned', () => {
  it('on an account busy with moves from four processes, for every decision and for reads taken during the race', async () => {
    const services = await h.services(4);
    await h.fundedAccount('l3-acct', 10_000);
    await h.fundedAccount('l3-peer', 10_000);
    let moving = true;
    const samples: { before: number; after: number; balance: number }[] = [];
    const reader = (async () => {
      while (moving) {
        const before = Date.now();
        const [account] = await h.service.accountsByIds(['l3-acct']);
        samples.push({ before, after: Date.now(), balance: account!.balance });
      }
    })();
    await Promise.all(
      services.map(async (service, s) => {
        for (let i = 0; i < 40; i += 1) {
          const requestId = `l3-${s}-${i}`;
          if (i % 3 === 0) await service.withdraw({ accountId: 'l3-acct', amount: 7, requestId });
          else if (i % 3 === 1) await service.deposit({ accountId: 'l3-acct', amount: 5, requestId });
          else await service.transfer({ fromAccountId: 'l3-peer', toAccountId: 'l3-acct', amount: 3, requestId });
        }
      }),
    );
    moving = false;
    await reader;

    // Every decision, in journal order: its commit time never goes back, and balanceAt at it is its balance.
    const points = await h.db.db
      .collection('ledger_entries')
      .find({ accountId: 'l3-acct' })
      .sort({ versionAfter: 1 })
      .toArray();
    expect(points.length).toBe(1 + 160);
    for (const [i, point] of points.entries()) {
      const at = point['committedAt'] as Date;
      if (i > 0) expect(at.getTime()).toBeGreaterThanOrEqual((points[i - 1]!['committedAt'] as Date).getTime());
      const next = points[i + 1]?.['committedAt'] as Date | undefined;
      // The last decision at that instant (several may share a millisecond: the last of them counts).
      if (next === undefined || next.getTime() > at.getTime())
        expect(await h.service.balanceAt('l3-acct', at)).toBe(Number(point['balanceAfter']));
    }
    // A read taken during the race saw the balance after some decision committed up to its end: one
    // balanceAt names between its start (less the window between an entry's stamp and its commit,
    // one round trip) and its end.
    const windowMs = 1_000;
    const balanceAtTimes = (from: number, to: number) => [
      ...new Set(
        [
          points.filter((p) => (p['committedAt'] as Date).getTime() <= from).at(-1),
          ...points.filter(
            (p) => (p['committedAt'] as Date).getTime() > from && (p['committedAt'] as Date).getTime() <= to,
          ),
        ].map((p) => Number(p?.['balanceAfter'] ?? 0)),
      ),
    ];
    const unexplained = samples.filter(
      (sample) => !balanceAtTimes(sample.before - windowMs, sample.after).includes(sample.balance),
    );
    expect(samples.length).toBeGreaterThan(10);
    expect(unexplained).toEqual([]);
  }, 120_000);
});
