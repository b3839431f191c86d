import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { expired, holdRules, type HoldRules } from '../../src/ledger/holdRules.ts';
import { accountPreconditions, type AccountPreconditions, applyDelta, toLong } from '../../src/ledger/index.ts';
import type { HoldDoc } from '../../src/ledger/index.ts';
import type { CaptureHoldResult, InputMistake, LedgerService, VoidHoldResult } from '../../src/ledger/index.ts';
import { skipIfFailPointsRefused, withFailCommand } from '../support/failPoints.ts';
import { databaseClockPasses } from '../support/waiting.ts';
import { openLedgerHarness, type LedgerHarness } from './support/harness.ts';

// On the run's shared engine, not one of its own in this process (useOwnEngine): the H3 tests fake
// this process's Date, which must not move the database's clock. Its fail points take their turn
// at the shared engine's lock (test/support/failPoints.ts).

// H1-H3 under real concurrency: services on separate MongoClients (separate pools and sessions),
// so calls race on the server, not in one process's queue. Each guarantee is then checked against
// a mutant (src/testing's holdRules replacement) that must turn the same check red:
// - a resolution that checks the hold's status (and expiry) on a read, then writes by _id;
// - an expiry judged on this process's clock, with the process's clock an hour behind.

let h: LedgerHarness;
beforeAll(async () => {
  h = await openLedgerHarness('holdRaces');
});
afterAll(async () => {
  await h.close();
});
afterEach(() => {
  vi.useRealTimers();
});

/** The realistic mistake of H2/H3: the status checked on a read outside the transaction, the write filtered by _id. */
const statusCheckedOnARead: HoldRules = {
  ...holdRules,
  async resolve(holds, session, holdId, extra, update) {
    const seen = await holds.findOne({
      _id: holdId,
      status: 'PENDING',
      $expr: { $gt: ['$expiresAt', '$$NOW'] },
      ...extra,
    } as never);
    if (!seen) return null;
    return holds.findOneAndUpdate({ _id: holdId }, update, { session, returnDocument: 'after' });
  },
};

/** The realistic mistake of H3: the expiry compared with this process's clock. */
const expiryOnApiClock: HoldRules = {
  ...holdRules,
  resolve: (holds, session, holdId, extra, update) =>
    holds.findOneAndUpdate(
      { _id: holdId, status: 'PENDING', expiresAt: { $gt: new Date() }, ...extra } as never,
      update,
      { session, returnDocument: 'after' },
    ),
};

async function accountState(accountId: string) {
  const doc = await h.db.db.collection('accounts').findOne({ _id: accountId as never });
  const balance = Number(doc!['balance']);
  const held = Number(doc!['held'] ?? 0);
  const pending = await h.db.db
    .collection<HoldDoc>('ledger_holds')
    .aggregate<{ sum: number }>([
      { $match: { accountId, status: 'PENDING' } },
      { $group: { _id: null, sum: { $sum: '$amount' } } },
    ])
    .toArray();
  return { balance, held, available: balance - held, pendingSum: Number(pending[0]?.sum ?? 0) };
}

async function authorize(
  service: LedgerService,
  accountId: string,
  requestId: string,
  amount: number,
  expiresInSeconds = 600,
): Promise<string> {
  const auth = await service.authorizeHold({ requestId, accountId, amount, expiresInSeconds });
  if (auth.kind !== 'authorizeHoldSuccess') throw new Error(`setup: ${requestId}: ${auth.kind}`);
  return auth.hold.id;
}

type Resolution = CaptureHoldResult | VoidHoldResult | InputMistake;

