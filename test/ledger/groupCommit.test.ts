import { BSON } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountPreconditions,
  type AccountPreconditions,
  type EntryDoc,
  type LedgerService,
  type MoveInput,
} from '../../src/ledger/index.ts';
import { idLengthMax, moveBytesMax } from '../../src/ledger/limits.ts';
import { groupCheckedOnOpeningBalance, groupRefusalFailsAll } from './support/brokenPreconditions.ts';
import { countOf } from './support/count.ts';
import { openLedgerHarness, type LedgerHarness } from './support/harness.ts';
import { expectNoOverdraft, raceWithdrawals } from './support/scenarios.ts';

// B1 under group commit and in batches: every move keeps G1-G6 on its own. Moves fired at once on
// one service queue on their account and commit as groups; several services stand for several
// processes whose groups conflict and rerun. Each guarantee's check is also run against a broken
// group decision (src/testing) and must go red.

let h: LedgerHarness;
beforeAll(async () => {
  h = await openLedgerHarness('group');
});
afterAll(async () => {
  await h.close();
});

const kindsOf = (results: readonly { kind: string }[]) => results.map((result) => result.kind);
const balanceOf = async (accountId: string) =>
  Number((await h.db.db.collection('accounts').findOne({ _id: accountId as never }))?.balance);

/** G2 for one account: its balance is the sum of its journal, and the journal a chain of versions. */
async function expectBalanceIsJournal(accountId: string): Promise<void> {
  const account = await h.db.db.collection('accounts').findOne({ _id: accountId as never });
  const entries = (await h.db.db
    .collection<EntryDoc>('ledger_entries')
    .find({ accountId })
    .sort({ versionAfter: 1 })
    .toArray()) as EntryDoc[];
  let balance = 0;
  entries.forEach((entry, i) => {
    balance += (entry.kind === 'deposit' || entry.kind === 'transferIn' ? 1 : -1) * Number(entry.amount);
    expect(Number(entry.balanceAfter)).toBe(balance);
    expect(Number(entry.versionAfter)).toBe(i + 1);
  });
  expect(Number(account?.balance)).toBe(balance);
  expect(Number(account?.version)).toBe(entries.length);
}

