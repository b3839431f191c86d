import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerService } from '../../src/ledger/index.ts';
import { accountTraceLengthMax } from '../../src/ledger/limits.ts';
import { startTestApp } from '../support/app.ts';
import { countOf } from './support/count.ts';
import { failCommand } from './support/failPoints.ts';
import { openLedgerHarness, type LedgerHarness } from './support/harness.ts';

// G5: when a write applied but its reply was lost, the next attempt with the same key (an
// internal retry, a replay, or the start-up sweep) completes it exactly once. Faults come from
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

const setFault = async (...args: Parameters<typeof failCommand> extends [unknown, unknown, ...infer Rest] ? Rest : never) => {
  turnOff = await failCommand(h.db.client, appName, ...args);
};
const balanceOf = async (accountId: string) =>
  Number((await h.db.db.collection('accounts').findOne({ _id: accountId as never }))?.balance);
const entriesOf = (requestId: string) => countOf(h.db.db, 'ledger_entries', { requestId });
const driveFailures = async () => (await h.registry.getSingleMetricAsString('ledger_drive_failures_total')).match(/ (\d+)$/m)?.[1];

const writeConcernError = { code: 64, codeName: 'WriteConcernFailed', errmsg: 'waiting for replication timed out', errInfo: { wtimeout: true } };

