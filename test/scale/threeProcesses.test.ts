// Three API processes (src/main.ts, as `npm start` runs it) on one engine process (the emulator
// CLI), as a small deployment runs: every subscriber sees every event whichever process took the
// write, a cursor from one process resumes on another, withdrawals spread over the three keep
// G1 (no overdraft) and G3 (one effect per key) with exact balances, and the payout projection's
// lease moves to a survivor when its holder is SIGKILLed.
import { randomBytes } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEngineProcess, type EngineProcess } from '../../bench/engineProcess.ts';
import { PAYOUT_LEASE_NAME, projectionLeases } from '../../src/streams/index.ts';
import { spawnMain, type MainProcess } from '../support/spawnMain.ts';
import { createTestWsClient, type TestWsClient } from '../support/ws.ts';
import { waitFor, WORK_ITEM_STATUS, type StatusEvent } from '../streams/support/streamsTest.ts';

const START_TIMEOUT_MS = 120_000;
/** The lease lasts 15 s unless renewed (ProjectionLimits.leaseDurationMs); a survivor takes it after. */
const LEASE_MOVE_TIMEOUT_MS = 90_000;
const SERVICE_KEY = `scale-service-${randomBytes(12).toString('hex')}`;
const OPS_KEY = `scale-ops-${randomBytes(12).toString('hex')}`;

interface ApiProcess {
  main: MainProcess;
  url: string;
  wsUrl: string;
  pid: number;
}

async function gql(api: ApiProcess, query: string, variables: Record<string, unknown> = {}): Promise<any> {
  const response = await fetch(api.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${SERVICE_KEY}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: any; errors?: unknown[] };
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data;
}

const CREATE = `mutation ($input: CreateWorkItemInput!) { createWorkItem(input: $input) { __typename ... on CreateWorkItemSuccess { item { id } } } }`;
const OPEN = `mutation ($input: OpenAccountInput!) { openAccount(input: $input) { __typename } }`;
const DEPOSIT = `mutation ($input: DepositInput!) { deposit(input: $input) { __typename } }`;
const WITHDRAW = `mutation ($input: WithdrawInput!) { withdraw(input: $input) { __typename
  ... on WithdrawSuccess { entry { id } } ... on DuplicateReplayed { original { __typename ... on WithdrawSuccess { entry { id } } } } } }`;

async function createItem(api: ApiProcess, kind: string, key: string): Promise<string> {
  const data = await gql(api, CREATE, { input: { idempotencyKey: key, kind, payload: {} } });
  expect(data.createWorkItem.__typename).toBe('CreateWorkItemSuccess');
  return data.createWorkItem.item.id;
}

async function next(client: ReturnType<TestWsClient['subscribe']>, count: number): Promise<StatusEvent[]> {
  const events: StatusEvent[] = [];
  while (events.length < count) {
    const result = await client.next(30_000);
    expect(result.errors).toBeUndefined();
    events.push((result.data as { workItemStatusChanged: StatusEvent }).workItemStatusChanged);
  }
  return events;
}

/** The process's `stream_subscribers{feed="workItems"}` gauge, read from its /metrics. */
async function feedSubscribers(api: ApiProcess): Promise<number> {
  const text = await (await fetch(new URL('/metrics', api.url))).text();
  return Number(/^stream_subscribers\{feed="workItems"\} (\d+)$/m.exec(text)?.[1] ?? 0);
}

/** Subscribes on `api` and resolves once its feed counts the new subscriber (so it is live). */
async function subscribeLive(wsClient: TestWsClient, api: ApiProcess, variables: Record<string, unknown>) {
  const before = await feedSubscribers(api);
  const subscription = wsClient.subscribe(WORK_ITEM_STATUS, variables);
  await waitFor(async () => (await feedSubscribers(api)) > before, `a subscriber on ${api.url}`, 60_000);
  return subscription;
}