describe('group commit keeps G1-G6 per move', () => {
  // Waves of 30: each wave is one group, and the seventh meets the balance running out mid-group
  // (2,000 is not a multiple of 300, so a group's opening balance cannot hide an overdraft).
  const oneProcessWave = 30;

  it('G1: one process sending 500 withdrawals of 10 on 2,000, in groups of 30, applies exactly 200', async () => {
    await h.fundedAccount('gc-g1-one', 2_000);
    const race = await raceWithdrawals(h.db, [h.service], 'gc-g1-one', 500, 10, oneProcessWave);
    expectNoOverdraft(race, 500);
    await expectBalanceIsJournal('gc-g1-one');
  });

  // (All 500 at once from ten processes, a group of 49 or 50 each: g1NoOverdraft.test.ts.)
  it('G1: ten processes sending 500 withdrawals in waves of 5 interleave many groups and apply exactly 200', async () => {
    await h.fundedAccount('gc-g1-ten', 2_000);
    const race = await raceWithdrawals(h.db, await h.services(10), 'gc-g1-ten', 500, 10, 5);
    expectNoOverdraft(race, 500);
    await expectBalanceIsJournal('gc-g1-ten');
  });

  it('meta G1: a group that checks every move against the balance read before it overdraws', async () => {
    await h.fundedAccount('gc-g1-meta', 2_000);
    const [broken] = await h.services(1, { groupPolicy: groupCheckedOnOpeningBalance });
    const race = await raceWithdrawals(h.db, [broken!], 'gc-g1-meta', 500, 10, oneProcessWave);
    expect(race.finalBalance).toBeLessThan(0);
    expect(() => expectNoOverdraft(race, 500)).toThrow();
  });

  it('writes a group only on the state it read: a stale read matches nothing and the group reruns', async () => {
    /**
     * A group read that forgot its session (so it sees the account before its snapshot), and, on
     * the first read only, another process's withdrawal of 50 committing right after it: the group
     * then decides on a balance that is no longer there.
     */
    const staleRead = (accountId: string, groupFilter: AccountPreconditions['groupFilter']): AccountPreconditions => {
      let interfered = false;
      return {
        ...accountPreconditions,
        groupFilter,
        async readGroup(accounts, _session, accountIds) {
          const docs = await accounts.find({ _id: { $in: [...accountIds] } }).toArray();
          if (!interfered) {
            interfered = true;
            expect((await h.service.withdraw({ accountId, amount: 50, requestId: `${accountId}-other` })).kind).toBe(
              'withdrawSuccess',
            );
          }
          return docs.map((doc) => ({
            _id: doc._id,
            currency: doc.currency,
            balance: Number(doc.balance),
            version: Number(doc.version),
            held: Number(doc.held ?? 0),
          }));
        },
      };
    };
    const retries = async () => {
      const text = await h.registry.getSingleMetricAsString('ledger_transaction_retries_total');
      const of = (reason: string) => Number(new RegExp(`reason="${reason}"} (\\d+)`).exec(text)?.[1] ?? 0);
      return { writeConflict: of('writeConflict'), transient: of('transient') };
    };
    const twoWithdrawals = async (service: LedgerService, accountId: string) => {
      const before = await retries();
      const results = await Promise.all(
        [1, 2].map((i) => service.withdraw({ accountId, amount: 40, requestId: `${accountId}-${i}` })),
      );
      const after = await retries();
      return {
        kinds: kindsOf(results),
        writeConflict: after.writeConflict - before.writeConflict,
        transient: after.transient - before.transient,
      };
    };

    // The group's write filter (balance and version as read) matches nothing: counted as a write
    // conflict, the group reruns on 50, one withdrawal applies.
    await h.fundedAccount('gc-stale', 100);
    const [guarded] = await h.services(1, { preconditions: staleRead('gc-stale', accountPreconditions.groupFilter) });
    expect(await twoWithdrawals(guarded!, 'gc-stale')).toEqual({
      kinds: ['withdrawSuccess', 'insufficientFunds'],
      writeConflict: 1,
      transient: 0,
    });
    expect(await balanceOf('gc-stale')).toBe(10);
    await expectBalanceIsJournal('gc-stale');

    // The same stale read under a filter on _id alone: the account write applies (50 - 80), and
    // only the journal's unique (accountId, versionAfter) index, meeting the other withdrawal's
    // entry, stops the group (a duplicate key, rerun as transient). The filter is the first guard.
    await h.fundedAccount('gc-stale-id', 100);
    const [unguarded] = await h.services(1, { preconditions: staleRead('gc-stale-id', (read) => ({ _id: read._id })) });
    expect(await twoWithdrawals(unguarded!, 'gc-stale-id')).toEqual({
      kinds: ['withdrawSuccess', 'insufficientFunds'],
      writeConflict: 0,
      transient: 1,
    });
    expect(await balanceOf('gc-stale-id')).toBe(10);
  });

  it('answers every move of a group on its own: one refusal never fails the others', async () => {
    const check = async (service: LedgerService, accountId: string) => {
      await h.fundedAccount(accountId, 55);
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          service.withdraw({ accountId, amount: 10, requestId: `${accountId}-${i}` }),
        ),
      );
      expect(kindsOf(results)).toEqual([...Array(5).fill('withdrawSuccess'), ...Array(5).fill('insufficientFunds')]);
      expect(results.map((result) => ('account' in result ? result.account.balance : null))).toEqual([
        45,
        35,
        25,
        15,
        5,
        null,
        null,
        null,
        null,
        null,
      ]);
      expect(results[5]).toEqual({ kind: 'insufficientFunds', accountId, balance: 5, amount: 10 });
    };
    await check(h.service, 'gc-mixed');
    // The same check against a group whose one refusal fails them all goes red.
    const [broken] = await h.services(1, { groupPolicy: groupRefusalFailsAll });
    await expect(check(broken!, 'gc-mixed-meta')).rejects.toThrow();
  });

  it('G3 and G4: one key sent 20 times at once from two processes, and 20 variants of another, apply once each', async () => {
    await h.fundedAccount('gc-g3', 1_000);
    const services = await h.services(2);
    const same = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        services[i % 2]!.withdraw({ accountId: 'gc-g3', amount: 7, requestId: 'gc-g3-same' }),
      ),
    );
    const variants = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        h.service.withdraw({ accountId: 'gc-g3', amount: 10 + i, requestId: 'gc-g3-variant' }),
      ),
    );
    const first = same.find((result) => result.kind === 'withdrawSuccess');
    expect(kindsOf(same).filter((kind) => kind === 'withdrawSuccess')).toHaveLength(1);
    for (const result of same)
      if (result !== first) expect(result).toMatchObject({ kind: 'duplicateReplayed', original: first });
    // The first variant applies (it leads the group); every other amount is another move under the same key.
    expect(kindsOf(variants)).toEqual(['withdrawSuccess', ...Array(19).fill('idempotencyKeyReused')]);
    expect(await balanceOf('gc-g3')).toBe(1_000 - 7 - 10);
    expect(await countOf(h.db.db, 'ledger_entries', { accountId: 'gc-g3', kind: 'withdrawal' })).toBe(2);
  });

  it('G6: a group of deposits refuses the one that would pass 2^53-1 and applies the rest', async () => {
    await h.fundedAccount('gc-g6', Number.MAX_SAFE_INTEGER - 25);
    const results = await Promise.all(
      [10, 10, 10, 5].map((amount, i) => h.service.deposit({ accountId: 'gc-g6', amount, requestId: `gc-g6-${i}` })),
    );
    expect(kindsOf(results)).toEqual(['depositSuccess', 'depositSuccess', 'balanceLimitExceeded', 'depositSuccess']);
    expect(await balanceOf('gc-g6')).toBe(Number.MAX_SAFE_INTEGER);
    // Not recorded: the same key may be used again.
    expect(await countOf(h.db.db, 'ledger_requests', { requestId: 'gc-g6-2' })).toBe(0);
  });
});

