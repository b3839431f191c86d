// S4 for the ledger subscriptions: when change-stream history is lost, a live subscriber of
// either ledger feed gets a visible ResyncRequired (HISTORY_LOST) and then live events again, and
// a client resuming from a cursor older than the history gets the notice instead of a silent gap.
// Runs on an emulator of its own with a tiny oplog, overrun by one burst between two getMores.
import { startEmulator, type RunningEmulator } from '@precondition/mongo-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import {
  ACCOUNT_BALANCE_CHANGED,
  LEDGER_ENTRY_ADDED,
  subscribeLedger,
  takeLedger,
} from '../fanout/support/ledgerStreams.ts';
import { deposit, openAccount } from '../support/callers.ts';
import { withProjection } from '../payouts/support/payouts.ts';

const OPLOG_MAX_ENTRIES = 100;

describe('ledger subscriptions on history loss', () => {
  let emulator: RunningEmulator;
  let app: TestApp;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, replSetName: 'rs0', oplogMaxEntries: OPLOG_MAX_ENTRIES });
    app = await startTestApp({ mongoUri: emulator.uri, dbName: 's4ledger', ...withProjection(null) });
  });
  afterAll(async () => {
    await app?.close();
    await emulator?.stop();
  });

  it('tells live and resuming subscribers of both feeds to resync, then goes on', async () => {
    await openAccount(app, 'h');
    const liveEntries = await subscribeLedger(app, 'ledgerEntries', { accountId: 'h' });
    const liveBalances = await subscribeLedger(app, 'accountBalances', { accountIds: ['h'] });
    await deposit(app, 'h', 1, 'h-1');
    const [entryBefore] = await takeLedger(liveEntries, 1);
    const [balanceBefore] = await takeLedger(liveBalances, 1);

    // More than the whole oplog in one command: both shared streams lose their place.
    await app.db.collection('filler').insertMany(Array.from({ length: 2 * OPLOG_MAX_ENTRIES }, (_, i) => ({ i })));
    for (const live of [liveEntries, liveBalances])
      expect((await takeLedger(live, 1))[0]).toMatchObject({ __typename: 'ResyncRequired', reason: 'HISTORY_LOST' });
    await deposit(app, 'h', 2, 'h-2');
    expect((await takeLedger(liveEntries, 1))[0]).toMatchObject({
      __typename: 'LedgerEntryAdded',
      amount: 2,
      balanceAfter: 3,
    });
    expect((await takeLedger(liveBalances, 1))[0]).toMatchObject({
      __typename: 'AccountBalanceChanged',
      balance: 3,
      version: 2,
    });

    // Resuming from cursors older than the window: a notice with a cursor, then live events.
    const resumedEntries = app.ws('ops').subscribe(LEDGER_ENTRY_ADDED, { accountId: 'h', after: entryBefore!.cursor });
    const resumedBalances = app
      .ws('ops')
      .subscribe(ACCOUNT_BALANCE_CHANGED, { accountIds: ['h'], after: balanceBefore!.cursor });
    for (const resumed of [resumedEntries, resumedBalances]) {
      const [notice] = await takeLedger(resumed, 1);
      expect(notice).toMatchObject({ __typename: 'ResyncRequired', reason: 'HISTORY_LOST' });
      expect(typeof notice!.cursor).toBe('string');
    }
    await deposit(app, 'h', 4, 'h-3');
    expect((await takeLedger(resumedEntries, 1))[0]).toMatchObject({
      __typename: 'LedgerEntryAdded',
      amount: 4,
      balanceAfter: 7,
    });
    expect((await takeLedger(resumedBalances, 1))[0]).toMatchObject({
      __typename: 'AccountBalanceChanged',
      balance: 7,
      version: 3,
    });
  });
});
