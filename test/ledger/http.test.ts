import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { openAccount } from '../support/callers.ts';

// The ledger over HTTP, end to end: rights from the roles table, bad input refused before it
// touches anything, cursor pages, concurrent HTTP clients, and the metrics of every answer.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ env: { SEED_DEMO: '0' } });
  for (const [id, currency] of [
    ['h-a', 'EUR'],
    ['h-b', 'EUR'],
    ['h-usd', 'USD'],
  ] as const)
    await openAccount(app, id, currency);
  await call('deposit', { accountId: 'h-a', amount: 1_000, requestId: 'h-fund-a' });
});
afterAll(async () => {
  await app.close();
});

const insufficient = '... on InsufficientFunds { balance amount }';
const operations = {
  deposit: { input: 'DepositInput', members: '' },
  withdraw: { input: 'WithdrawInput', members: insufficient },
  transfer: { input: 'TransferInput', members: `${insufficient} ... on CurrencyMismatch { fromCurrency toCurrency }` },
} as const;

/** One money mutation with the service key; returns the whole response. */
function call(op: keyof typeof operations, input: Record<string, unknown>, key = 'service') {
  const { input: inputType, members } = operations[op];
  return app.gql(
    `mutation($input: ${inputType}!) { ${op}(input: $input) { __typename ${members} } }`,
    { input },
    { key },
  );
}

const balance = async (id: string) =>
  (await app.gql(`{ account(id: "${id}") { balance } }`, {}, { key: 'dashboard' })).data?.account?.balance;

describe('ledger over HTTP', () => {
  it('lets only service and admin move money, and every role read', async () => {
    for (const key of ['dashboard', 'ops', 'worker']) {
      const refused = await call('withdraw', { accountId: 'h-a', amount: 1, requestId: `h-role-${key}` }, key);
      expect(refused.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    }
    const anonymous = await app.gql(
      'mutation { openAccount(input: { accountId: "h-anon", currency: "EUR" }) { __typename } }',
      {},
      { key: null },
    );
    expect(anonymous.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(await balance('h-a')).toBe(1_000);
    expect(
      (await call('withdraw', { accountId: 'h-a', amount: 1, requestId: 'h-role-admin' }, 'admin')).data.withdraw
        .__typename,
    ).toBe('WithdrawSuccess');
  });

  it.each([
    ['a zero amount', 'withdraw', { accountId: 'h-a', amount: 0, requestId: 'h-bad-1' }],
    ['a fractional amount', 'withdraw', { accountId: 'h-a', amount: 1.5, requestId: 'h-bad-2' }],
    ['an amount above 2^53-1', 'deposit', { accountId: 'h-a', amount: 2 ** 53, requestId: 'h-bad-3' }],
    ['an empty request id', 'deposit', { accountId: 'h-a', amount: 5, requestId: '' }],
    ['a request id with spaces', 'deposit', { accountId: 'h-a', amount: 5, requestId: 'a b' }],
    [
      'a transfer to the same account',
      'transfer',
      { fromAccountId: 'h-a', toAccountId: 'h-a', amount: 5, requestId: 'h-bad-4' },
    ],
  ] as const)('refuses %s as BAD_USER_INPUT and changes nothing', async (_name, op, input) => {
    const before = await balance('h-a');
    const response = await call(op, input);
    expect(response.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(await balance('h-a')).toBe(before);
  });

  it('refuses a malformed currency as BAD_USER_INPUT without opening anything', async () => {
    const response = await app.gql(
      'mutation { openAccount(input: { accountId: "h-bad-ccy", currency: "euro" }) { __typename } }',
      {},
      { key: 'service' },
    );
    expect(response.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(response.errors?.[0]?.message).toMatch(/currency must be a 3-letter/);
    expect(await app.gql('{ account(id: "h-bad-ccy") { id } }').then((r) => r.data.account)).toBeNull();
  });

  it('answers AccountNotFound and CurrencyMismatch without claiming the key', async () => {
    expect(
      (await call('deposit', { accountId: 'h-nobody', amount: 5, requestId: 'h-nf' })).data.deposit.__typename,
    ).toBe('AccountNotFound');
    const mismatch = await call('transfer', {
      fromAccountId: 'h-a',
      toAccountId: 'h-usd',
      amount: 5,
      requestId: 'h-mm',
    });
    expect(mismatch.data.transfer).toEqual({ __typename: 'CurrencyMismatch', fromCurrency: 'EUR', toCurrency: 'USD' });
    expect(
      (await call('transfer', { fromAccountId: 'h-a', toAccountId: 'h-b', amount: 5, requestId: 'h-mm' })).data.transfer
        .__typename,
    ).toBe('TransferSuccess');
  });

  it('pages entries newest first and accounts by id, with cursors', async () => {
    for (let i = 1; i <= 5; i += 1) await call('deposit', { accountId: 'h-b', amount: i, requestId: `h-page-${i}` });
    const page = (after: string | null) =>
      app.gql(
        'query($after: String) { ledgerEntries(accountId: "h-b", first: 2, after: $after) { items { amount } endCursor hasNextPage } }',
        { after },
      );
    const first = (await page(null)).data.ledgerEntries;
    expect(first.items).toEqual([{ amount: 5 }, { amount: 4 }]);
    expect(first.hasNextPage).toBe(true);
    const second = (await page(first.endCursor)).data.ledgerEntries;
    expect(second.items).toEqual([{ amount: 3 }, { amount: 2 }]);
    const accounts = await app.gql('{ accounts(first: 2) { items { id } endCursor hasNextPage } }');
    expect(accounts.data.accounts).toMatchObject({ items: [{ id: 'h-a' }, { id: 'h-b' }], hasNextPage: true });
    const rest = await app.gql(
      'query($after: String) { accounts(first: 2, after: $after) { items { id } hasNextPage } }',
      { after: accounts.data.accounts.endCursor },
    );
    expect(rest.data.accounts).toEqual({ items: [{ id: 'h-usd' }], hasNextPage: false });
    const tooMany = await app.gql('{ accounts(first: 101) { items { id } } }');
    expect(tooMany.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const entry = await app.gql('{ ledgerEntry(requestId: "h-page-3") { amount kind account { id } } }');
    expect(entry.data.ledgerEntry).toEqual({ amount: 3, kind: 'deposit', account: { id: 'h-b' } });
  });

  it('applies exactly 40 of 100 concurrent HTTP withdrawals of 10 from 400', async () => {
    await openAccount(app, 'h-race');
    await call('deposit', { accountId: 'h-race', amount: 400, requestId: 'h-race-fund' });
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        call('withdraw', { accountId: 'h-race', amount: 10, requestId: `h-race-${i}` }),
      ),
    );
    const kinds = responses.map((response) => response.data.withdraw.__typename);
    expect(kinds.filter((kind) => kind === 'WithdrawSuccess')).toHaveLength(40);
    expect(kinds.filter((kind) => kind === 'InsufficientFunds')).toHaveLength(60);
    expect(await balance('h-race')).toBe(0);
  });

  it('counts every answer in ledger_outcomes_total', async () => {
    const metricsUrl = new URL('/metrics', app.url);
    const count = async () => {
      const text = await (await fetch(metricsUrl)).text();
      return Number(/^ledger_outcomes_total\{op="withdraw",outcome="insufficientFunds"\} (\d+)$/m.exec(text)?.[1] ?? 0);
    };
    const before = await count();
    await call('withdraw', { accountId: 'h-b', amount: 1_000_000, requestId: 'h-metric' });
    expect(await count()).toBe(before + 1);
  });
});
