// @module-tag failpoints
// A query or mutation sent over graphql-ws (a client may send any operation as `subscribe`) is
// treated as over HTTP: a mutation's result carries `extensions.consistencyToken` and writes its
// one info line, `@consistentAfter` is followed (its reads go out with `afterClusterTime` under one
// causal session, which ends with the operation) or refused as BAD_USER_INPUT, and the operation
// is counted in graphql_operations_total.
import { Writable } from 'node:stream';
import { Timestamp, type CommandStartedEvent, type MongoClient } from 'mongodb';
import type { FormattedExecutionResult } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeConsistencyToken, encodeConsistencyToken } from '../../src/graphql/consistency.ts';
import { createLogger } from '../../src/observability/logger.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { openAccount } from '../support/callers.ts';
import { skipIfFailPointsRefused, withFailCommand } from '../support/failPoints.ts';
import type { TestWsClient } from '../support/ws.ts';
import { useOwnEngine } from '../support/mongo.ts';

// Its fail points on an engine of its own, never waiting on another file's (test/support/mongo.ts).
useOwnEngine();

const DEPOSIT = `mutation ($input: DepositInput!) { deposit(input: $input) { __typename ... on DepositSuccess { account { balance } } } }`;
const BALANCE = `query ($token: String!, $id: ID!) @consistentAfter(token: $token) { account(id: $id) { balance } }`;

/** The first answer to an operation over the socket: a result (`next`), or the refusal (`error`). */
function answer(
  ws: TestWsClient,
  query: string,
  variables: Record<string, unknown>,
): Promise<{ next: FormattedExecutionResult<unknown, unknown> } | { error: unknown }> {
  return new Promise((resolve) => {
    ws.client.subscribe(
      { query, variables },
      { next: (next) => resolve({ next }), error: (error) => resolve({ error }), complete: () => undefined },
    );
  });
}

/** The driver's sessions not yet ended (its own set: an operation's causal session must leave it). */
function activeSessions(client: MongoClient): ReadonlySet<unknown> {
  return (client as unknown as { s: { activeSessions: Set<unknown> } }).s.activeSessions;
}

function operationsCounted(metrics: string, type: string): number {
  return Number(
    new RegExp(`^graphql_operations_total\\{type="${type}",outcome="ok",operation="other"\\} (\\d+)$`, 'm').exec(
      metrics,
    )?.[1] ?? 0,
  );
}