/** 32 captures and voids of one hold from `services` (round robin), all at once, and sweeper passes beside them. */
async function raceResolutions(
  services: LedgerService[],
  holdId: string,
  tag: string,
): Promise<{ answers: Resolution[]; swept: number }> {
  const calls = Array.from({ length: 32 }, (_, i): Promise<Resolution> => {
    const service = services[i % services.length]!;
    if (i % 2 === 1) return service.voidHold({ requestId: `${tag}-void-${i}`, holdId });
    return service.captureHold({
      requestId: `${tag}-cap-${i}`,
      holdId,
      amount: i % 4 === 0 ? null : 10,
      toAccountId: null,
    });
  });
  const sweeps = services.slice(0, 4).map((service) => service.sweepExpiredHolds(10));
  const [answers, passes] = await Promise.all([Promise.all(calls), Promise.all(sweeps)]);
  return { answers, swept: passes.reduce((sum, pass) => sum + pass.expired, 0) };
}

/** H2: exactly one winner (a capture, a void or the expiry); every other answer HoldNotPending with the final status. */
async function expectOneWinner(holdId: string, race: { answers: Resolution[]; swept: number }): Promise<void> {
  const wins = race.answers.filter(
    (answer) => answer.kind === 'captureHoldSuccess' || answer.kind === 'voidHoldSuccess',
  ) as Resolution[];
  const final = await h.db.db.collection<HoldDoc>('ledger_holds').findOne({ _id: holdId });
  expect(wins.length + race.swept, `winners: ${wins.map((w) => w.kind).join(',')} + ${race.swept} expiries`).toBe(1);
  const losers = race.answers.filter((answer) => !wins.includes(answer));
  expect(
    losers.every((answer) => answer.kind === 'holdNotPending' && answer.status === final!.status),
    JSON.stringify(losers.slice(0, 3)),
  ).toBe(true);
}

/**
 * Debits that forgot the holds: a lone debit filtered on `balance >= amount` (where it must be
 * `balance - held >= amount`), a group's read that leaves `held` out (so it decides on the balance).
 */
const heldIgnored: AccountPreconditions = {
  ...accountPreconditions,
  debit: (accounts, session, { accountId, amount }) =>
    applyDelta(accounts, session, { _id: accountId, balance: { $gte: toLong(amount) } }, -amount),
  readGroup: async (accounts, session, accountIds) =>
    (await accountPreconditions.readGroup(accounts, session, accountIds)).map((read) => ({ ...read, held: 0 })),
  groupFilter: (read) => ({ _id: read._id, balance: toLong(read.balance), version: toLong(read.version) }),
};

/**
 * 36 calls on one account from `services`: withdrawals of 30, and authorizations of 30 then
 * captured in part or voided, while a reader samples `available`. Demand (36 x 30 = 1,080 at
 * most at once) is beyond the balance (500): the race is at the edge.
 */
async function h1Race(services: LedgerService[], accountId: string) {
  await h.fundedAccount(accountId, 500);
  const lowest = { available: Number.POSITIVE_INFINITY };
  let racing = true;
  const watcher = (async () => {
    while (racing) lowest.available = Math.min(lowest.available, (await accountState(accountId)).available);
  })();
  const counts = { authorized: 0, withdrawn: 0 };
  const settled = await Promise.allSettled(
    Array.from({ length: 36 }, async (_, i) => {
      const service = services[i % services.length]!;
      if (i % 3 === 0) {
        const result = await service.withdraw({ requestId: `${accountId}-w-${i}`, accountId, amount: 30 });
        if (result.kind === 'withdrawSuccess') counts.withdrawn += 1;
        return;
      }
      const auth = await service.authorizeHold({
        requestId: `${accountId}-a-${i}`,
        accountId,
        amount: 30,
        expiresInSeconds: 600,
      });
      if (auth.kind !== 'authorizeHoldSuccess') return;
      counts.authorized += 1;
      if (i % 3 === 1)
        await service.captureHold({
          requestId: `${accountId}-c-${i}`,
          holdId: auth.hold.id,
          amount: 20,
          toAccountId: null,
        });
    }),
  );
  racing = false;
  await watcher;
  // Every call has ended (none left running past the test); the first failure is the race's.
  const failed = settled.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
  const end = await accountState(accountId);
  lowest.available = Math.min(lowest.available, end.available);
  return { counts, lowest: lowest.available, end };
}

