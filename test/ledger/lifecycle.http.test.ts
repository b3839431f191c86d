import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, match, type PreconditionClient } from '../../packages/sdk/src/index.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

// The life cycle end to end: through the SDK (keys made when left out, match over the new unions),
// GraphQL's bounds on reference and metadata (BAD_USER_INPUT), the entries' links both ways,
// ledgerEntries(reference:), Account.status and balanceAt, the roles table and the metrics.

let app: TestApp;
let service: PreconditionClient;
beforeAll(async () => {
  app = await startTestApp({ env: { SEED_DEMO: '0' } });
  service = createClient({ url: app.url, apiKey: app.keys.service });
  for (const accountId of ['lh-a', 'lh-b', 'lh-c']) await service.openAccount({ accountId, currency: 'EUR' });
  await service.deposit({ accountId: 'lh-a', amount: 1_000, requestId: 'lh-fund' });
});
afterAll(async () => {
  await app?.close();
});

describe('life cycle over HTTP', () => {
  it('carries reference and metadata, found by reference, refused past their bounds', async () => {
    const metadata = { invoice: 'INV-1', lines: [{ sku: 'a', qty: 2 }] };
    const sent = await service.transfer({
      fromAccountId: 'lh-a',
      toAccountId: 'lh-b',
      amount: 100,
      reference: 'inv-1',
      metadata,
    });
    expect(sent).toMatchObject({
      __typename: 'TransferSuccess',
      debit: { reference: 'inv-1', metadata },
      credit: { reference: 'inv-1', metadata },
    });
    const found = await service.ledgerEntries({ reference: 'inv-1' });
    expect(found.items.map((entry) => [entry.kind, entry.metadata])).toEqual(
      expect.arrayContaining([
        ['transferOut', metadata],
        ['transferIn', metadata],
      ]),
    );
    expect(found.totalCount).toBe(2);
    const deposit = 'mutation($input: DepositInput!) { deposit(input: $input) { __typename } }';
    const tooLong = await app.gql(deposit, {
      input: { accountId: 'lh-a', amount: 1, requestId: 'lh-long', reference: 'r'.repeat(129) },
    });
    expect(tooLong.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
    expect(tooLong.errors?.[0]?.message).toMatch(/reference must be at most 128/);
    const tooBig = await app.gql(deposit, {
      input: { accountId: 'lh-a', amount: 1, requestId: 'lh-big', metadata: { blob: 'x'.repeat(5_000) } },
    });
    expect(tooBig.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
    expect(tooBig.errors?.[0]?.message).toMatch(/4096 bytes/);
    const notObject = await app.gql(deposit, {
      input: { accountId: 'lh-a', amount: 1, requestId: 'lh-arr', metadata: [1, 2] },
    });
    expect(notObject.errors?.[0]?.message).toMatch(/JSON object/);
  });

  it('reverses a transfer through the SDK, linked both ways, and closes an account', async () => {
    const original = await service.transfer({
      fromAccountId: 'lh-a',
      toAccountId: 'lh-c',
      amount: 200,
      requestId: 'lh-orig',
    });
    expect(original.__typename).toBe('TransferSuccess');
    const reversed = await service.reverseMove({ originalRequestId: 'lh-orig', amount: 50 });
    const summary = match(reversed, {
      ReverseMoveSuccess: (r) =>
        `${r.amount} of ${r.originalAmount}, ${r.reversedAmount} reversed; ${r.entry.reversalOf}`,
      MoveNotFound: () => 'not found',
      NotReversible: (r) => r.detail,
      ReversalExceedsOriginal: () => 'too much',
      InsufficientFunds: () => 'short',
      AccountClosed: () => 'closed',
      DuplicateReplayed: () => 'replayed',
      IdempotencyKeyReused: () => 'reused',
      RequestInProgress: () => 'busy',
      OutcomeUnknown: () => 'unknown',
      unknown: (r) => r.__typename,
    });
    expect(summary).toBe('50 of 200, 50 reversed; lh-orig');
    const entry = await service.ledgerEntry('lh-orig');
    expect(entry).toMatchObject({ reversedAmount: 50, reversalOf: null });
    expect(await service.reverseMove({ originalRequestId: 'lh-orig', amount: 151 })).toMatchObject({
      __typename: 'ReversalExceedsOriginal',
      reversedAmount: 50,
    });

    const closed = await service.closeAccount({ accountId: 'lh-c', transferBalanceTo: 'lh-b' });
    expect(closed).toMatchObject({
      __typename: 'CloseAccountSuccess',
      movedAmount: 150,
      account: { status: 'CLOSED', balance: 0 },
      transferredTo: { id: 'lh-b' },
    });
    expect(await service.account('lh-c')).toMatchObject({ status: 'CLOSED', balance: 0 });
    expect(await service.deposit({ accountId: 'lh-c', amount: 1 })).toMatchObject({
      __typename: 'AccountClosed',
      accountId: 'lh-c',
    });
    expect(await service.reverseMove({ originalRequestId: 'lh-orig' })).toMatchObject({
      __typename: 'AccountClosed',
      accountId: 'lh-c',
    });
  });

  it('reads a past balance: Account.balanceAt, the root balanceAt and the history', async () => {
    await service.openAccount({ accountId: 'lh-at', currency: 'EUR' });
    await service.deposit({ accountId: 'lh-at', amount: 70 });
    const history = await service.balanceHistory({ accountId: 'lh-at' });
    const committedAt = history.items[0]!.at;
    expect(history.items[0]).toMatchObject({ balance: 70, version: 1 });
    const before = new Date(Date.parse(committedAt) - 1).toISOString();
    expect(await service.balanceAt({ accountId: 'lh-at', at: committedAt })).toBe(70);
    expect(await service.balanceAt({ accountId: 'lh-at', at: before })).toBe(0);
    expect(await service.balanceAt({ accountId: 'nobody', at: before })).toBeNull();
    const viaAccount = await app.gql(
      'query($id: ID!, $at: DateTime!) { account(id: $id) { status balanceAt(at: $at) } }',
      { id: 'lh-at', at: committedAt },
      { key: 'dashboard' },
    );
    expect(viaAccount.data).toEqual({ account: { status: 'OPEN', balanceAt: 70 } });
  });

  it('lets only service and admin reverse and close; counts both in the outcome metric', async () => {
    for (const role of ['dashboard', 'ops', 'worker'] as const) {
      const reverse = await app.gql(
        'mutation { reverseMove(input: { requestId: "lh-role", originalRequestId: "lh-fund" }) { __typename } }',
        {},
        { key: role },
      );
      expect(reverse.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      const close = await app.gql(
        'mutation { closeAccount(input: { requestId: "lh-role", accountId: "lh-a", transferBalanceTo: "lh-b" }) { __typename } }',
        {},
        { key: role },
      );
      expect(close.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    }
    const metrics = await (await fetch(app.url.replace(/\/graphql$/, '/metrics'))).text();
    expect(metrics).toMatch(/ledger_outcomes_total\{[^}]*op="reverseMove"[^}]*\}/);
    expect(metrics).toMatch(/ledger_outcomes_total\{[^}]*op="closeAccount"[^}]*\}/);
  });
});
