import { describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.ts';

// The ledger's start-up tasks on a real server start: the demo accounts appear on the embedded
// engine unless SEED_DEMO=0. (The recovery sweep on start-up is proven with the other faults, in
// g5LostReply.test.ts, because fail points are global to the engine.)

describe('ledger start-up', () => {
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
