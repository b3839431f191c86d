// @module-tag failpoints
import { MongoClient } from 'mongodb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerService } from '../../src/ledger/index.ts';
import type { AccountDoc } from '../../src/ledger/model.ts';
import { openAccount } from '../../src/ledger/openAccount.ts';
import { keyPerAttempt } from './support/brokenPreconditions.ts';
import { countOf } from './support/count.ts';
import { failCommand } from '../support/failPoints.ts';
import { openLedgerHarness, type LedgerHarness } from './support/harness.ts';
import { databaseClockPasses } from '../support/waiting.ts';
import { useOwnEngine } from '../support/mongo.ts';

// Its fail points on an engine of its own, never waiting on another file's (test/support/mongo.ts).
useOwnEngine();

// G5: a money move is one transaction, so a lost reply leaves the whole move or nothing; the
// rerun under the same key (internal, or the caller's replay) finds the key decided or decides it,
// exactly once. The kill of a whole process is in killedProcess.test.ts. Faults come from
// mongod's `failCommand` fail point, scoped to this file's clients by appName. Fail points are
// global to the engine, so every ledger test that sets one lives in this file (run in order).

const appName = 'ledger-g5';
const socketTimeoutMS = 300;

let h: LedgerHarness;
/** The faulted client, with the driver's default (no) socket timeout. */
let service: LedgerService;
/** The faulted client whose socket gives up after `socketTimeoutMS`, for the blocked reply. */
let impatient: LedgerService;
let turnOff: (() => Promise<void>) | null = null;
beforeAll(async () => {
  h = await openLedgerHarness('g5');
  service = (await h.services(1, {}, { appName, maxPoolSize: 5 }))[0]!;
  impatient = (await h.services(1, {}, { appName, socketTimeoutMS, maxPoolSize: 5 }))[0]!;
});
afterEach(async () => {
  await turnOff?.();
  turnOff = null;
});
afterAll(async () => {
  await h.close();
});

const setFault = async (
  ...args: Parameters<typeof failCommand> extends [unknown, unknown, ...infer Rest] ? Rest : never
) => {
  turnOff = await failCommand(h.db.client, appName, ...args);
};
const balanceOf = async (accountId: string) =>
  Number((await h.db.db.collection('accounts').findOne({ _id: accountId as never }))?.balance);
const entriesOf = (requestId: string) => countOf(h.db.db, 'ledger_entries', { requestId });
const retries = async (reason: string) =>
  Number(
    new RegExp(`reason="${reason}"} (\\d+)`).exec(
      await h.registry.getSingleMetricAsString('ledger_transaction_retries_total'),
    )?.[1] ?? 0,
  );

const writeConcernError = {
  code: 64,
  codeName: 'WriteConcernFailed',
  errmsg: 'waiting for replication timed out',
  errInfo: { wtimeout: true },
};