describe('H1: available never goes below zero', () => {
  it('under concurrent authorizations, withdrawals (lone and group-committed) and partial captures on one account', async () => {
    const race = await h1Race(await h.services(4), 'h1-acct');
    console.log(
      `H1: ${race.counts.authorized} holds authorized, ${race.counts.withdrawn} withdrawals applied; lowest available seen ${race.lowest}; end ${JSON.stringify(race.end)}`,
    );
    expect(race.counts.authorized).toBeGreaterThan(0);
    expect(race.lowest).toBeGreaterThanOrEqual(0);
    expect(race.end.held).toBe(race.end.pendingSum);
  }, 60_000);

  it('meta: a debit that checks the balance instead of the available balance takes available below zero', async () => {
    const lowest = await h1Race(await h.services(4, { preconditions: heldIgnored }), 'h1-meta').then(
      (race) => race.lowest,
      (error: unknown) => error,
    );
    // The broken debit spends what holds reserve. The H1 check sees available below zero; or, when
    // a capture comes after such a withdrawal (a process's withdrawals gather behind its holds'
    // turns), the capture finds its account holding less than its pending hold: the same breach,
    // caught by the capture's own invariant.
    if (typeof lowest === 'number') expect(() => expect(lowest).toBeGreaterThanOrEqual(0)).toThrow();
    else expect(String(lowest)).toMatch(/invariant: account h1-meta holds less than its pending hold/);
  }, 60_000);
});

describe('H2: a hold resolves once', () => {
  it('of 32 concurrent captures and voids from eight clients and the sweeper, exactly one wins', async () => {
    const services = await h.services(8);
    await h.fundedAccount('h2-acct', 10_000);
    for (let round = 0; round < 3; round += 1) {
      const holdId = await authorize(h.service, 'h2-acct', `h2-auth-${round}`, 100);
      await expectOneWinner(holdId, await raceResolutions(services, holdId, `h2-${round}`));
    }
    const end = await accountState('h2-acct');
    expect(end.held).toBe(end.pendingSum);
  }, 60_000);

  it('of the same race on a hold past its expiry, the expiry wins: every capture and void answers HoldNotPending EXPIRED', async () => {
    const services = await h.services(4);
    await h.fundedAccount('h2-exp', 1_000);
    const auth = await h.service.authorizeHold({
      requestId: 'h2-exp-auth',
      accountId: 'h2-exp',
      amount: 100,
      expiresInSeconds: 1,
    });
    if (auth.kind !== 'authorizeHoldSuccess') throw new Error(auth.kind);
    await databaseClockPasses(h.db.db, auth.hold.expiresAt);
    const race = await raceResolutions(services, auth.hold.id, 'h2-exp');
    expect(race.swept).toBe(1);
    await expectOneWinner(auth.hold.id, race);
    expect(await accountState('h2-exp')).toMatchObject({ balance: 1_000, held: 0 });
  }, 30_000);

  it('meta: with the status checked on a read, two resolutions win the same hold', async () => {
    const services = await h.services(8, { holdRules: statusCheckedOnARead });
    await h.fundedAccount('h2-meta', 100_000);
    // A cushion, so that a second resolution of a hold still finds `held` large enough to release.
    await authorize(h.service, 'h2-meta', 'h2-meta-cushion', 50_000);
    let doubled = false;
    for (let round = 0; round < 10 && !doubled; round += 1) {
      const holdId = await authorize(h.service, 'h2-meta', `h2-meta-auth-${round}`, 100);
      const race = await raceResolutions(services, holdId, `h2-meta-${round}`);
      doubled = await expectOneWinner(holdId, race).then(
        () => false,
        () => true,
      );
    }
    expect(doubled, 'the mutant never resolved a hold twice in 10 races').toBe(true);
  }, 60_000);
});

