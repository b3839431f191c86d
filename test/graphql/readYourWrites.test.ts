// Read-your-writes. Every mutation response carries `extensions.consistencyToken`, a cluster time
// no earlier than the mutation's own writes (checked against the write's change event). A query that names it with
// `@consistentAfter(token:)` reads through one causally consistent session advanced to it: every
// read command it sends carries `readConcern.afterClusterTime` = that time under one session id,
// so a secondary answers only once it has applied the write. Without the directive nothing changes.
import { Registry } from 'prom-client';
import { ApolloServer } from '@apollo/server';
import type { CommandStartedEvent, Document } from 'mongodb';
import { Timestamp } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consistencyPlugin, decodeConsistencyToken, encodeConsistencyToken } from '../../src/graphql/consistency.ts';
import { buildServices } from '../../src/app/createApp.ts';
import { createContext, type AppContext, type ContextSource } from '../../src/app/requestContext.ts';
import { buildAppSchema } from '../../src/app/schema.ts';
import { ensureLedgerDashboardIndexes } from '../../src/ledger/dashboard.ts';
import { ensureLedgerIndexes } from '../../src/ledger/index.ts';
import { createLogger } from '../../src/observability/logger.ts';
import { ensureWorkItemIndexes } from '../../src/work/index.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { connectTestDb, testMongoEngine, type TestDb } from '../support/mongo.ts';
import { openAccount } from '../support/callers.ts';

const DEPOSIT = `mutation ($input: DepositInput!) { deposit(input: $input) { __typename ... on DepositSuccess { account { balance } } } }`;
const BALANCE = `query ($token: String!, $id: ID!) @consistentAfter(token: $token) { account(id: $id) { balance } }`;

describe('read-your-writes over HTTP', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { SEED_DEMO: '0' } });
    await openAccount(app, 'ryw');
  });
  afterAll(async () => {
    await app?.close();
  });

  it('stamps every mutation with a token no earlier than its writes, and reads after it', async () => {
    // The entry's change event tells when the deposit's write committed (its oplog time).
    const entries = app.db.collection('ledger_entries').watch([{ $match: { operationType: 'insert' } }]);
    await entries.tryNext();
    const res = (await app.gql(
      DEPOSIT,
      { input: { accountId: 'ryw', amount: 42, requestId: 'ryw-1' } },
      { key: 'service' },
    )) as Document;
    expect(res.data.deposit).toEqual({ __typename: 'DepositSuccess', account: { balance: 42 } });
    const token = res.extensions?.consistencyToken as string;
    const time = decodeConsistencyToken(token);
    expect(time).toBeInstanceOf(Timestamp);
    const written = (await entries.next()) as Document;
    await entries.close();
    expect(written['fullDocument']).toMatchObject({ requestId: 'ryw-1' });
    expect((written['clusterTime'] as Timestamp).compare(time!)).toBeLessThanOrEqual(0);

    const read = await app.gql(BALANCE, { token, id: 'ryw' }, { key: 'dashboard' });
    expect(read.errors).toBeUndefined();
    expect(read.data.account).toEqual({ balance: 42 });

    const work = (await app.gql(
      `mutation { createWorkItem(input: { kind: "ryw", idempotencyKey: "ryw-item" }) { __typename } }`,
      {},
      { key: 'service' },
    )) as Document;
    expect(typeof work.extensions?.consistencyToken).toBe('string');
    const query = (await app.gql(`{ health { engine } }`, {}, { key: 'dashboard' })) as Document;
    expect(query.extensions?.consistencyToken).toBeUndefined();
  });

  it('refuses a token that is not one of ours as BAD_USER_INPUT', async () => {
    for (const token of ['', 'bm90IGEgdG9rZW4', 'x'.repeat(100)]) {
      const read = await app.gql(BALANCE, { token, id: 'ryw' }, { key: 'dashboard' });
      expect(read.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    }
  });
});