describe('G5 applied, reply lost', () => {
  it('finishes a debit whose reply carried a writeConcernError, by an internal retry', async () => {
    await h.fundedAccount('g5-wce', 100);
    const failuresBefore = Number(await driveFailures());
    await setFault({ times: 1 }, { failCommands: ['findAndModify'], writeConcernError });
    const result = await service.withdraw({ accountId: 'g5-wce', amount: 40, requestId: 'g5-wce-1' });
    expect(result).toMatchObject({ kind: 'withdrawSuccess', account: { balance: 60 }, entry: { balanceAfter: 60 } });
    expect(Number(await driveFailures())).toBe(failuresBefore + 1);
    expect(await balanceOf('g5-wce')).toBe(60);
    expect(await entriesOf('g5-wce-1')).toBe(1);
  });

  it('answers OutcomeUnknown while every reply is lost, then the replay completes it once', async () => {
    await h.fundedAccount('g5-unknown', 100);
    await setFault('alwaysOn', { failCommands: ['findAndModify'], writeConcernError });
    const input = { accountId: 'g5-unknown', amount: 25, requestId: 'g5-unknown-1' };
    expect(await service.withdraw(input)).toMatchObject({ kind: 'outcomeUnknown', requestId: 'g5-unknown-1' });
    expect(await balanceOf('g5-unknown')).toBe(75);
    await turnOff?.();
    const replay = await service.withdraw(input);
    expect(replay).toMatchObject({ kind: 'duplicateReplayed', original: { kind: 'withdrawSuccess', entry: { balanceAfter: 75 } } });
    expect(await service.withdraw(input)).toEqual(replay);
    expect(await balanceOf('g5-unknown')).toBe(75);
    expect(await entriesOf('g5-unknown-1')).toBe(1);
  });

  it('debits once when the reply is blocked past the socket timeout and the write runs late', async () => {
    await h.fundedAccount('g5-block', 100);
    const blockTimeMS = socketTimeoutMS * 3;
    await setFault({ times: 1 }, { failCommands: ['findAndModify'], blockConnection: true, blockTimeMS });
    const startedMs = Date.now();
    const result = await impatient.withdraw({ accountId: 'g5-block', amount: 10, requestId: 'g5-block-1' });
    expect(Date.now() - startedMs).toBeGreaterThanOrEqual(socketTimeoutMS); // the reply was really lost
    expect(result).toMatchObject({ kind: 'withdrawSuccess', account: { balance: 90 } });
    await sleep(blockTimeMS + 200); // let the blocked original run on the server
    expect(await balanceOf('g5-block')).toBe(90);
    expect(await entriesOf('g5-block-1')).toBe(1);
  });

  it('completes a transfer whose second write (the credit) kept failing, on replay, conserving money', async () => {
    await h.fundedAccount('g5-from', 500);
    await h.fundedAccount('g5-to', 0);
    await setFault({ skip: 1 }, { failCommands: ['findAndModify'], closeConnection: true });
    const input = { fromAccountId: 'g5-from', toAccountId: 'g5-to', amount: 200, requestId: 'g5-transfer' };
    expect(await service.transfer(input)).toMatchObject({ kind: 'outcomeUnknown' });
    expect([await balanceOf('g5-from'), await balanceOf('g5-to')]).toEqual([300, 0]);
    await turnOff?.();
    const replay = await service.transfer(input);
    expect(replay).toMatchObject({
      kind: 'duplicateReplayed',
      original: { kind: 'transferSuccess', from: { balance: 300 }, to: { balance: 200 } },
    });
    expect([await balanceOf('g5-from'), await balanceOf('g5-to')]).toEqual([300, 200]);
    expect(await entriesOf('g5-transfer')).toBe(2);
  });

  it('lets the start-up sweep finish a debit whose journal entry was never written', async () => {
    await h.fundedAccount('g5-sweep', 100);
    // Inserts: the claim (1st) passes, the entry (2nd and later) fails.
    await setFault({ skip: 1 }, { failCommands: ['insert'], closeConnection: true });
    const input = { accountId: 'g5-sweep', amount: 30, requestId: 'g5-sweep-1' };
    expect(await service.withdraw(input)).toMatchObject({ kind: 'outcomeUnknown' });
    expect(await balanceOf('g5-sweep')).toBe(70);
    expect(await entriesOf('g5-sweep-1')).toBe(0);
    await turnOff?.();
    expect(await h.service.sweepPendingRequests()).toEqual({ completed: 1, unfinished: 0 });
    expect(await entriesOf('g5-sweep-1')).toBe(1);
    expect(await service.withdraw(input)).toMatchObject({ kind: 'duplicateReplayed', original: { kind: 'withdrawSuccess' } });
    expect(await balanceOf('g5-sweep')).toBe(70);
  });

  it('finishes a half-done withdrawal in the recovery sweep of a real server start, exactly once', async () => {
    await h.fundedAccount('st-acct', 100);
    await setFault({ skip: 1 }, { failCommands: ['insert'], closeConnection: true });
    expect(await service.withdraw({ accountId: 'st-acct', amount: 60, requestId: 'st-half' })).toMatchObject({ kind: 'outcomeUnknown' });
    await turnOff?.();
    expect(await countOf(h.db.db, 'ledger_requests', { requestId: 'st-half', status: 'pending' })).toBe(1);

    const app = await startTestApp({ dbName: h.db.dbName, env: { SEED_DEMO: '0' } });
    try {
      expect(await countOf(h.db.db, 'ledger_requests', { requestId: 'st-half', status: 'applied' })).toBe(1);
      const entry = await app.gql('{ ledgerEntry(requestId: "st-half") { amount balanceAfter account { balance } } }');
      expect(entry.data.ledgerEntry).toEqual({ amount: 60, balanceAfter: 40, account: { balance: 40 } });
    } finally {
      await app.close();
    }
  });

  it('never re-applies a lost debit whose trace record was pushed out: it stays OutcomeUnknown', async () => {
    await h.fundedAccount('g5-old', 100);
    await setFault({ skip: 1 }, { failCommands: ['insert'], closeConnection: true });
    const input = { accountId: 'g5-old', amount: 30, requestId: 'g5-old-1' };
    expect(await service.withdraw(input)).toMatchObject({ kind: 'outcomeUnknown' });
    await turnOff?.();
    // More decisions than the trace keeps, so the lost debit's record is gone from it.
    const deposits = Array.from({ length: accountTraceLengthMax }, (_, i) =>
      h.service.deposit({ accountId: 'g5-old', amount: 1, requestId: `g5-old-dep-${i}` }),
    );
    expect(new Set((await Promise.all(deposits)).map((result) => result.kind))).toEqual(new Set(['depositSuccess']));
    expect(await service.withdraw(input)).toMatchObject({ kind: 'outcomeUnknown' });
    expect(await balanceOf('g5-old')).toBe(100 - 30 + accountTraceLengthMax);
    expect(await entriesOf('g5-old-1')).toBe(0);
  });
});
