import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.ts';
import { countOf } from './support/count.ts';
import { failCommand } from './support/failPoints.ts';
import { openLedgerHarness, type LedgerHarness } from './support/harness.ts';

// The ledger's start-up tasks on a real server start: a request a previous process left
// half-done (debited, no journal entry) is finished by the recovery sweep before traffic
// arrives, and the demo accounts appear on the embedded engine unless SEED_DEMO=0.

const appName = 'ledger-startup';

let h: LedgerHarness;
beforeAll(async () => {
  h = await openLedgerHarness('startup');
});
afterAll(async () => {
  await h.close();
});

describe('ledger start-up', () => {
  it('finishes a half-done withdrawal in the recovery sweep, exactly once', async () => {
    await h.fundedAccount('st-acct', 100);
    const [crashing] = await h.services(1, {}, { appName, maxPoolSize: 2 });
    const turnOff = await failCommand(h.db.client, appName, { skip: 1 }, { failCommands: ['insert'], closeConnection: true });
    try {
      const input = { accountId: 'st-acct', amount: 60, requestId: 'st-half' };
      expect(await crashing!.withdraw(input)).toMatchObject({ kind: 'outcomeUnknown' });
    } finally {
      await turnOff();
    }
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

  it('opens the demo accounts on the embedded engine, and not with SEED_DEMO=0', async () => {
    const query = '{ accounts(first: 10) { items { id currency balance } } }';
    const seeded = await startTestApp();
    try {
      const ids = (await seeded.gql(query)).data.accounts.items;
      expect(ids).toEqual([
        { id: 'demo-alice', currency: 'EUR', balance: 100_000 },
        { id: 'demo-bob', currency: 'EUR', balance: 25_000 },
        { id: 'demo-yen', currency: 'JPY', balance: 5_000 },
      ]);
    } finally {
      await seeded.close();
    }
    const bare = await startTestApp({ env: { SEED_DEMO: '0' } });
    try {
      expect((await bare.gql(query)).data.accounts.items).toEqual([]);
    } finally {
      await bare.close();
    }
  });
});
