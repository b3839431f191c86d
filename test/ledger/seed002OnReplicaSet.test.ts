// @module-tag processes
// Seed 002, reproduced on a three-member set (issue 24 item 5). The seed's broken design checks
// the balance where a dashboard would read it (a secondary) and then debits with a plain `$inc`;
// it double-spends as soon as that secondary lags. The product's conditional debit (the balance
// condition inside the write, on the primary) does not. And a `w: 1` debit acknowledged by a
// primary cut off from its secondaries is rolled back after the failover, while the product's
// moves (w: majority) survive it.
import { ReadPreference, type Collection } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { accountNow, deposit, openAccount, withdraw } from '../support/callers.ts';
import { directClient, holdBack, startTestReplSet, type TestReplSet } from '../support/replSet.ts';
import { eventually } from '../support/waiting.ts';

/** The seed's account document: a balance and nothing that guards it. */
type SeedAccount = { _id: string; balance: number };

let set: TestReplSet;
let app: TestApp;

beforeAll(async () => {
  // Member 2 hidden: reads go to the one visible secondary, which the tests hold back.
  set = await startTestReplSet({ memberConfig: [{}, {}, { hidden: true, priority: 0 }] });
  app = await startTestApp({ mongoUri: set.uri, env: { SEED_DEMO: '0' } });
}, 90_000);

afterAll(async () => {
  await app?.close();
  await set?.stop();
}, 30_000);

/** The seed's withdrawal: balance read on a secondary, then an unconditional `$inc`. */
async function seedWithdraw(
  accounts: Collection<SeedAccount>,
  id: string,
  amount: number,
): Promise<'applied' | 'insufficient'> {
  const account = await accounts.findOne({ _id: id }, { readPreference: ReadPreference.secondaryPreferred });
  if (account === null || account.balance < amount) return 'insufficient';
  await accounts.updateOne({ _id: id }, { $inc: { balance: -amount } }, { writeConcern: { w: 'majority' } });
  return 'applied';
}

describe('seed 002 on a replica set', () => {
  it("double-spends with the seed's check-then-$inc on a lagging secondary; the product's conditional debit does not", async () => {
    const primary = await set.primary();
    const visibleSecondary = set.members.find((m) => m !== primary && m.index !== 2)!;
    const accounts = app.db.collection<SeedAccount>('seed002_accounts');
    await accounts.insertOne({ _id: 'seed', balance: 100 }, { writeConcern: { w: 'majority' } });
    await openAccount(app, 'product');
    await deposit(app, 'product', 100, 'seed002-deposit');
    // Both balances visible on the secondary before it is held back.
    await eventually(async () =>
      expect(
        (await accounts.findOne({ _id: 'seed' }, { readPreference: ReadPreference.secondaryPreferred }))?.balance,
      ).toBe(100),
    );
    await eventually(async () => expect((await accountNow(app, 'product')).balance).toBe(100));

    const release = await holdBack(visibleSecondary, 'rsSyncApplyStop');
    try {
      // Two withdrawals of the whole balance, one after the other: the second checks on the
      // secondary, which has not applied the first.
      expect(await seedWithdraw(accounts, 'seed', 100)).toBe('applied');
      expect(await seedWithdraw(accounts, 'seed', 100)).toBe('applied');
      expect(
        (await accounts.findOne({ _id: 'seed' }, { readPreference: ReadPreference.primary }))?.balance,
        'the seed spent 200 of 100',
      ).toBe(-100);

      // The product: the dashboard still shows 100 (the same lag), the second debit is refused.
      expect(await withdraw(app, 'product', 100, 'seed002-w1')).toBe('WithdrawSuccess');
      expect((await accountNow(app, 'product')).balance, 'the lagging secondary').toBe(100);
      expect(await withdraw(app, 'product', 100, 'seed002-w2')).toBe('InsufficientFunds');
    } finally {
      await release();
    }
    await eventually(async () => expect((await accountNow(app, 'product')).balance).toBe(0));
  });

  it("rolls back a w:1 debit an isolated primary acknowledged; the product's majority-acknowledged moves survive the failover", async () => {
    const primary = await set.primary();
    const secondaries = set.secondaries(primary);
    const accounts = app.db.collection<SeedAccount>('seed002_rollback');
    await accounts.insertOne({ _id: 'seed', balance: 100 }, { writeConcern: { w: 'majority' } });
    await openAccount(app, 'survivor');
    await deposit(app, 'survivor', 70, 'seed002-survivor-1');
    await withdraw(app, 'survivor', 20, 'seed002-survivor-2').then((kind) => expect(kind).toBe('WithdrawSuccess'));

    // Cut the primary off: its secondaries stop fetching, then it stops altogether.
    const releases = await Promise.all(secondaries.map((member) => holdBack(member, 'stopReplProducer')));
    const isolated = directClient(primary);
    try {
      const debit = await isolated
        .db(app.db.databaseName)
        .collection<SeedAccount>('seed002_rollback')
        .updateOne({ _id: 'seed' }, { $inc: { balance: -60 } }, { writeConcern: { w: 1 } });
      expect(debit.modifiedCount, 'acknowledged by the isolated primary alone').toBe(1);
    } finally {
      await isolated.close();
    }
    primary.kill('SIGSTOP');
    try {
      for (const release of releases) await release();
      const newPrimary = await set.primary(primary);
      expect(newPrimary).not.toBe(primary);
    } finally {
      primary.kill('SIGCONT');
    }
    // The old primary rejoins, finds its last entry unknown to the new primary, rolls it back.
    await eventually(
      async () => {
        const direct = directClient(primary);
        try {
          const seen = await direct
            .db(app.db.databaseName)
            .collection<SeedAccount>('seed002_rollback')
            .findOne({ _id: 'seed' }, { readPreference: ReadPreference.secondaryPreferred });
          expect(seen?.balance, 'the w:1 debit, rolled back on the old primary').toBe(100);
        } finally {
          await direct.close();
        }
      },
      { timeout: 30_000 },
    );
    expect((await accounts.findOne({ _id: 'seed' }, { readPreference: ReadPreference.primary }))?.balance).toBe(100);
    // The product's moves were acknowledged by a majority: the new primary has both.
    await eventually(async () => expect((await accountNow(app, 'survivor')).balance).toBe(50), { timeout: 20_000 });
    const entries = await app.db
      .collection('ledger_entries')
      .countDocuments({ accountId: 'survivor' }, { readPreference: ReadPreference.primary });
    expect(entries).toBe(2);
  });
});
