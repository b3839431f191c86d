// The dashboards' ledger queries, end to end over HTTP: entries across accounts filtered by
// account, kinds, currency and time range (newest first, cursor pages, capped totalCount),
// totals per currency, and one request's state (pending, applied with its entries, rejected with
// why). Every list walks the index it names: with that index dropped the query is refused (a
// hint on a missing index is BadValue), so none can fall back to a collection scan unnoticed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DashboardEntryIndex,
  DashboardAccountIndex,
  entriesIndexFor,
  ledgerTotals,
  listEntriesAcross,
} from '../../src/ledger/dashboard.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { clockPasses } from '../support/waiting.ts';
import { deposit, openAccount, transfer, withdraw } from '../support/callers.ts';

const ENTRIES = `query ($accountId: ID, $kinds: [LedgerEntryKind!], $currency: String, $from: DateTime, $to: DateTime, $first: Int, $after: String) {
  ledgerEntries(accountId: $accountId, kinds: $kinds, currency: $currency, from: $from, to: $to, first: $first, after: $after) {
    items { id accountId kind amount currency createdAt } endCursor hasNextPage totalCount totalCountCapped
  }
}`;

interface Row {
  id: string;
  accountId: string;
  kind: string;
  amount: number;
  currency: string;
  createdAt: string;
}