describe('queries and mutations over graphql-ws, as over HTTP', () => {
  let app: TestApp;
  const lines: Array<Record<string, unknown>> = [];
  const accountReads: CommandStartedEvent[] = [];
  beforeAll(async () => {
    const destination = new Writable({
      write: (chunk, _encoding, done) => (lines.push(JSON.parse(String(chunk)) as Record<string, unknown>), done()),
    });
    app = await startTestApp({
      env: { SEED_DEMO: '0' },
      logger: createLogger({ level: 'info', destination }),
      monitorCommands: true,
    });
    app.client.on('commandStarted', (event) => {
      if (event.commandName === 'find' && event.command['find'] === 'accounts') accountReads.push(event);
    });
    await openAccount(app, 'wsp');
  });
  afterAll(async () => {
    await app?.close();
  });

  it("stamps a mutation's result with its token, logs its line and counts it; a query names the token and reads after it", async () => {
    const ws = app.ws('service');
    const before = await app.registry.metrics();
    const deposited = await ws.execute(DEPOSIT, { input: { accountId: 'wsp', amount: 42, requestId: 'wsp-1' } });
    expect(deposited.errors).toBeUndefined();
    expect(deposited.data.deposit).toEqual({ __typename: 'DepositSuccess', account: { balance: 42 } });
    const token = (deposited.extensions as { consistencyToken?: string } | undefined)?.consistencyToken as string;
    const time = decodeConsistencyToken(token);
    expect(time).toBeInstanceOf(Timestamp);
    await expect
      .poll(() => lines.filter((line) => line['mutation'] === 'deposit'))
      .toEqual([
        expect.objectContaining({
          level: 30,
          msg: 'deposit: DepositSuccess',
          result: 'DepositSuccess',
          input: { accountId: 'wsp', amount: 42, requestId: 'wsp-1' },
          transport: 'ws',
          role: 'service',
          keyId: expect.any(String),
        }),
      ]);

    accountReads.length = 0;
    const read = await app.ws('ops').execute(BALANCE, { token, id: 'wsp' });
    expect(read.errors).toBeUndefined();
    expect(read.data.account).toEqual({ balance: 42 });
    expect((read.extensions as { consistencyToken?: string } | undefined)?.consistencyToken).toBeUndefined();
    // The read went out in a causal session advanced to the token's time: mongod (or a secondary) answers only once it has that write.
    expect(accountReads.length).toBeGreaterThanOrEqual(1);
    for (const event of accountReads)
      expect(
        (event.command['readConcern']?.afterClusterTime as Timestamp | undefined)?.compare(time!),
      ).toBeGreaterThanOrEqual(0);
    // And that session ended with the operation. Known by its id: the app's background tasks
    // (liveness, feeds, the audit) hold sessions of their own at any moment, more of them on a loaded machine.
    const sessionId = (lsid: unknown) =>
      ((lsid as { id?: { toString(encoding: 'hex'): string } } | undefined)?.id ?? undefined)?.toString('hex');
    const readSessions = new Set(accountReads.map((event) => sessionId(event.command['lsid'])));
    expect(readSessions.size).toBe(1);
    expect([...readSessions][0]).toMatch(/^[0-9a-f]{32}$/);
    await expect
      .poll(
        () =>
          [...activeSessions(app.client)].filter((session) =>
            readSessions.has(sessionId((session as { id?: unknown }).id)),
          ).length,
      )
      .toBe(0);

    const after = await app.registry.metrics();
    expect(operationsCounted(after, 'mutation') - operationsCounted(before, 'mutation')).toBe(1);
    expect(operationsCounted(after, 'query') - operationsCounted(before, 'query')).toBe(1);
  });

  it('sends no afterClusterTime for a query without the directive', async () => {
    accountReads.length = 0;
    const read = await app.ws('ops').execute(`{ account(id: "wsp") { balance } }`);
    expect(read.data.account).toEqual({ balance: 42 });
    expect(accountReads.length).toBeGreaterThanOrEqual(1);
    for (const event of accountReads) expect(event.command['readConcern']?.afterClusterTime).toBeUndefined();
  });

  it('refuses a token that is not one, or from the future, as BAD_USER_INPUT (no HTTP status), and the socket goes on', async () => {
    const ws = app.ws('ops');
    const future = encodeConsistencyToken(new Timestamp({ t: Math.floor(Date.now() / 1000) + 3_600, i: 1 }));
    for (const token of ['garbage', 'x'.repeat(100), future]) {
      const refused = await answer(ws, BALANCE, { token, id: 'wsp' });
      expect(refused, token).toEqual({ error: [expect.objectContaining({ extensions: { code: 'BAD_USER_INPUT' } })] });
    }
    const read = await ws.execute(`{ account(id: "wsp") { balance } }`);
    expect(read.data.account).toEqual({ balance: 42 });
  });

  it("answers a token it could not check (the deployment's ping failed) as this operation's internal error, and the socket goes on", async (context) => {
    await skipIfFailPointsRefused(context, app.client);
    const ws = app.ws('ops');
    // Ahead of what this process has seen, so the server pings the deployment to check it.
    const ahead = encodeConsistencyToken(new Timestamp({ t: Math.floor(Date.now() / 1000) + 3_600, i: 1 }));
    const failed = await withFailCommand(
      app.client,
      app.client.options.appName!,
      { times: 1 },
      { failCommands: ['ping'], errorCode: 8 },
      () => answer(ws, BALANCE, { token: ahead, id: 'wsp' }),
    );
    expect(failed).toEqual({
      error: [
        expect.objectContaining({ message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } }),
      ],
    });
    const read = await ws.execute(`{ account(id: "wsp") { balance } }`);
    expect(read.data.account).toEqual({ balance: 42 });
  });
});