describe('G5 applied, reply lost', () => {
  it('answers the success once when the commit applied but its reply carried a writeConcernError', async () => {
    await h.fundedAccount('g5-wce', 100);
    const before = await retries('unknownCommitResult');
    await setFault({ times: 1 }, { failCommands: ['commitTransaction'], writeConcernError });
    const result = await service.withdraw({ accountId: 'g5-wce', amount: 40, requestId: 'g5-wce-1' });
    // The rerun met its own committed key and answers with it, not with DuplicateReplayed.
    expect(result).toMatchObject({ kind: 'withdrawSuccess', account: { balance: 60 }, entry: { balanceAfter: 60 } });
    expect(await retries('unknownCommitResult')).toBe(before + 1);
    expect(await balanceOf('g5-wce')).toBe(60);
    expect(await entriesOf('g5-wce-1')).toBe(1);
  });

  it('meta (G3): a key minted per attempt debits twice when a commit reply is lost', async () => {
    await h.fundedAccount('g5-g3', 100);
    const [broken] = await h.services(1, { rules: keyPerAttempt }, { appName, maxPoolSize: 5 });
    await setFault({ times: 1 }, { failCommands: ['commitTransaction'], writeConcernError });
    await broken!.withdraw({ accountId: 'g5-g3', amount: 40, requestId: 'g5-g3-1' });
    // The checks of the test above, red: two debits, two entries.
    expect(await balanceOf('g5-g3')).toBe(20);
    expect(await entriesOf('g5-g3-1')).toBe(2);
  });

  it('answers OutcomeUnknown while no commit gets through, and the same key later applies once', async () => {
    await h.fundedAccount('g5-unknown', 100);
    await setFault('alwaysOn', { failCommands: ['commitTransaction'], closeConnection: true });
    const input = { accountId: 'g5-unknown', amount: 25, requestId: 'g5-unknown-1' };
    expect(await service.withdraw(input)).toMatchObject({ kind: 'outcomeUnknown', requestId: 'g5-unknown-1' });
    expect(await balanceOf('g5-unknown')).toBe(100);
    await turnOff?.();
    const later = await service.withdraw(input);
    expect(later).toMatchObject({ kind: 'withdrawSuccess', entry: { balanceAfter: 75 } });
    expect(await service.withdraw(input)).toMatchObject({ kind: 'duplicateReplayed', original: later });
    expect(await balanceOf('g5-unknown')).toBe(75);
    expect(await entriesOf('g5-unknown-1')).toBe(1);
  });

  it('reruns a move whose connection dropped after the debit, and applies it once', async () => {
    await h.fundedAccount('g5-drop', 100);
    const before = await retries('transient');
    // The first insert (the request) loses its connection: the transaction is gone with it.
    await setFault({ times: 1 }, { failCommands: ['insert'], closeConnection: true });
    const result = await service.withdraw({ accountId: 'g5-drop', amount: 30, requestId: 'g5-drop-1' });
    expect(result).toMatchObject({ kind: 'withdrawSuccess', account: { balance: 70 } });
    expect(await retries('transient')).toBe(before + 1);
    expect(await balanceOf('g5-drop')).toBe(70);
    expect(await entriesOf('g5-drop-1')).toBe(1);
  });

  it('debits once when the reply is blocked past the socket timeout and the write runs late', async () => {
    await h.fundedAccount('g5-block', 100);
    const blockTimeMS = socketTimeoutMS * 3;
    await setFault({ times: 1 }, { failCommands: ['findAndModify'], blockConnection: true, blockTimeMS });
    const startedMs = Date.now();
    const result = await impatient.withdraw({ accountId: 'g5-block', amount: 10, requestId: 'g5-block-1' });
    expect(Date.now() - startedMs).toBeGreaterThanOrEqual(socketTimeoutMS); // the reply was really lost
    expect(result).toMatchObject({ kind: 'withdrawSuccess', account: { balance: 90 } });
    // The blocked original runs (or fails) on the server once its block ends, blockTimeMS after
    // it arrived, on the server's clock: wait until that clock has passed the block's end.
    await databaseClockPasses(h.db.db, new Date(startedMs + blockTimeMS));
    expect(await balanceOf('g5-block')).toBe(90);
    expect(await entriesOf('g5-block-1')).toBe(1);
  });

  it('answers a replay from the final lookup when every attempt fails before it could read its key', async () => {
    await h.fundedAccount('g5-lookup', 100);
    const input = { accountId: 'g5-lookup', amount: 10, requestId: 'g5-lookup-1' };
    const first = await service.withdraw(input);
    expect(first).toMatchObject({ kind: 'withdrawSuccess', account: { balance: 90 } });
    // Every debit loses its connection: no attempt reaches the key, only the runner's last read does.
    await setFault('alwaysOn', { failCommands: ['findAndModify'], closeConnection: true });
    expect(await service.withdraw(input)).toEqual({
      kind: 'duplicateReplayed',
      requestId: 'g5-lookup-1',
      firstSeenAt: expect.any(Date),
      original: first,
    });
    expect(await balanceOf('g5-lookup')).toBe(90);
  });

  it('moves nothing of a transfer whose credit keeps failing, then the same key moves it whole', async () => {
    await h.fundedAccount('g5-from', 500);
    await h.fundedAccount('g5-to', 0);
    // Every findAndModify after the first debit loses its connection: credits and later debits.
    await setFault({ skip: 1 }, { failCommands: ['findAndModify'], closeConnection: true });
    const input = { fromAccountId: 'g5-from', toAccountId: 'g5-to', amount: 200, requestId: 'g5-transfer' };
    expect(await service.transfer(input)).toMatchObject({ kind: 'requestInProgress' });
    // All or nothing: the debit that went through was in the transaction that never committed.
    expect([await balanceOf('g5-from'), await balanceOf('g5-to')]).toEqual([500, 0]);
    expect(await entriesOf('g5-transfer')).toBe(0);
    await turnOff?.();
    expect(await service.transfer(input)).toMatchObject({
      kind: 'transferSuccess',
      from: { balance: 300 },
      to: { balance: 200 },
    });
    expect([await balanceOf('g5-from'), await balanceOf('g5-to')]).toEqual([300, 200]);
    expect(await entriesOf('g5-transfer')).toBe(2);
  });

  it('answers each move of a group once when the group commit applied but its reply was lost', async () => {
    await h.fundedAccount('g5-group', 100);
    const replayed = await service.withdraw({ accountId: 'g5-group', amount: 1, requestId: 'g5-group-before' });
    const before = await retries('unknownCommitResult');
    await setFault({ times: 1 }, { failCommands: ['commitTransaction'], writeConcernError });
    const moves = [
      { kind: 'withdraw', accountId: 'g5-group', amount: 1, requestId: 'g5-group-before' }, // a replay in the batch
      { kind: 'withdraw', accountId: 'g5-group', amount: 30, requestId: 'g5-group-1' },
      { kind: 'withdraw', accountId: 'g5-group', amount: 30, requestId: 'g5-group-2' },
      { kind: 'withdraw', accountId: 'g5-group', amount: 50, requestId: 'g5-group-3' }, // 39 left: rejected
    ] as const;
    const result = await service.submitMoves({ atomic: false, moves: [...moves] });
    // The rerun met its own committed keys: each new move answers as itself, the replay stays one.
    expect(result).toMatchObject({
      kind: 'submitMovesSuccess',
      results: [
        { kind: 'duplicateReplayed', original: replayed },
        { kind: 'withdrawSuccess', account: { balance: 69 } },
        { kind: 'withdrawSuccess', account: { balance: 39 } },
        { kind: 'insufficientFunds', balance: 39 },
      ],
    });
    expect(await retries('unknownCommitResult')).toBe(before + 1);
    expect(await balanceOf('g5-group')).toBe(39);
    for (const id of ['g5-group-1', 'g5-group-2']) expect(await entriesOf(id)).toBe(1);
  });

  it('answers each move of a group across accounts once when its commit applied but the reply was lost', async () => {
    const ids = ['g5-cross-a', 'g5-cross-b', 'g5-cross-c'];
    for (const id of ids) await h.fundedAccount(id, 100);
    const before = await retries('unknownCommitResult');
    await setFault({ times: 1 }, { failCommands: ['commitTransaction'], writeConcernError });
    // Sent at once on three accounts: one group transaction across them (or a lone move and a group).
    const results = await Promise.all(
      ids.flatMap((id) =>
        [1, 2].map((i) => service.withdraw({ accountId: id, amount: 10 * i, requestId: `${id}-${i}` })),
      ),
    );
    // Each answers as itself, never DuplicateReplayed: its own commit's reply was the one lost.
    expect(results.map((result) => result.kind)).toEqual(Array(6).fill('withdrawSuccess'));
    expect(await retries('unknownCommitResult')).toBe(before + 1);
    for (const id of ids) {
      expect(await balanceOf(id)).toBe(70);
      for (const i of [1, 2]) expect(await entriesOf(`${id}-${i}`)).toBe(1);
    }
  });

  it('reruns a group whose account write met a transient error, under the same keys, once', async () => {
    await h.fundedAccount('g5-group-drop', 100);
    const before = await retries('transient');
    // The group's one account write (an `update` command) loses its connection.
    await setFault({ times: 1 }, { failCommands: ['update'], closeConnection: true });
    const results = await Promise.all(
      [1, 2, 3].map((i) =>
        service.withdraw({ accountId: 'g5-group-drop', amount: 10, requestId: `g5-group-drop-${i}` }),
      ),
    );
    expect(results.map((result) => result.kind)).toEqual(Array(3).fill('withdrawSuccess'));
    expect(await retries('transient')).toBe(before + 1);
    expect(await balanceOf('g5-group-drop')).toBe(70);
    for (const i of [1, 2, 3]) expect(await entriesOf(`g5-group-drop-${i}`)).toBe(1);
  });

  it('leaves an atomic batch whole or absent while no commit gets through, and the same keys later apply it once', async () => {
    await h.fundedAccount('g5-atomic-from', 100);
    await h.fundedAccount('g5-atomic-to', 0);
    await setFault('alwaysOn', { failCommands: ['commitTransaction'], closeConnection: true });
    const input = {
      atomic: true,
      moves: [
        {
          kind: 'transfer',
          accountId: 'g5-atomic-from',
          toAccountId: 'g5-atomic-to',
          amount: 60,
          requestId: 'g5-atomic-1',
        },
        { kind: 'withdraw', accountId: 'g5-atomic-from', amount: 40, requestId: 'g5-atomic-2' },
      ],
    } as const;
    const unknown = await service.submitMoves({ atomic: true, moves: [...input.moves] });
    expect(unknown).toMatchObject({
      kind: 'submitMovesSuccess',
      results: [{ kind: 'outcomeUnknown' }, { kind: 'outcomeUnknown' }],
    });
    expect([await balanceOf('g5-atomic-from'), await balanceOf('g5-atomic-to')]).toEqual([100, 0]);
    await turnOff?.();
    const later = await service.submitMoves({ atomic: true, moves: [...input.moves] });
    expect(later).toMatchObject({
      kind: 'submitMovesSuccess',
      results: [{ kind: 'transferSuccess' }, { kind: 'withdrawSuccess' }],
    });
    expect([await balanceOf('g5-atomic-from'), await balanceOf('g5-atomic-to')]).toEqual([0, 60]);
  });
});

