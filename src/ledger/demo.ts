import type { LedgerService } from './service.ts';

/** The demo accounts of the README, opened and funded on the embedded engine unless SEED_DEMO=0. */
export const demoAccounts = Object.freeze([
  { accountId: 'demo-alice', currency: 'EUR', openingMinorUnits: 100_000 },
  { accountId: 'demo-bob', currency: 'EUR', openingMinorUnits: 25_000 },
  { accountId: 'demo-yen', currency: 'JPY', openingMinorUnits: 5_000 },
]);

/** Idempotent like any caller: fixed keys, so a restart replays instead of paying twice. */
export async function seedDemoAccounts(ledger: LedgerService): Promise<void> {
  for (const { accountId, currency, openingMinorUnits } of demoAccounts) {
    await ledger.openAccount({ accountId, currency });
    await ledger.deposit({ accountId, amount: openingMinorUnits, requestId: `demo-seed-${accountId}` });
  }
}
