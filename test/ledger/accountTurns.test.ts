// The per-account turns (src/ledger/accountTurns.ts), alone: a call's accounts are a set, taken
// once each in one fixed order, and a wait for them is bounded by the caller's deadline or signal.
// The meta-test of issue 41: the same account passed twice must run, where taking it twice waited
// on itself forever (a capture to the hold's own account froze that account for the process).
// Every wait below is bounded by a deadline, so a regression fails with TurnNotTaken instead of
// hanging the suite.
import { describe, expect, it } from 'vitest';
import { AccountTurns, TurnNotTaken, turnOrder } from '../../src/ledger/accountTurns.ts';

/** A holder that keeps the turns of `accounts` until `release()` is called. */
function hold(turns: AccountTurns, accounts: string[]): { taken: Promise<void>; release(): void; done: Promise<void> } {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let taken!: () => void;
  const takenPromise = new Promise<void>((resolve) => (taken = resolve));
  const done = turns.run(
    accounts,
    async () => {
      taken();
      await released;
    },
    { deadlineMs: Date.now() + 5_000 },
  );
  return { taken: takenPromise, release, done };
}

const soon = () => Date.now() + 2_000;

describe('per-account turns', () => {
  it('takes an account named twice once: the work runs, and the account is free after it', async () => {
    const turns = new AccountTurns();
    let ran = 0;
    await turns.run(['acct-a', 'acct-a'], async () => void (ran += 1), { deadlineMs: soon() });
    await turns.run(['acct-b', 'acct-a', 'acct-b', 'acct-a'], async () => void (ran += 1), { deadlineMs: soon() });
    expect(ran).toBe(2);
    expect(turns.busyAccounts).toBe(0);
    // The next caller of the account gets it (nothing was left holding it).
    await turns.run(['acct-a'], async () => void (ran += 1), { deadlineMs: soon() });
    expect(ran).toBe(3);
  });

  it('orders a set of accounts one way whatever the order or repeats given', () => {
    expect(turnOrder(['b', 'a', 'b', 'c', 'a'])).toEqual(['a', 'b', 'c']);
    expect(turnOrder(['c', 'a', 'b'])).toEqual(turnOrder(['a', 'b', 'c']));
  });

  it('still excludes: a second call on an account named twice waits for the first', async () => {
    const turns = new AccountTurns();
    const first = hold(turns, ['x', 'x']);
    await first.taken;
    let secondRan = false;
    const second = turns.run(['x'], async () => void (secondRan = true), { deadlineMs: soon() });
    await Promise.resolve();
    expect(secondRan).toBe(false);
    first.release();
    await Promise.all([first.done, second]);
    expect(secondRan).toBe(true);
  });

  it('never deadlocks two calls naming the same pair in opposite orders, repeats included', async () => {
    const turns = new AccountTurns();
    const calls = Array.from({ length: 200 }, (_, i) => {
      const accounts = i % 3 === 0 ? ['p', 'q', 'p'] : i % 3 === 1 ? ['q', 'p'] : ['q', 'q', 'p'];
      return turns.run(accounts, async () => i, { deadlineMs: soon() });
    });
    expect((await Promise.all(calls)).length).toBe(200);
    expect(turns.busyAccounts).toBe(0);
  });

  it('gives up past the deadline without running the work, and the ones behind still get their turn in order', async () => {
    const turns = new AccountTurns();
    const stuck = hold(turns, ['h']);
    await stuck.taken;
    let quitterRan = false;
    const quitter = turns.run(['h'], async () => void (quitterRan = true), { deadlineMs: Date.now() + 50 });
    const order: string[] = [];
    const behind = turns.run(['h'], async () => void order.push('behind'), { deadlineMs: soon() });
    await expect(quitter).rejects.toEqual(new TurnNotTaken('deadline'));
    expect(quitterRan).toBe(false);
    // The holder still holds it: the one queued behind the quitter waits for the holder, not for the quitter.
    expect(order).toEqual([]);
    stuck.release();
    await Promise.all([stuck.done, behind]);
    expect(order).toEqual(['behind']);
    expect(turns.busyAccounts).toBe(0);
  });

  it('releases the turns it took when it gives up on a later one', async () => {
    const turns = new AccountTurns();
    const stuck = hold(turns, ['m2']);
    await stuck.taken;
    // Takes m1 (free), then waits for m2 (held) and gives up: m1 must be free again.
    await expect(
      turns.run(['m2', 'm1'], async () => undefined, { deadlineMs: Date.now() + 50 }),
    ).rejects.toBeInstanceOf(TurnNotTaken);
    await turns.run(['m1'], async () => undefined, { deadlineMs: soon() });
    stuck.release();
    await stuck.done;
    expect(turns.busyAccounts).toBe(0);
  });

  it('stops waiting when its signal aborts (a background loop stopping)', async () => {
    const turns = new AccountTurns();
    const stuck = hold(turns, ['s']);
    await stuck.taken;
    const stop = new AbortController();
    const waiting = turns.run(['s'], async () => 'ran', { signal: stop.signal });
    stop.abort();
    await expect(waiting).rejects.toEqual(new TurnNotTaken('aborted'));
    stuck.release();
    await stuck.done;
  });
});