describe('three API processes on one engine process', () => {
  const dbName = `scale_three_${randomBytes(4).toString('hex')}`;
  let engine: EngineProcess;
  let apis: ApiProcess[] = [];
  let client: MongoClient;
  let db: Db;
  const wsClients: TestWsClient[] = [];
  const ws = (api: ApiProcess) => {
    const wsClient = createTestWsClient(api.wsUrl, { authorization: `Bearer ${OPS_KEY}` });
    wsClients.push(wsClient);
    return wsClient;
  };

  beforeAll(async () => {
    engine = await startEngineProcess();
    const env = {
      MONGODB_URI: engine.uri,
      MONGODB_DB: dbName,
      PORT: '0',
      HOST: '127.0.0.1',
      API_KEYS: `${SERVICE_KEY}=service,${OPS_KEY}=ops`,
      SEED_DEMO: '0',
    };
    apis = await Promise.all(
      [0, 1, 2].map(async () => {
        const main = spawnMain(env);
        const [, url] = await main.waitFor(/listening on (http:\S+\/graphql)/, START_TIMEOUT_MS);
        return { main, url: url!, wsUrl: url!.replace(/^http/, 'ws'), pid: main.child.pid! };
      }),
    );
    client = await MongoClient.connect(engine.uri);
    db = client.db(dbName);
  }, START_TIMEOUT_MS * 2);

  afterAll(async () => {
    await Promise.all(wsClients.map((wsClient) => wsClient.close()));
    for (const api of apis) {
      if (api.main.child.exitCode === null && api.main.child.signalCode === null) api.main.child.kill('SIGTERM');
      await api.main.exited;
    }
    await client?.close();
    await engine?.stop();
  }, 60_000);

  it('delivers every event to a subscriber on any process, whichever process took the write', async () => {
    const kind = `scale-all-${randomBytes(3).toString('hex')}`;
    const subscriptions = [];
    for (const api of apis) subscriptions.push(await subscribeLive(ws(api), api, { kinds: [kind] }));

    const ids = await Promise.all(apis.map((api, i) => createItem(api, kind, `${kind}-${i}`)));
    for (const subscription of subscriptions) {
      const events = await next(subscription, ids.length);
      expect(events.map((event) => event.itemId).sort()).toEqual([...ids].sort());
    }
  }, 120_000);

  it('resumes on one process `after:` a cursor another process gave', async () => {
    const kind = `scale-resume-${randomBytes(3).toString('hex')}`;
    const first = await subscribeLive(ws(apis[0]!), apis[0]!, { kinds: [kind] });
    await createItem(apis[0]!, kind, `${kind}-seen`);
    const [seen] = await next(first, 1);
    first.unsubscribe();

    // Written while nobody listens, on the third process; resumed on the second.
    const missed = [await createItem(apis[2]!, kind, `${kind}-m1`), await createItem(apis[2]!, kind, `${kind}-m2`)];
    const resumed = ws(apis[1]!).subscribe(WORK_ITEM_STATUS, { kinds: [kind], after: seen!.cursor });
    const events = await next(resumed, missed.length);
    expect(events.map((event) => event.itemId)).toEqual(missed);
  }, 120_000);

  it('keeps G1 and G3 with withdrawals spread over the three, each key sent to two processes at once', async () => {
    const accounts = Array.from({ length: 4 }, (_, i) => `scale-acct-${randomBytes(3).toString('hex')}-${i}`);
    const fundingMinor = 50;
    for (const accountId of accounts) {
      expect((await gql(apis[0]!, OPEN, { input: { accountId, currency: 'EUR' } })).openAccount.__typename).toBe('OpenAccountSuccess');
      expect((await gql(apis[1]!, DEPOSIT, { input: { accountId, amount: fundingMinor, requestId: `${accountId}-fund` } })).deposit.__typename).toBe('DepositSuccess');
    }
    // 30 withdrawals of 3 per account (90 asked, 50 held): most succeed, the rest must be refused.
    const amount = 3;
    const keys = accounts.flatMap((accountId) => Array.from({ length: 30 }, (_, i) => ({ accountId, requestId: `${accountId}-w${i}` })));
    const answers = await Promise.all(
      keys.flatMap((key, i) =>
        [0, 1].map(async (copy) => {
          const data = await gql(apis[(i + copy) % 3]!, WITHDRAW, { input: { ...key, amount } });
          return { ...key, outcome: data.withdraw };
        }),
      ),
    );
    const entries = await db.collection('ledger_entries').find({ accountId: { $in: accounts }, kind: 'withdrawal' }).toArray();
    // G3: at most one entry per key, and every answered success names that one entry.
    const entryByRequest = new Map<string, string>();
    for (const entry of entries) {
      const requestId = String(entry['requestId']);
      expect(keys.some((key) => key.requestId === requestId), String(entry._id)).toBe(true);
      expect(entryByRequest.has(requestId!), `two entries for ${requestId}`).toBe(false);
      entryByRequest.set(requestId!, String(entry._id));
    }
    for (const answer of answers) {
      const success = answer.outcome.__typename === 'WithdrawSuccess' ? answer.outcome : answer.outcome.original;
      if (success?.__typename === 'WithdrawSuccess') expect(success.entry.id).toBe(entryByRequest.get(answer.requestId));
    }
    // G1 and exact balances: balance = funding − amount × entries, never below zero.
    for (const accountId of accounts) {
      const account = await db.collection<{ _id: string; balance: unknown }>('accounts').findOne({ _id: accountId });
      const applied = entries.filter((entry) => entry['accountId'] === accountId).length;
      expect(Number(account?.balance)).toBe(fundingMinor - applied * amount);
      expect(Number(account?.balance)).toBeGreaterThanOrEqual(0);
      expect(applied).toBe(Math.floor(fundingMinor / amount));
    }
  }, 120_000);

  it('moves the projection lease to a survivor when its holder is SIGKILLed, and the survivor projects', async () => {
    const lease = await waitFor(async () => (await projectionLeases(db).findOne({ _id: PAYOUT_LEASE_NAME }))?.holder, 'a lease holder', 60_000);
    const holder = apis.find((api) => lease.includes(`:${api.pid}:`));
    expect(holder, lease).toBeDefined();
    holder!.main.child.kill('SIGKILL');
    await holder!.main.exited;
    const survivors = apis.filter((api) => api !== holder);
    const next = await waitFor(async () => {
      const doc = await projectionLeases(db).findOne({ _id: PAYOUT_LEASE_NAME });
      return doc && doc.holder !== lease ? doc.holder : undefined;
    }, 'the lease to move', LEASE_MOVE_TIMEOUT_MS);
    expect(survivors.some((api) => next.includes(`:${api.pid}:`)), next).toBe(true);

    // A withdrawal after the kill becomes a payout: the new holder projects.
    const accountId = `scale-after-kill-${randomBytes(3).toString('hex')}`;
    await gql(survivors[0]!, OPEN, { input: { accountId, currency: 'EUR' } });
    await gql(survivors[0]!, DEPOSIT, { input: { accountId, amount: 10, requestId: `${accountId}-fund` } });
    const withdrawn = await gql(survivors[1]!, WITHDRAW, { input: { accountId, amount: 4, requestId: `${accountId}-w` } });
    expect(withdrawn.withdraw.__typename).toBe('WithdrawSuccess');
    await waitFor(async () => (await db.collection('workItems').countDocuments({ kind: 'PAYOUT', 'payload.entryId': withdrawn.withdraw.entry.id })) === 1, 'the payout', 60_000);
  }, LEASE_MOVE_TIMEOUT_MS + 120_000);
});

