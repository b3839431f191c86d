// @module-tag processes
// Abuse class "one request freezes an account and the process" (issue 41, item 1), with the real
// process (`npm start`'s src/main.ts): `captureHold(input: { holdId, toAccountId: <the hold's own
// account>, requestId })` with a service key hung for good, on a pending hold and on a voided one,
// and froze every later move on the account, the hold sweeper, and SIGTERM (the sweeper's stop
// waited on the frozen turn). Now: BAD_USER_INPUT with HTTP 400 (nothing ran), the account takes
// deposits, withdrawals, transfers and holds at once afterwards, its holds still expire, and
// SIGTERM exits 0 within the shutdown grace.
// Also item 5: the other client mistakes a resolver catches (amount 0, a self-transfer,
// `expiresInSeconds: 0`, `max: 0`) answer HTTP 400, and the same over graphql-ws keeps its code.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppProcess, type AppProcess } from '../../support/app.ts';
import { testMongoUri } from '../../support/mongo.ts';
import { openRawSocket } from './rawSocket.ts';

const GRACE_MS = 3_000;
/** What a loaded machine may add to the grace before the exit is seen (timers, the exit's delivery). */
const SLACK_MS = 5_000;

const CAPTURE = `mutation ($input: CaptureHoldInput!) { captureHold(input: $input) { __typename } }`;
const AUTHORIZE = `mutation ($input: AuthorizeHoldInput!) { authorizeHold(input: $input) { __typename ... on AuthorizeHoldSuccess { hold { id } } } }`;