describe('read-your-writes: the reads a consistent query sends', () => {
  let test: TestDb;
  let apollo: ApolloServer<AppContext>;
  let source: ContextSource;
  const commands: CommandStartedEvent[] = [];
  beforeAll(async () => {
    test = await connectTestDb('dashboard_ryw', { monitorCommands: true });
    await ensureLedgerIndexes(test.db);
    await ensureLedgerDashboardIndexes(test.db);
    await ensureWorkItemIndexes(test.db);
    await test.db
      .collection('accounts')
      .insertOne({ _id: 'c1' as never, currency: 'EUR', balance: 5, version: 1, openedAt: new Date() });
    const logger = createLogger({ level: 'silent' });
    source = {
      db: test.db,
      logger,
      services: buildServices({ db: test.db, engine: testMongoEngine(), logger, registry: new Registry() }),
    };
    apollo = new ApolloServer<AppContext>({ schema: await buildAppSchema(), plugins: [consistencyPlugin()] });
    await apollo.start();
    test.client.on('commandStarted', (event) => {
      if (['find', 'count', 'aggregate'].includes(event.commandName)) commands.push(event);
    });
  });
  afterAll(async () => {
    await apollo?.stop();
    await test?.close();
  });

  const run = async (query: string, variables: Record<string, unknown> = {}) => {
    const contextValue = createContext(source, { ok: true, principal: { role: 'dashboard', keyId: 'test' } }, 'http');
    commands.length = 0;
    const response = await apollo.executeOperation({ query, variables }, { contextValue });
    expect(response.body.kind === 'single' && response.body.singleResult.errors).toBeUndefined();
    return [...commands];
  };
  const READS = `account(id: "c1") { balance } ledgerEntries(first: 1) { items { id } totalCount } ledgerTotals(currency: "EUR") { moneyHeld } workItems(first: 1) { items { id } totalCount } workQueueStats { counts { count } }`;

  it('sends afterClusterTime on every read, under one session, when the query names a token', async () => {
    const time = new Timestamp({ t: 1, i: 7 });
    const sent = await run(`query ($t: String!) @consistentAfter(token: $t) { ${READS} }`, {
      t: encodeConsistencyToken(time),
    });
    expect(sent.length).toBeGreaterThanOrEqual(6);
    // ledgerTotals sums the accounts in one snapshot: a read-only transaction on a session chained
    // to the query's. Its first read carries afterClusterTime; its later reads read that snapshot.
    const transactionOf = (event: (typeof sent)[number]) =>
      event.command['txnNumber'] === undefined
        ? undefined
        : `${JSON.stringify(event.command['lsid'])}:${String(event.command['txnNumber'])}`;
    const firstOfTransaction = new Map<string, (typeof sent)[number]>();
    for (const event of sent) {
      const transaction = transactionOf(event);
      if (transaction !== undefined && !firstOfTransaction.has(transaction)) firstOfTransaction.set(transaction, event);
    }
    expect(firstOfTransaction.size, 'ledgerTotals walks its accounts in one transaction').toBe(1);
    for (const event of sent) {
      const transaction = transactionOf(event);
      const carrier = transaction === undefined ? event : firstOfTransaction.get(transaction)!;
      // At least the token's time; later reads of the session may carry a later one (causal order only moves forward).
      const after = carrier.command['readConcern']?.afterClusterTime as Timestamp | undefined;
      expect(
        after?.compare(time),
        `${event.commandName} ${JSON.stringify(event.command['filter'] ?? event.command['pipeline'] ?? {})}`,
      ).toBeGreaterThanOrEqual(0);
    }
    const outside = sent.filter((event) => transactionOf(event) === undefined);
    expect(new Set(outside.map((event) => JSON.stringify(event.command['lsid']))).size).toBe(1);
  });

  it('sends none without the directive', async () => {
    const sent = await run(`{ ${READS} }`);
    expect(sent.length).toBeGreaterThanOrEqual(6);
    for (const event of sent) expect(event.command['readConcern']?.afterClusterTime).toBeUndefined();
  });
});