/** Money-move transactions this harness's registry counted committed (lone and group). */
async function transactionsCommitted(): Promise<number> {
  const text = await h.registry.getSingleMetricAsString('ledger_transactions_total');
  return [...text.matchAll(/kind="(?:lone|group)"} (\d+)/g)].reduce((sum, match) => sum + Number(match[1]), 0);
}

// Group commit across accounts (issue 43): the moves of a process that arrive together form one
// group whatever their accounts, each account's moves decided in arrival order. The same checks,
// against groups that span accounts; the meta-tests break the group decision and go red.
describe('group commit across accounts keeps B1 and G1-G6 per move', () => {
  const accounts = (tag: string, n: number) => Array.from({ length: n }, (_, i) => `${tag}-${i}`);

  it("B1: withdrawals on eight accounts sent at once commit in fewer transactions than accounts, each answered in its account's arrival order", async () => {
    const ids = accounts('gx-b1', 8);
    for (const id of ids) await h.fundedAccount(id, 100);
    await h.fundedAccount('gx-b1-to', 0);
    const before = await transactionsCommitted();
    // Interleaved: round r sends one withdrawal of 30 to each account; the fourth and fifth find 10 left.
    const sends = [0, 1, 2, 3, 4].flatMap((round) => ids.map((id) => ({ id, round })));
    const results = await Promise.all([
      ...sends.map(({ id, round }) => h.service.withdraw({ accountId: id, amount: 30, requestId: `${id}-w${round}` })),
      h.service.withdraw({ accountId: 'gx-b1-missing', amount: 1, requestId: 'gx-b1-missing' }),
      h.service.transfer({ fromAccountId: 'gx-b1-to', toAccountId: ids[0]!, amount: 1, requestId: 'gx-b1-poor' }),
    ]);
    const committed = (await transactionsCommitted()) - before;
    // Per-account queues would need at least one transaction per account.
    expect(committed).toBeGreaterThan(0);
    expect(committed).toBeLessThan(ids.length);
    for (const id of ids) {
      const mine = sends.flatMap((send, i) => (send.id === id ? [results[i]!.kind] : []));
      expect(mine, id).toEqual([
        'withdrawSuccess',
        'withdrawSuccess',
        'withdrawSuccess',
        'insufficientFunds',
        'insufficientFunds',
      ]);
      expect(await balanceOf(id)).toBe(10);
      await expectBalanceIsJournal(id);
    }
    expect(kindsOf(results.slice(sends.length))).toEqual(['accountNotFound', 'insufficientFunds']);
  });

  it('meta B1: a group whose one refusal fails the moves on the other accounts goes red', async () => {
    const ids = accounts('gx-b1-meta', 3);
    for (const id of ids) await h.fundedAccount(id, 50);
    const send = (service: LedgerService, tag: string) =>
      Promise.allSettled([
        ...ids.map((id) => service.withdraw({ accountId: id, amount: 10, requestId: `${id}-${tag}` })),
        service.withdraw({ accountId: 'gx-b1-meta-missing', amount: 1, requestId: `gx-b1-meta-missing-${tag}` }),
      ]);
    const [broken] = await h.services(1, { groupPolicy: groupRefusalFailsAll });
    const brokenResults = await send(broken!, 'broken');
    expect(
      brokenResults.some((result) => result.status === 'rejected' || result.value.kind !== 'withdrawSuccess'),
    ).toBe(true);
    expect(
      brokenResults
        .slice(0, ids.length)
        .every((result) => result.status === 'fulfilled' && result.value.kind === 'withdrawSuccess'),
    ).toBe(false);
    const results = await send(h.service, 'real');
    expect(results.map((result) => (result.status === 'fulfilled' ? result.value.kind : 'rejected'))).toEqual([
      'withdrawSuccess',
      'withdrawSuccess',
      'withdrawSuccess',
      'accountNotFound',
    ]);
  });

  it('G1: ten processes sending 100 withdrawals of 10 to each of four accounts holding 200 apply exactly 20 on each', async () => {
    const ids = accounts('gx-g1', 4);
    for (const id of ids) await h.fundedAccount(id, 200);
    const services = await h.services(10);
    const results = await Promise.all(
      services.flatMap((service, p) =>
        Array.from({ length: 10 }, (_, i) =>
          ids.map((id) => service.withdraw({ accountId: id, amount: 10, requestId: `${id}-p${p}-${i}` })),
        ).flat(),
      ),
    );
    expect(
      results.filter((result) => result.kind !== 'withdrawSuccess' && result.kind !== 'insufficientFunds'),
    ).toEqual([]);
    expect(results.filter((result) => result.kind === 'withdrawSuccess')).toHaveLength(20 * ids.length);
    for (const id of ids) {
      expect(await balanceOf(id)).toBe(0);
      await expectBalanceIsJournal(id);
    }
  });

  it('meta G1: a group across accounts that checks each move against the balance read before it overdraws', async () => {
    const ids = accounts('gx-g1-meta', 4);
    for (const id of ids) await h.fundedAccount(id, 100);
    const [broken] = await h.services(1, { groupPolicy: groupCheckedOnOpeningBalance });
    // 4 × 20 withdrawals of 10 at once: one group of up to 100 moves spans the four accounts.
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        ids.map((id) => broken!.withdraw({ accountId: id, amount: 10, requestId: `${id}-${i}` })),
      ).flat(),
    );
    expect(results.filter((result) => result.kind === 'withdrawSuccess').length).toBeGreaterThan(10 * ids.length);
    const balances = await Promise.all(ids.map(balanceOf));
    expect(Math.min(...balances)).toBeLessThan(0);
  });

  it('G2: a ring of transfers among five accounts, sent at once with deposits, conserves the total and keeps each balance its journal', async () => {
    const ids = accounts('gx-g2', 5);
    for (const id of ids) await h.fundedAccount(id, 100);
    const results = await Promise.all([
      ...Array.from({ length: 10 }, (_, round) =>
        ids.map((id, i) =>
          h.service.transfer({
            fromAccountId: id,
            toAccountId: ids[(i + 1) % ids.length]!,
            amount: 7 + round,
            requestId: `${id}-t${round}`,
          }),
        ),
      ).flat(),
      ...ids.map((id) => h.service.deposit({ accountId: id, amount: 3, requestId: `${id}-d` })),
    ]);
    expect(
      results.every(
        (result) =>
          result.kind === 'transferSuccess' || result.kind === 'insufficientFunds' || result.kind === 'depositSuccess',
      ),
    ).toBe(true);
    const balances = await Promise.all(ids.map(balanceOf));
    expect(balances.reduce((sum, balance) => sum + balance, 0)).toBe(5 * 100 + 5 * 3);
    expect(Math.min(...balances)).toBeGreaterThanOrEqual(0);
    for (const id of ids) await expectBalanceIsJournal(id);
  });

  it('G3 and G4: one key sent ten times among moves on other accounts applies once, the key with another amount is refused', async () => {
    const ids = accounts('gx-g3', 3);
    for (const id of ids) await h.fundedAccount(id, 100);
    const results = await Promise.all([
      ...Array.from({ length: 10 }, () =>
        h.service.withdraw({ accountId: ids[0]!, amount: 5, requestId: 'gx-g3-key' }),
      ),
      h.service.withdraw({ accountId: ids[0]!, amount: 6, requestId: 'gx-g3-key' }),
      ...ids.slice(1).map((id) => h.service.withdraw({ accountId: id, amount: 5, requestId: `${id}-own` })),
    ]);
    const keyed = results.slice(0, 10);
    expect(keyed.filter((result) => result.kind === 'withdrawSuccess')).toHaveLength(1);
    expect(keyed.filter((result) => result.kind === 'duplicateReplayed')).toHaveLength(9);
    expect(results[10]).toMatchObject({ kind: 'idempotencyKeyReused', field: 'amount' });
    expect(kindsOf(results.slice(11))).toEqual(['withdrawSuccess', 'withdrawSuccess']);
    expect(await Promise.all(ids.map(balanceOf))).toEqual([95, 95, 95]);
    expect(await countOf(h.db.db, 'ledger_entries', { requestId: 'gx-g3-key' })).toBe(1);
  });

  it('G6: a group across accounts refuses the deposit that would pass 2^53-1 and applies the others', async () => {
    await h.fundedAccount('gx-g6-full', Number.MAX_SAFE_INTEGER - 5);
    await h.fundedAccount('gx-g6-other', 0);
    const results = await Promise.all([
      h.service.deposit({ accountId: 'gx-g6-other', amount: 10, requestId: 'gx-g6-1' }),
      h.service.deposit({ accountId: 'gx-g6-full', amount: 10, requestId: 'gx-g6-2' }),
      h.service.deposit({ accountId: 'gx-g6-other', amount: 10, requestId: 'gx-g6-3' }),
      h.service.deposit({ accountId: 'gx-g6-full', amount: 5, requestId: 'gx-g6-4' }),
    ]);
    expect(kindsOf(results)).toEqual(['depositSuccess', 'balanceLimitExceeded', 'depositSuccess', 'depositSuccess']);
    expect([await balanceOf('gx-g6-full'), await balanceOf('gx-g6-other')]).toEqual([Number.MAX_SAFE_INTEGER, 20]);
  });
});

