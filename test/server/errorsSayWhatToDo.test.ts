// Proves that errors say what to do: no stack trace unless asked for (LOG_LEVEL=debug); the HTTP
// status matches an auth error (401 with WWW-Authenticate, 403); an amount sent as a string is
// explained; FORBIDDEN names the roles that may; ConflictLost says which precondition failed and
// IdempotencyKeyReused which field differed (reopening an account in another currency says the
// account exists).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';

const CLAIM = `mutation ($input: ClaimWorkItemInput!) { claimWorkItem(input: $input) { __typename ... on ClaimSuccess { item { id version } } } }`;
const HEARTBEAT = `mutation ($input: HeartbeatWorkItemInput!) { heartbeatWorkItem(input: $input) { __typename ... on ConflictLost { reason detail } } }`;
const COMPLETE = `mutation ($input: CompleteWorkItemInput!) { completeWorkItem(input: $input) { __typename ... on ConflictLost { reason detail } } }`;
const REQUEUE = `mutation ($input: RequeueWorkItemInput!) { requeueWorkItem(input: $input) { __typename ... on ConflictLost { reason detail } } }`;
const REUSED = '... on IdempotencyKeyReused { requestId field detail }';

describe('errors that say what to do', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers 401 with WWW-Authenticate for a missing or unknown key and 403 naming the allowed roles', async () => {
    const response = await fetch(app.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ health { engine } }' }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    const body = (await response.json()) as { errors: Array<{ extensions: Record<string, unknown> }> };
    expect(body.errors[0]!.extensions).toEqual({ code: 'UNAUTHENTICATED' });
    expect((await app.gql('{ health { engine } }', {}, { key: 'not-a-key-of-ours-0123456789' })).status).toBe(401);

    const forbidden = await app.gql(
      'mutation { deposit(input: { accountId: "a", amount: 1, requestId: "r" }) { __typename } }',
      {},
      { key: 'worker' },
    );
    expect(forbidden.status).toBe(403);
    expect(forbidden.errors?.[0]).toMatchObject({
      message: 'Role worker may not use deposit (allowed: service, admin)',
      extensions: { code: 'FORBIDDEN', allowedRoles: ['service', 'admin'] },
    });
  });

  it('over WebSocket the same refusal carries no HTTP details', async () => {
    const result = await app
      .ws('worker')
      .execute('mutation { deposit(input: { accountId: "a", amount: 1, requestId: "r" }) { __typename } }');
    expect(result.errors?.[0]?.extensions).toEqual({ code: 'FORBIDDEN', allowedRoles: ['service', 'admin'] });
  });

  it('explains an amount sent as a string, in a variable and in the document', async () => {
    const asVariable = await app.gql('mutation ($input: DepositInput!) { deposit(input: $input) { __typename } }', {
      input: { accountId: 'a', amount: '100', requestId: 'r' },
    });
    expect(asVariable.status).toBe(400);
    expect(asVariable.errors?.[0]?.message).toContain(
      'SafeInt: amounts are integers in minor units; send 100, not "100"',
    );
    const inline = await app.gql(
      'mutation { deposit(input: { accountId: "a", amount: "100", requestId: "r" }) { __typename } }',
    );
    expect(inline.errors?.[0]?.message).toContain('SafeInt: amounts are integers in minor units; send 100, not "100"');
    const fraction = await app.gql(
      'mutation { deposit(input: { accountId: "a", amount: 1.5, requestId: "r" }) { __typename } }',
    );
    expect(fraction.errors?.[0]?.message).toContain(
      'SafeInt: amounts are integers in minor units (5.00 EUR is 500); got 1.5',
    );
  });

  it('says which field differed when a key is reused, and that a reopened account exists', async () => {
    await app.gql('mutation { openAccount(input: { accountId: "err-a", currency: "EUR" }) { __typename } }');
    const reopened = await app.gql(
      `mutation { openAccount(input: { accountId: "err-a", currency: "USD" }) { __typename ${REUSED} } }`,
    );
    expect(reopened.data.openAccount).toEqual({
      __typename: 'IdempotencyKeyReused',
      requestId: 'err-a',
      field: 'currency',
      detail:
        "account err-a already exists in EUR; an account's currency cannot change (open another accountId for USD)",
    });
    await app.gql(
      'mutation { deposit(input: { accountId: "err-a", amount: 100, requestId: "err-d1" }) { __typename } }',
    );
    const reused = await app.gql(
      `mutation { deposit(input: { accountId: "err-a", amount: 200, requestId: "err-d1" }) { __typename ${REUSED} } }`,
    );
    expect(reused.data.deposit).toMatchObject({
      __typename: 'IdempotencyKeyReused',
      field: 'amount',
      detail: expect.stringContaining('first used with amount 100, now 200'),
    });
    await app.gql('mutation { createWorkItem(input: { kind: "ERR", idempotencyKey: "err-k" }) { __typename } }');
    const item = await app.gql(
      `mutation { createWorkItem(input: { kind: "ERR", idempotencyKey: "err-k", maxAttempts: 9 }) { __typename ${REUSED} } }`,
    );
    expect(item.data.createWorkItem).toMatchObject({ __typename: 'IdempotencyKeyReused', field: 'maxAttempts' });
  });

  it('says which precondition a lost work-item write failed: version, worker or status', async () => {
    await app.gql(
      'mutation { createWorkItem(input: { kind: "ERR_CONFLICT", idempotencyKey: "err-c", maxAttempts: 1 }) { __typename } }',
    );
    const claimed = await app.gql(CLAIM, { input: { workerId: 'w-a', kinds: ['ERR_CONFLICT'] } });
    const { id, version } = claimed.data.claimWorkItem.item as { id: string; version: number };

    const stale = await app.gql(HEARTBEAT, { input: { id, workerId: 'w-a', version: version - 1 } });
    expect(stale.data.heartbeatWorkItem).toMatchObject({
      reason: 'VERSION',
      detail: expect.stringContaining(`version ${version - 1} was presented; the item is at version ${version}`),
    });
    const other = await app.gql(HEARTBEAT, { input: { id, workerId: 'w-b', version } });
    expect(other.data.heartbeatWorkItem).toMatchObject({
      reason: 'WORKER',
      detail: 'the lease is held by w-a, not w-b',
    });

    const failed = await app.gql(COMPLETE, { input: { id, workerId: 'w-a', version, outcome: 'FAILED' } });
    expect(failed.data.completeWorkItem.__typename).toBe('CompleteSuccess');
    const late = await app.gql(COMPLETE, { input: { id, workerId: 'w-a', version, outcome: 'DONE' } });
    expect(late.data.completeWorkItem).toMatchObject({
      reason: 'STATUS',
      detail: 'the item is FAILED; complete needs PROCESSING',
    });
    const requeue = await app.gql(REQUEUE, { input: { id, version } }, { key: 'ops' });
    expect(requeue.data.requeueWorkItem).toMatchObject({ reason: 'VERSION' });
  });
});

describe('stack traces only when asked for', () => {
  it.each([
    ['info', false],
    ['debug', true],
  ] as const)('LOG_LEVEL=%s in development: stacktrace in extensions %s', async (level, shown) => {
    const app = await startTestApp({ env: { NODE_ENV: 'development', LOG_LEVEL: level } });
    try {
      const res = await app.gql(
        'mutation { deposit(input: { accountId: "a", amount: 1, requestId: "r" }) { __typename } }',
        {},
        { key: 'worker' },
      );
      expect('stacktrace' in (res.errors?.[0]?.extensions ?? {})).toBe(shown);
    } finally {
      await app.close();
    }
  });
});
