// The watchdog of issue 41's class of bug: whatever holds an account's turn for good (a bug like a
// capture to the hold's own account, which took its account twice and waited on itself), a money
// operation waiting for that turn answers its transient member once its retry budget
// (moveRetryBudgetMs) is spent, and stops waiting; the hold sweeper stops at once however long the
// turn it waits for would take. Here the test itself holds the turn and never gives it back until
// the end: every deposit, withdrawal, transfer, batch and hold operation on the account answers
// RequestInProgress (nothing ran), and once the turn is free the same keys decide them.
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountTurns } from '../../src/ledger/accountTurns.ts';
import { createLedgerTelemetry, type LedgerService } from '../../src/ledger/index.ts';
import { moveRetryBudgetMs } from '../../src/ledger/limits.ts';
import { createLedgerServiceForTest } from '../../src/testing/index.ts';
import { type LedgerHarness, openLedgerHarness } from './support/harness.ts';

/** AccountTurns that records which accounts each call asked for. */
class WatchedTurns extends AccountTurns {
  readonly asked: string[][] = [];
  override run<T>(
    accountIds: readonly string[],
    work: () => Promise<T>,
    options?: Parameters<AccountTurns['run']>[2],
  ): Promise<T> {
    this.asked.push([...accountIds]);
    return super.run(accountIds, work, options);
  }
}

describe('a turn that never comes: the watchdog', () => {
  let h: LedgerHarness;
  let turns: WatchedTurns;
  let service: LedgerService;
  let holdId: string;
  let releaseStuck: () => void;
  let stuck: Promise<void>;

  beforeAll(async () => {
    h = await openLedgerHarness('watchdog');
    await h.fundedAccount('wd-a', 10_000);
    await h.fundedAccount('wd-b', 10_000);
    await h.fundedAccount('wd-c', 10_000);
    const auth = await h.service.authorizeHold({
      requestId: 'wd-hold',
      accountId: 'wd-a',
      amount: 100,
      expiresInSeconds: 600,
    });
    if (auth.kind !== 'authorizeHoldSuccess') throw new Error(`setup: ${auth.kind}`);
    holdId = auth.hold.id;
    turns = new WatchedTurns();
    service = createLedgerServiceForTest(
      { db: h.db.db, telemetry: createLedgerTelemetry(h.registry, pino({ level: 'silent' })) },
      { turns },
    );
    // The turn of wd-a, held by "a bug" until the test lets it go.
    let taken!: () => void;
    const isTaken = new Promise<void>((resolve) => (taken = resolve));
    stuck = turns.run(['wd-a'], () => {
      taken();
      return new Promise<void>((resolve) => (releaseStuck = resolve));
    });
    await isTaken;
  });
  afterAll(async () => {
    releaseStuck?.();
    await h?.close();
  });

  it('answers every money operation waiting on the account RequestInProgress once its budget is spent, then decides the same keys', async () => {
    const startedMs = Date.now();
    let answered = false;
    const waiting = Promise.all([
      service.deposit({ requestId: 'wd-dep', accountId: 'wd-a', amount: 5 }),
      service.withdraw({ requestId: 'wd-wd', accountId: 'wd-a', amount: 5 }),
      service.transfer({ requestId: 'wd-tr', fromAccountId: 'wd-b', toAccountId: 'wd-a', amount: 5 }),
      service.submitMoves({
        atomic: true,
        moves: [
          { kind: 'deposit', requestId: 'wd-batch-1', accountId: 'wd-a', amount: 5 },
          { kind: 'withdraw', requestId: 'wd-batch-2', accountId: 'wd-b', amount: 5 },
        ],
      }),
      service.authorizeHold({ requestId: 'wd-auth', accountId: 'wd-a', amount: 5, expiresInSeconds: 60 }),
      service.captureHold({ requestId: 'wd-cap', holdId, amount: 10, toAccountId: null }),
    ]).finally(() => (answered = true));
    // Meanwhile the process's other accounts are served as usual (sent after that burst: a move sent
    // in the same burst is grouped with it across accounts, and shares its wait up to the budget).
    await new Promise((resolve) => setImmediate(resolve));
    expect((await service.deposit({ requestId: 'wd-other', accountId: 'wd-c', amount: 5 })).kind).toBe(
      'depositSuccess',
    );
    expect(answered).toBe(false);
    const answers = await waiting;
    const kinds = answers.map((answer) =>
      answer.kind === 'submitMovesSuccess' ? answer.results.map((result) => result.kind) : answer.kind,
    );
    expect(kinds).toEqual([
      'requestInProgress',
      'requestInProgress',
      'requestInProgress',
      ['requestInProgress', 'requestInProgress'],
      'requestInProgress',
      'requestInProgress',
    ]);
    // Not before the budget: the watchdog is the budget, not a shorter guess.
    expect(Date.now() - startedMs).toBeGreaterThanOrEqual(moveRetryBudgetMs - 50);
    // Nothing ran: the account is as it was.
    expect((await h.service.accountsByIds(['wd-a']))[0]).toMatchObject({ balance: 10_000 });

    releaseStuck();
    await stuck;
    expect((await service.deposit({ requestId: 'wd-dep', accountId: 'wd-a', amount: 5 })).kind).toBe('depositSuccess');
    expect((await service.captureHold({ requestId: 'wd-cap', holdId, amount: 10, toAccountId: null })).kind).toBe(
      'captureHoldSuccess',
    );
    const batch = await service.submitMoves({
      atomic: true,
      moves: [
        { kind: 'deposit', requestId: 'wd-batch-1', accountId: 'wd-a', amount: 5 },
        { kind: 'withdraw', requestId: 'wd-batch-2', accountId: 'wd-b', amount: 5 },
      ],
    });
    expect(batch.kind === 'submitMovesSuccess' && batch.results.map((result) => result.kind)).toEqual([
      'depositSuccess',
      'withdrawSuccess',
    ]);
    expect(turns.busyAccounts).toBe(0);
  }, 60_000);

  it("stops the hold sweeper at once while it waits for an account's turn that does not come", async () => {
    const auth = await service.authorizeHold({
      requestId: 'wd-expiring',
      accountId: 'wd-b',
      amount: 10,
      expiresInSeconds: 1,
    });
    if (auth.kind !== 'authorizeHoldSuccess') throw new Error(`setup: ${auth.kind}`);
    let taken!: () => void;
    const isTaken = new Promise<void>((resolve) => (taken = resolve));
    let release!: () => void;
    const held = turns.run(['wd-b'], () => {
      taken();
      return new Promise<void>((resolve) => (release = resolve));
    });
    await isTaken;
    const askedForB = () => turns.asked.filter((accounts) => accounts.length === 1 && accounts[0] === 'wd-b').length;
    const before = askedForB();
    const sweeper = service.holdSweeper({
      logger: pino({ level: 'silent' }),
      holder: 'watchdog-test',
      sweepIntervalMs: 50,
    });
    sweeper.start();
    try {
      // The sweeper found the expired hold and waits for wd-b's turn (its only caller from here on).
      await expect.poll(askedForB, { timeout: 20_000 }).toBe(before + 1);
      // Stops without the turn: far inside the budget the wait would otherwise last.
      const stopping = sweeper.stop().then(() => 'stopped');
      const budget = new Promise((resolve) => setTimeout(() => resolve('still waiting'), moveRetryBudgetMs / 2));
      expect(await Promise.race([stopping, budget])).toBe('stopped');
    } finally {
      release();
      await held;
    }
  }, 60_000);
});