describe("a capture to the hold's own account", () => {
  let api: AppProcess;
  const gql = (query: string, variables: Record<string, unknown> = {}) => api.gql(query, variables, { key: 'service' });
  const authorize = async (
    requestId: string,
    accountId: string,
    amount: number,
    expiresInSeconds = 600,
  ): Promise<string> => {
    const res = await gql(AUTHORIZE, { input: { requestId, accountId, amount, expiresInSeconds } });
    expect(res.data?.authorizeHold?.__typename, JSON.stringify(res)).toBe('AuthorizeHoldSuccess');
    return res.data.authorizeHold.hold.id as string;
  };

  beforeAll(async () => {
    api = await startAppProcess({
      mongoUri: testMongoUri(),
      dbName: `test_frozen_${randomBytes(4).toString('hex')}`,
      env: { SHUTDOWN_GRACE_MS: String(GRACE_MS), RATE_LIMITS: 'off', LOG_LEVEL: 'info', NODE_ENV: 'production' },
    });
    for (const id of ['frz-a', 'frz-b']) {
      expect(
        (await gql(`mutation { openAccount(input: { accountId: "${id}", currency: "EUR" }) { __typename } }`)).data
          .openAccount.__typename,
      ).toBe('OpenAccountSuccess');
      expect(
        (
          await gql(
            `mutation { deposit(input: { accountId: "${id}", amount: 10000, requestId: "frz-fund-${id}" }) { __typename } }`,
          )
        ).data.deposit.__typename,
      ).toBe('DepositSuccess');
    }
  }, 60_000);
  afterAll(async () => {
    if (api && api.main.child.exitCode === null && api.main.child.signalCode === null) api.main.child.kill('SIGKILL');
  });

  it("is refused as the client's mistake, on a pending hold and on a voided one: BAD_USER_INPUT, HTTP 400, nothing captured", async () => {
    const pending = await authorize('frz-auth-1', 'frz-a', 500);
    const res = await gql(CAPTURE, { input: { holdId: pending, toAccountId: 'frz-a', requestId: 'frz-cap-1' } });
    expect({ status: res.status, code: res.errors?.[0]?.extensions?.code }).toEqual({
      status: 400,
      code: 'BAD_USER_INPUT',
    });
    expect(res.errors?.[0]?.message).toMatch(/toAccountId/);

    const voided = await authorize('frz-auth-2', 'frz-a', 300);
    expect(
      (await gql(`mutation { voidHold(input: { holdId: "${voided}", requestId: "frz-void-2" }) { __typename } }`)).data
        .voidHold.__typename,
    ).toBe('VoidHoldSuccess');
    const again = await gql(CAPTURE, { input: { holdId: voided, toAccountId: 'frz-a', requestId: 'frz-cap-2' } });
    expect({ status: again.status, code: again.errors?.[0]?.extensions?.code }).toEqual({
      status: 400,
      code: 'BAD_USER_INPUT',
    });

    // The hold is untouched: still pending, still held.
    const hold = await gql(`{ hold(id: "${pending}") { status } account(id: "frz-a") { balance held } }`);
    expect(hold.data).toEqual({ hold: { status: 'PENDING' }, account: { balance: 10_000, held: 500 } });
  });

  it('leaves the account working: deposits, withdrawals, transfers, holds and captures answer at once', async () => {
    const answers = await Promise.all([
      gql(`mutation { deposit(input: { accountId: "frz-a", amount: 10, requestId: "frz-d" }) { __typename } }`),
      gql(`mutation { withdraw(input: { accountId: "frz-a", amount: 10, requestId: "frz-w" }) { __typename } }`),
      gql(
        `mutation { transfer(input: { fromAccountId: "frz-a", toAccountId: "frz-b", amount: 10, requestId: "frz-t" }) { __typename } }`,
      ),
      gql(AUTHORIZE, { input: { requestId: 'frz-auth-3', accountId: 'frz-a', amount: 10, expiresInSeconds: 60 } }),
    ]);
    expect(answers.map((res) => Object.values(res.data ?? {}).map((value: any) => value.__typename)[0])).toEqual([
      'DepositSuccess',
      'WithdrawSuccess',
      'TransferSuccess',
      'AuthorizeHoldSuccess',
    ]);
    const hold = await authorize('frz-auth-4', 'frz-a', 20);
    const captured = await gql(CAPTURE, { input: { holdId: hold, toAccountId: 'frz-b', requestId: 'frz-cap-4' } });
    expect(captured.data.captureHold.__typename).toBe('CaptureHoldSuccess');
  });

  it("lets the hold sweeper expire the account's holds", async () => {
    const hold = await authorize('frz-auth-5', 'frz-a', 40, 1);
    await expect
      .poll(async () => (await gql(`{ hold(id: "${hold}") { status } }`)).data.hold.status, {
        timeout: 30_000,
        interval: 250,
      })
      .toBe('EXPIRED');
  });

  it('answers the other client mistakes a resolver catches with HTTP 400, and graphql-ws with the same code', async () => {
    const mistakes: Array<[string, string]> = [
      [
        'amount 0',
        `mutation { withdraw(input: { accountId: "frz-a", amount: 0, requestId: "frz-m1" }) { __typename } }`,
      ],
      [
        'self-transfer',
        `mutation { transfer(input: { fromAccountId: "frz-a", toAccountId: "frz-a", amount: 5, requestId: "frz-m2" }) { __typename } }`,
      ],
      [
        'expiresInSeconds 0',
        `mutation { authorizeHold(input: { accountId: "frz-a", amount: 5, expiresInSeconds: 0, requestId: "frz-m3" }) { __typename } }`,
      ],
      ['max 0', `mutation { claimWorkItems(input: { kinds: ["FRZ"], workerId: "frz-w", max: 0 }) { __typename } }`],
    ];
    const socket = await openRawSocket(api.wsUrl, api.keys.service);
    try {
      for (const [name, query] of mistakes) {
        const res = await gql(query);
        expect({ name, status: res.status, codes: res.errors?.map((error) => error.extensions?.code) }).toEqual({
          name,
          status: 400,
          codes: ['BAD_USER_INPUT'],
        });
        socket.send({ id: name, type: 'subscribe', payload: { query } });
        await expect
          .poll(() => socket.messages.find((message) => message.id === name && message.type === 'next'))
          .toBeDefined();
        const next = socket.messages.find((message) => message.id === name && message.type === 'next')!.payload as {
          errors?: Array<{ extensions?: { code?: string; http?: unknown } }>;
        };
        expect({
          name,
          codes: next.errors?.map((error) => error.extensions?.code),
          http: next.errors?.[0]?.extensions?.http,
        }).toEqual({ name, codes: ['BAD_USER_INPUT'], http: undefined });
      }
    } finally {
      await socket.close();
    }
    // Something ran: a document whose other root field ran stays 200, although the refused non-null
    // field nulls the whole `data` (so the status cannot be read off the data).
    const mixed = await gql(
      `mutation { ok: deposit(input: { accountId: "frz-b", amount: 1, requestId: "frz-mixed" }) { __typename } bad: withdraw(input: { accountId: "frz-a", amount: 0, requestId: "frz-m5" }) { __typename } }`,
    );
    expect({
      status: mixed.status,
      data: mixed.data,
      codes: mixed.errors?.map((error) => error.extensions?.code),
    }).toEqual({ status: 200, data: null, codes: ['BAD_USER_INPUT'] });
    expect((await gql(`{ ledgerRequest(requestId: "frz-mixed") { status } }`)).data.ledgerRequest).toEqual({
      status: 'APPLIED',
    });
  });

  it('exits 0 on SIGTERM within the shutdown grace', async () => {
    const startedMs = Date.now();
    api.main.child.kill('SIGTERM');
    const exit = await Promise.race([
      api.main.exited,
      new Promise((resolve) => setTimeout(() => resolve('still running'), 2 * GRACE_MS + SLACK_MS)),
    ]);
    expect({ exit, stderr: api.main.stderr().slice(-2_000) }).toMatchObject({ exit: { code: 0, signal: null } });
    console.log(`frozenAccount: SIGTERM to exit ${Date.now() - startedMs} ms (grace ${GRACE_MS} ms)`);
  }, 30_000);
});