// openAccount is one insert on the account's unique _id. The driver retries it once after a
// step-down; a second election during that retry (a set settling after a partition) is the
// service's to ride out, and an insert of its own that applied before its reply was lost is its
// success, not a replay.
describe('openAccount through elections', () => {
  const steppedDown = { code: 11602, codeName: 'InterruptedDueToReplStateChange', errmsg: 'operation was interrupted' };
  const accountsOf = (accountId: string) => countOf(h.db.db, 'accounts', { _id: accountId });

  it('opens the account when both the insert and the driver retry meet a step-down', async () => {
    await setFault({ times: 2 }, { failCommands: ['insert'], errorCode: steppedDown.code });
    expect(await service.openAccount({ accountId: 'g5-open-refused', currency: 'EUR' })).toMatchObject({
      kind: 'openAccountSuccess',
      account: { id: 'g5-open-refused', balance: 0 },
    });
    expect(await accountsOf('g5-open-refused')).toBe(1);
  });

  it('answers its own success, not a replay, when its insert applied but both replies carried a step-down', async () => {
    await setFault({ times: 2 }, { failCommands: ['insert'], writeConcernError: steppedDown });
    expect(await service.openAccount({ accountId: 'g5-open-applied', currency: 'EUR' })).toMatchObject({
      kind: 'openAccountSuccess',
      account: { id: 'g5-open-applied' },
    });
    expect(await accountsOf('g5-open-applied')).toBe(1);
    // Another call with the same key is a replay, as ever.
    expect(await service.openAccount({ accountId: 'g5-open-applied', currency: 'EUR' })).toMatchObject({
      kind: 'duplicateReplayed',
      requestId: 'g5-open-applied',
    });
  });

  it('gives up with the error once its budget is spent while the set stays without a primary', async () => {
    const client = new MongoClient(h.db.uri, { appName, maxPoolSize: 2 });
    try {
      await setFault('alwaysOn', { failCommands: ['insert'], errorCode: steppedDown.code });
      const accounts = client.db(h.db.dbName).collection<AccountDoc>('accounts');
      const started = Date.now();
      await expect(openAccount(accounts, { accountId: 'g5-open-never', currency: 'EUR' }, 300)).rejects.toMatchObject({
        code: steppedDown.code,
      });
      // It stopped at the first attempt after its budget: well inside the driver's 30 s server selection.
      expect(Date.now() - started).toBeLessThan(10_000);
      await turnOff?.();
      turnOff = null;
      expect(await accountsOf('g5-open-never')).toBe(0);
    } finally {
      await client.close();
    }
  });
});