describe('H3: expiry on the database clock', () => {
  it('a hold expiring between a capture’s read and its write cannot be captured (the clock is in the filter); the mutant captures it', async (context) => {
    await skipIfFailPointsRefused(context, h.db.client);
    const appName = 'holdRaces-h3';
    const [real] = await h.services(1, {}, { appName, maxPoolSize: 4 });
    const [mutant] = await h.services(1, { holdRules: statusCheckedOnARead }, { appName, maxPoolSize: 4 });
    await h.fundedAccount('h3-acct', 1_000);
    const captureLate = async (service: LedgerService, tag: string) => {
      const auth = await h.service.authorizeHold({
        requestId: `h3-auth-${tag}`,
        accountId: 'h3-acct',
        amount: 100,
        expiresInSeconds: 1,
      });
      if (auth.kind !== 'authorizeHoldSuccess') throw new Error(auth.kind);
      // The capture reads the hold at once (pending, unexpired); its write waits 1.5 s, past the expiry.
      return withFailCommand(
        h.db.client,
        appName,
        { times: 1 },
        { failCommands: ['findAndModify'], blockConnection: true, blockTimeMS: 1_500 },
        () =>
          service.captureHold({ requestId: `h3-cap-${tag}`, holdId: auth.hold.id, amount: null, toAccountId: null }),
      );
    };
    const answered = await captureLate(real!, 'real');
    expect(answered).toMatchObject({ kind: 'holdNotPending', status: 'EXPIRED' });
    // The same check, on the mutant that judged the hold on its read: it captures an expired hold.
    const mutated = await captureLate(mutant!, 'mutant');
    expect(() => expect(mutated).toMatchObject({ kind: 'holdNotPending', status: 'EXPIRED' })).toThrow();
    expect(mutated.kind).toBe('captureHoldSuccess');
  }, 30_000);

  it('a process whose clock is an hour behind cannot capture an expired hold; the mutant judging expiry on its own clock does', async () => {
    const [real] = await h.services(1);
    const [mutant] = await h.services(1, { holdRules: expiryOnApiClock });
    await h.fundedAccount('h3-skew', 1_000);
    const expiredHold = async (tag: string) => {
      const auth = await h.service.authorizeHold({
        requestId: `h3-skew-auth-${tag}`,
        accountId: 'h3-skew',
        amount: 100,
        expiresInSeconds: 1,
      });
      if (auth.kind !== 'authorizeHoldSuccess') throw new Error(auth.kind);
      await databaseClockPasses(h.db.db, auth.hold.expiresAt);
      expect(
        await h.db.db
          .collection('ledger_holds')
          .countDocuments({ _id: auth.hold.id as never, status: 'PENDING', ...expired }),
      ).toBe(1);
      return auth.hold.id;
    };
    const realHold = await expiredHold('real');
    const mutantHold = await expiredHold('mutant');
    // This process's clock now reads an hour ago; the database's does not move.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() - 3_600_000 });
    const answered = await real!.captureHold({
      requestId: 'h3-skew-cap-real',
      holdId: realHold,
      amount: null,
      toAccountId: null,
    });
    const mutated = await mutant!.captureHold({
      requestId: 'h3-skew-cap-mutant',
      holdId: mutantHold,
      amount: null,
      toAccountId: null,
    });
    vi.useRealTimers();
    expect(answered).toEqual({ kind: 'holdNotPending', holdId: realHold, status: 'EXPIRED' });
    expect(mutated.kind).toBe('captureHoldSuccess');
  }, 30_000);

  it('a process whose clock is an hour ahead still captures a hold that has not expired', async () => {
    const [real] = await h.services(1);
    await h.fundedAccount('h3-ahead', 1_000);
    const holdId = await authorize(h.service, 'h3-ahead', 'h3-ahead-auth', 100, 60);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 3_600_000 });
    const answered = await real!.captureHold({ requestId: 'h3-ahead-cap', holdId, amount: 40, toAccountId: null });
    vi.useRealTimers();
    expect(answered).toMatchObject({
      kind: 'captureHoldSuccess',
      hold: { capturedAmount: 40 },
      account: { balance: 960, held: 0 },
    });
  });
});