describe('dashboard ledger queries', () => {
  let app: TestApp;
  let middle: string;
  beforeAll(async () => {
    app = await startTestApp({ env: { SEED_DEMO: '0' } });
    for (const id of ['d-e1', 'd-e2']) await openAccount(app, id, 'EUR');
    await openAccount(app, 'd-u1', 'USD');
    await deposit(app, 'd-e1', 1_000, 'd-dep-e1');
    await deposit(app, 'd-e2', 500, 'd-dep-e2');
    await deposit(app, 'd-u1', 300, 'd-dep-u1');
    // `middle` is just after the newest entry so far (stamped by the in-process app's clock), and
    // the next moves are made once that clock has passed it: every entry after it is newer.
    const [newest] = await app.db
      .collection<{ createdAt: Date }>('ledger_entries')
      .find({})
      .sort({ createdAt: -1 })
      .limit(1)
      .toArray();
    const bound = new Date(newest!.createdAt.getTime() + 1);
    await clockPasses(bound);
    middle = bound.toISOString();
    expect(await withdraw(app, 'd-e1', 100, 'd-wd-e1')).toBe('WithdrawSuccess');
    await transfer(app, 'd-e1', 'd-e2', 200, 'd-tr-1');
    expect(await withdraw(app, 'd-u1', 50, 'd-wd-u1')).toBe('WithdrawSuccess');
    expect(await withdraw(app, 'd-e2', 1_000_000, 'd-wd-refused')).toBe('InsufficientFunds');
  });
  afterAll(async () => {
    await app?.close();
  });

  const entries = async (variables: Record<string, unknown>) => {
    const res = await app.gql(ENTRIES, variables, { key: 'dashboard' });
    expect(res.errors).toBeUndefined();
    return res.data.ledgerEntries as {
      items: Row[];
      endCursor: string | null;
      hasNextPage: boolean;
      totalCount: number;
      totalCountCapped: boolean;
    };
  };
  const keyOf = (row: Row) => `${row.accountId}/${row.kind}/${row.amount}`;

  it('lists every entry newest first, and pages through them with cursors', async () => {
    const all = await entries({ first: 100 });
    expect(all.totalCount).toBe(7); // 3 deposits, 2 withdrawals, 2 transfer legs (the refusal wrote none)
    expect(all.totalCountCapped).toBe(false);
    const times = all.items.map((row) => row.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    const pages: Row[] = [];
    let after: string | null = null;
    for (let n = 0; n < 10; n++) {
      const page = await entries({ first: 3, after });
      pages.push(...page.items);
      if (!page.hasNextPage) break;
      after = page.endCursor;
    }
    expect(pages.map((row) => row.id)).toEqual(all.items.map((row) => row.id));
  });

  it('filters by account, kinds, currency and time range', async () => {
    expect((await entries({ accountId: 'd-e1' })).items.map(keyOf).sort()).toEqual([
      'd-e1/deposit/1000',
      'd-e1/transferOut/200',
      'd-e1/withdrawal/100',
    ]);
    expect((await entries({ kinds: ['withdrawal'] })).items.map(keyOf).sort()).toEqual([
      'd-e1/withdrawal/100',
      'd-u1/withdrawal/50',
    ]);
    expect((await entries({ currency: 'USD' })).items.map(keyOf).sort()).toEqual([
      'd-u1/deposit/300',
      'd-u1/withdrawal/50',
    ]);
    expect((await entries({ currency: 'EUR', kinds: ['transferIn', 'transferOut'] })).items.map(keyOf).sort()).toEqual([
      'd-e1/transferOut/200',
      'd-e2/transferIn/200',
    ]);
    const before = await entries({ to: middle });
    expect(before.items.map(keyOf).sort()).toEqual(['d-e1/deposit/1000', 'd-e2/deposit/500', 'd-u1/deposit/300']);
    expect(before.totalCount).toBe(3);
    expect((await entries({ from: middle, accountId: 'd-e2' })).items.map(keyOf)).toEqual(['d-e2/transferIn/200']);
  });

  it('refuses a bad cursor and an empty time range as BAD_USER_INPUT', async () => {
    for (const variables of [{ after: 'bm90IGEgY3Vyc29y' }, { from: middle, to: middle }, { first: 101 }]) {
      const res = await app.gql(ENTRIES, variables, { key: 'dashboard' });
      expect(res.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    }
  });

  it('totals a currency: money held now, and the flows of a range', async () => {
    const query = `query ($currency: String!, $from: DateTime, $to: DateTime) { ledgerTotals(currency: $currency, from: $from, to: $to) {
      currency moneyHeld accounts deposits { count amount } withdrawals { count amount } transfers { count amount } } }`;
    const eur = (await app.gql(query, { currency: 'EUR' }, { key: 'dashboard' })).data.ledgerTotals;
    expect(eur).toEqual({
      currency: 'EUR',
      // Sums are BigIntString: exact decimal strings at any size.
      moneyHeld: String(1_000 + 500 - 100),
      accounts: 2,
      deposits: { count: 2, amount: '1500' },
      withdrawals: { count: 1, amount: '100' },
      transfers: { count: 1, amount: '200' },
    });
    const usdLater = (await app.gql(query, { currency: 'USD', from: middle }, { key: 'dashboard' })).data.ledgerTotals;
    expect(usdLater).toMatchObject({
      moneyHeld: '250',
      deposits: { count: 0, amount: '0' },
      withdrawals: { count: 1, amount: '50' },
    });
  });

  it("tells a request's state: applied with its entries, rejected with why, pending, or never seen", async () => {
    const query = `query ($requestId: String!) { ledgerRequest(requestId: $requestId) {
      requestId status operation amount fromAccountId toAccountId decidedAt entries { accountId kind amount } rejection { accountId balance amount } } }`;
    const get = async (requestId: string) =>
      (await app.gql(query, { requestId }, { key: 'dashboard' })).data.ledgerRequest;
    expect(await get('d-tr-1')).toMatchObject({
      status: 'APPLIED',
      operation: 'transfer',
      amount: 200,
      fromAccountId: 'd-e1',
      toAccountId: 'd-e2',
      entries: [
        { accountId: 'd-e1', kind: 'transferOut', amount: 200 },
        { accountId: 'd-e2', kind: 'transferIn', amount: 200 },
      ],
      rejection: null,
    });
    expect(await get('d-wd-refused')).toMatchObject({
      status: 'REJECTED',
      entries: [],
      rejection: { accountId: 'd-e2', balance: 700, amount: 1_000_000 },
    });
    expect(await get('never-seen')).toBeNull();
    // A request claimed but not decided yet, as a crashed process would leave it.
    await app.db.collection('ledger_requests').insertOne({
      _id: 'ledger:d-pending' as never,
      requestId: 'd-pending',
      paramsHash: 'x',
      params: { op: 'deposit', fromAccountId: null, toAccountId: 'd-e1', amount: 5 },
      status: 'pending',
      outcome: null,
      firstSeenAt: new Date(),
      decidedAt: null,
    });
    expect(await get('d-pending')).toMatchObject({
      status: 'PENDING',
      operation: 'deposit',
      amount: 5,
      decidedAt: null,
      entries: [],
      rejection: null,
    });
  });

  it('walks the index each list names, and is refused without it', async () => {
    expect(entriesIndexFor({ accountId: 'x', currency: 'EUR' })).toBe(DashboardEntryIndex.byAccount.name);
    expect(entriesIndexFor({ currency: 'EUR' })).toBe(DashboardEntryIndex.byCurrency.name);
    expect(entriesIndexFor({})).toBe(DashboardEntryIndex.byKind.name);
    const indexes = (await app.db.collection('ledger_entries').indexes()).map((index) => index.name);
    expect(indexes).toEqual(expect.arrayContaining(Object.values(DashboardEntryIndex).map((index) => index.name)));
    expect((await app.db.collection('accounts').indexes()).map((index) => index.name)).toContain(
      DashboardAccountIndex.name,
    );

    const cases = [
      { index: DashboardEntryIndex.byAccount.name, query: { accountId: 'd-e1', first: 5 } },
      { index: DashboardEntryIndex.byCurrency.name, query: { currency: 'EUR', first: 5 } },
      { index: DashboardEntryIndex.byKind.name, query: { first: 5 } },
    ];
    for (const { index, query } of cases) {
      const listed = await listEntriesAcross(app.db, query);
      expect(listed.items.length).toBeGreaterThan(0);
      await expect(listed.count()).resolves.toMatchObject({ totalCountCapped: false });
      const spec = (await app.db.collection('ledger_entries').indexes()).find((candidate) => candidate.name === index)!;
      await app.db.collection('ledger_entries').dropIndex(index);
      await expect(listEntriesAcross(app.db, query)).rejects.toMatchObject({ codeName: 'BadValue' });
      await app.db.collection('ledger_entries').createIndex(spec.key, { name: index });
    }
    // Totals name their indexes too (mongod refuses a hint on a missing index in aggregate as well).
    await expect(ledgerTotals(app.db, { currency: 'EUR' })).resolves.toMatchObject({ moneyHeld: 1_400n });
  });
});
