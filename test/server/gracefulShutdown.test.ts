// @module-tag processes
// Proves a graceful stop under load, with the real process (`npm start`'s src/main.ts): SIGTERM
// lands while 32 callers withdraw in a loop, each request with a fresh key. From then on new
// requests get HTTP 503, the requests in flight finish (the process logs
// "in-flight requests drained" with none left, before SHUTDOWN_GRACE_MS ran out), a live
// subscription is closed with 1001, and the process exits 0. Afterwards a fresh app replays
// every key that was sent: a key answered WithdrawSuccess was applied exactly once (the replay
// says DuplicateReplayed), a key refused with 503 was never applied (the replay applies it now),
// and the balance is exact: funding minus one amount per key.
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startAppProcess, startTestApp, type MainProcess, type TestApp } from '../support/app.ts';
import { openAccount } from '../support/callers.ts';
import { testMongoUri } from '../support/mongo.ts';
import { waitFor } from '../support/waiting.ts';

const CALLERS = 32;
const AMOUNT = 100;
const FUNDING = 100_000_000;
const ACCOUNT = 'shutdown-acct';
const WITHDRAW = `mutation ($input: WithdrawInput!) { withdraw(input: $input) { __typename } }`;

type Outcome = { key: string; answer: string };

describe('graceful shutdown under load', () => {
  let main: MainProcess | undefined;
  let app: TestApp | undefined;
  afterAll(async () => {
    if (main && main.child.exitCode === null) main.child.kill('SIGKILL');
    await app?.close();
  });

  it('refuses new requests with 503, finishes those in flight, closes subscriptions with 1001, and applies each key at most once', async () => {
    const dbName = `test_shutdown_${randomBytes(4).toString('hex')}`;
    const api = await startAppProcess({
      mongoUri: testMongoUri(),
      dbName,
      env: { SHUTDOWN_GRACE_MS: '20000', RATE_LIMITS: 'off', LOG_LEVEL: 'info' },
    });
    main = api.main;
    const { url } = api;
    const token = api.keys.admin;
    const call = (query: string, variables: Record<string, unknown>) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ query, variables }),
      });
    await openAccount(api, ACCOUNT);
    const funded = await call(
      `mutation { deposit(input: { accountId: "${ACCOUNT}", amount: ${FUNDING}, requestId: "fund" }) { __typename } }`,
      {},
    );
    expect(((await funded.json()) as any).data.deposit.__typename).toBe('DepositSuccess');

    // A live subscription, to see how shutdown closes it.
    const socket = new WebSocket(url.replace(/^http/, 'ws'), 'graphql-transport-ws');
    const closeCode = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    await new Promise((resolve) => socket.on('open', resolve));
    socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } }));
    await new Promise((resolve) => socket.once('message', resolve)); // connection_ack
    socket.send(
      JSON.stringify({
        id: '1',
        type: 'subscribe',
        payload: { query: 'subscription { workItemStatusChanged { __typename } }' },
      }),
    );

    const outcomes: Outcome[] = [];
    let stopping = false;
    const caller = async (n: number) => {
      for (let i = 0; ; i++) {
        const key = `w-${n}-${i}`;
        let answer: string;
        try {
          const res = await call(WITHDRAW, { input: { accountId: ACCOUNT, amount: AMOUNT, requestId: key } });
          answer =
            res.status === 200
              ? (((await res.json()) as any).data?.withdraw?.__typename ?? 'error')
              : `http ${res.status}`;
        } catch (error) {
          const cause = (error as { cause?: { code?: string } }).cause?.code ?? String(error);
          answer = `fetch ${cause}`;
        }
        outcomes.push({ key, answer });
        // Keep calling after SIGTERM until the process no longer accepts connections.
        if (answer.startsWith('fetch') && stopping) return;
        if (answer.startsWith('fetch') && !stopping) throw new Error(`request failed before shutdown: ${answer}`);
      }
    };
    const burst = Promise.all(Array.from({ length: CALLERS }, (_, n) => caller(n)));
    await waitFor(
      () => outcomes.filter((o) => o.answer === 'WithdrawSuccess').length >= 200,
      '200 withdrawals applied',
      60_000,
    );
    stopping = true;
    main.child.kill('SIGTERM');
    await burst;
    expect(await main.exited).toEqual({ code: 0, signal: null });

    // In flight finished within the grace; subscriptions got 1001.
    expect(main.stdout()).toMatch(/"inFlight":0,"graceMs":20000,"msg":"in-flight requests drained"/);
    expect(await closeCode).toBe(1001);
    const answers = new Set(outcomes.map((o) => o.answer));
    expect(outcomes.filter((o) => o.answer === 'http 503').length).toBeGreaterThan(0);
    // Every request was answered (applied, or 503) or failed at the connection: refused once the
    // listener closed, or reset when it was sent on a keep-alive socket the server was closing.
    const connectionFailure = (a: string) => /^fetch (ECONNREFUSED|ECONNRESET|UND_ERR_SOCKET|UND_ERR_CLOSED)$/.test(a);
    expect([...answers].filter((a) => !['WithdrawSuccess', 'http 503'].includes(a) && !connectionFailure(a))).toEqual(
      [],
    );

    // Replay every key on a fresh app on the same database.
    app = await startTestApp({ dbName, mongoUri: testMongoUri(), env: { RATE_LIMITS: 'off' } });
    const replayed = new Map<string, string>();
    for (let start = 0; start < outcomes.length; start += CALLERS) {
      await Promise.all(
        outcomes.slice(start, start + CALLERS).map(async ({ key }) => {
          const res = await app!.gql(
            WITHDRAW,
            { input: { accountId: ACCOUNT, amount: AMOUNT, requestId: key } },
            { key: 'service' },
          );
          replayed.set(key, res.data.withdraw.__typename);
        }),
      );
    }
    for (const { key, answer } of outcomes) {
      if (answer === 'WithdrawSuccess') expect(replayed.get(key), key).toBe('DuplicateReplayed');
      // Refused, or cut before the server read it (none was left in flight): never applied.
      if (answer === 'http 503' || connectionFailure(answer)) expect(replayed.get(key), key).toBe('WithdrawSuccess');
    }
    expect([...new Set(replayed.values())].sort()).toEqual(expect.arrayContaining(['DuplicateReplayed']));
    expect([...replayed.values()].every((v) => v === 'DuplicateReplayed' || v === 'WithdrawSuccess')).toBe(true);
    const account = await app.gql(`{ account(id: "${ACCOUNT}") { balance } }`, {}, { key: 'service' });
    expect(account.data.account.balance).toBe(FUNDING - AMOUNT * outcomes.length);
    const entries = await app.db
      .collection('ledger_entries')
      .countDocuments({ accountId: ACCOUNT, kind: 'withdrawal' });
    expect(entries).toBe(outcomes.length);
  }, 240_000);
});