describe('submitMoves', () => {
  const batch = (moves: MoveInput[], atomic = false) => h.service.submitMoves({ atomic, moves });

  it('answers a batch mixing replays, reused keys, refusals and new moves, one result per move, in order', async () => {
    await h.fundedAccount('sm-a', 100);
    await h.fundedAccount('sm-b', 0);
    await h.fundedAccount('sm-usd', 0, 'USD');
    await h.fundedAccount('sm-full', Number.MAX_SAFE_INTEGER - 1);
    const applied = await h.service.withdraw({ accountId: 'sm-a', amount: 10, requestId: 'sm-before-ok' });
    const rejected = await h.service.withdraw({ accountId: 'sm-a', amount: 1_000, requestId: 'sm-before-poor' });
    const moves: MoveInput[] = [
      { kind: 'withdraw', accountId: 'sm-a', amount: 10, requestId: 'sm-before-ok' }, // replay of an applied move
      { kind: 'withdraw', accountId: 'sm-a', amount: 1_000, requestId: 'sm-before-poor' }, // replay of a rejection
      { kind: 'withdraw', accountId: 'sm-a', amount: 11, requestId: 'sm-before-ok' }, // the key, reused
      { kind: 'transfer', accountId: 'sm-a', toAccountId: 'sm-b', amount: 50, requestId: 'sm-new-transfer' },
      { kind: 'withdraw', accountId: 'sm-a', amount: 50, requestId: 'sm-new-poor' }, // 40 left
      { kind: 'withdraw', accountId: 'sm-missing', amount: 1, requestId: 'sm-new-missing' },
      { kind: 'transfer', accountId: 'sm-a', toAccountId: 'sm-usd', amount: 1, requestId: 'sm-new-mismatch' },
      { kind: 'deposit', accountId: 'sm-full', amount: 2, requestId: 'sm-new-full' },
      { kind: 'deposit', accountId: 'sm-b', amount: 5, requestId: 'sm-new-deposit' },
      { kind: 'transfer', accountId: 'sm-a', toAccountId: 'sm-b', amount: 50, requestId: 'sm-new-transfer' }, // same key, same move: a replay
    ];
    const first = await batch(moves);
    if (first.kind !== 'submitMovesSuccess') throw new Error(first.kind);
    expect(kindsOf(first.results)).toEqual([
      'duplicateReplayed',
      'duplicateReplayed',
      'idempotencyKeyReused',
      'transferSuccess',
      'insufficientFunds',
      'accountNotFound',
      'currencyMismatch',
      'balanceLimitExceeded',
      'depositSuccess',
      'duplicateReplayed',
    ]);
    expect(first.results[0]).toMatchObject({ original: applied });
    expect(first.results[1]).toMatchObject({ original: rejected });
    expect(first.results[4]).toEqual({ kind: 'insufficientFunds', accountId: 'sm-a', balance: 40, amount: 50 });
    expect(first.results[9]).toMatchObject({ original: first.results[3] });
    expect(await balanceOf('sm-a')).toBe(40);
    expect(await balanceOf('sm-b')).toBe(55);

    // Sent again: each move answers from its own record; unrecorded refusals are decided afresh.
    const again = await batch(moves);
    if (again.kind !== 'submitMovesSuccess') throw new Error(again.kind);
    expect(kindsOf(again.results)).toEqual([
      'duplicateReplayed',
      'duplicateReplayed',
      'idempotencyKeyReused',
      'duplicateReplayed',
      'duplicateReplayed',
      'accountNotFound',
      'currencyMismatch',
      'balanceLimitExceeded',
      'duplicateReplayed',
      'duplicateReplayed',
    ]);
    expect(again.results[3]).toMatchObject({ original: first.results[3] });
    expect(again.results[4]).toMatchObject({ original: first.results[4] });
    expect(again.results[8]).toMatchObject({ original: first.results[8] });
    for (const id of ['sm-a', 'sm-b', 'sm-full']) await expectBalanceIsJournal(id);
  });

  it('meta B1: a batch whose one refusal fails all the others goes red', async () => {
    await h.fundedAccount('sm-meta', 30);
    const [broken] = await h.services(1, { groupPolicy: groupRefusalFailsAll });
    const moves: MoveInput[] = [
      { kind: 'withdraw', accountId: 'sm-meta', amount: 20, requestId: 'sm-meta-1' },
      { kind: 'withdraw', accountId: 'sm-meta', amount: 20, requestId: 'sm-meta-2' },
    ];
    const expected = {
      kind: 'submitMovesSuccess',
      results: [{ kind: 'withdrawSuccess' }, { kind: 'insufficientFunds' }],
    };
    expect(await broken!.submitMoves({ atomic: false, moves })).not.toMatchObject(expected);
    expect(await h.service.submitMoves({ atomic: false, moves })).toMatchObject(expected);
  });

  it('B2: an atomic batch with one failing move writes nothing and answers LinkedMoveFailed for the others', async () => {
    await h.fundedAccount('sm-atomic', 100);
    await h.fundedAccount('sm-atomic-to', 0);
    const moves: MoveInput[] = [
      { kind: 'transfer', accountId: 'sm-atomic', toAccountId: 'sm-atomic-to', amount: 60, requestId: 'sm-atomic-1' },
      { kind: 'deposit', accountId: 'sm-atomic-to', amount: 5, requestId: 'sm-atomic-2' },
      { kind: 'withdraw', accountId: 'sm-atomic', amount: 60, requestId: 'sm-atomic-3' }, // 40 left: fails
    ];
    const failed = await batch(moves, true);
    expect(failed).toEqual({
      kind: 'submitMovesSuccess',
      results: [
        { kind: 'linkedMoveFailed', requestId: 'sm-atomic-1' },
        { kind: 'linkedMoveFailed', requestId: 'sm-atomic-2' },
        { kind: 'insufficientFunds', accountId: 'sm-atomic', balance: 40, amount: 60 },
      ],
    });
    expect(await balanceOf('sm-atomic')).toBe(100);
    expect(await countOf(h.db.db, 'ledger_requests', { requestId: /^sm-atomic-/ })).toBe(0);
    expect(await countOf(h.db.db, 'ledger_entries', { requestId: /^sm-atomic-/ })).toBe(0);

    // Nothing was recorded, so the keys are free: the corrected batch applies whole, and a resend
    // of it answers every move from its record.
    const fixed = moves.map((move) => (move.requestId === 'sm-atomic-3' ? { ...move, amount: 40 } : move));
    const applied = await batch(fixed, true);
    expect(applied.kind === 'submitMovesSuccess' && kindsOf(applied.results)).toEqual([
      'transferSuccess',
      'depositSuccess',
      'withdrawSuccess',
    ]);
    const resent = await batch(fixed, true);
    expect(resent.kind === 'submitMovesSuccess' && kindsOf(resent.results)).toEqual(Array(3).fill('duplicateReplayed'));
    expect(await balanceOf('sm-atomic')).toBe(0);
    expect(await balanceOf('sm-atomic-to')).toBe(65);
  });

  it('keeps atomic batches racing from four processes on shared accounts whole: each applies all or none', async () => {
    const ids = ['sm-race-a', 'sm-race-b', 'sm-race-c'];
    for (const id of ids) await h.fundedAccount(id, 100);
    const services = await h.services(4);
    // 40 batches, each moving 30 from one account to the next and withdrawing 5 from the third:
    // the accounts run dry part way, and a batch that cannot apply whole applies nothing.
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => {
        const [from, to, other] = [ids[i % 3]!, ids[(i + 1) % 3]!, ids[(i + 2) % 3]!];
        return services[i % 4]!.submitMoves({
          atomic: true,
          moves: [
            { kind: 'transfer', accountId: from, toAccountId: to, amount: 30, requestId: `sm-race-${i}-t` },
            { kind: 'withdraw', accountId: other, amount: 5, requestId: `sm-race-${i}-w` },
          ],
        });
      }),
    );
    let wholes = 0;
    for (const result of results) {
      if (result.kind !== 'submitMovesSuccess') throw new Error(result.kind);
      const kinds = kindsOf(result.results);
      if (kinds[0] === 'transferSuccess') {
        expect(kinds).toEqual(['transferSuccess', 'withdrawSuccess']);
        wholes += 1;
      } else {
        // Failed whole: no move applied (one that would have answers linkedMoveFailed).
        expect(kinds.filter((kind) => kind.endsWith('Success'))).toEqual([]);
      }
    }
    const entries = await countOf(h.db.db, 'ledger_entries', { requestId: /^sm-race-/ });
    expect(entries).toBe(wholes * 3);
    const total = (await Promise.all(ids.map(balanceOf))).reduce((sum, balance) => sum + balance, 0);
    expect(total).toBe(300 - wholes * 5);
    for (const id of ids) await expectBalanceIsJournal(id);
  });

  it('answers BatchTooLarge past submitMovesMax without looking at the moves', async () => {
    const moves = Array.from(
      { length: 101 },
      (_, i) => ({ kind: 'withdraw', accountId: 'sm-none', amount: 1, requestId: `sm-large-${i}` }) as const,
    );
    expect(await batch(moves)).toEqual({ kind: 'batchTooLarge', moves: 101, movesMax: 100 });
  });

  it('bounds the bytes of a move with the longest ids by moveBytesMax', async () => {
    const long = (prefix: string) => prefix.padEnd(idLengthMax, 'x');
    await h.fundedAccount(long('sm-bytes-from-'), 10);
    await h.fundedAccount(long('sm-bytes-to-'), 0);
    const requestId = long('sm-bytes-request-');
    const result = await h.service.transfer({
      fromAccountId: long('sm-bytes-from-'),
      toAccountId: long('sm-bytes-to-'),
      amount: 1,
      requestId,
    });
    expect(result.kind).toBe('transferSuccess');
    const request = await h.db.db.collection('ledger_requests').findOne({ requestId });
    const entries = await h.db.db.collection('ledger_entries').find({ requestId }).toArray();
    const written = [request!, ...entries].reduce((sum, doc) => sum + BSON.calculateObjectSize(doc), 0);
    expect(written).toBeLessThanOrEqual(moveBytesMax(idLengthMax, 2 * idLengthMax));
  });
});
