// @module-tag processes
// Three API processes (src/main.ts, as `npm start` runs it) on one engine process (the emulator
// CLI), as a small deployment runs: every subscriber sees every event whichever process took the
// write, a cursor from one process resumes on another, money moves spread over the processes keep
// G1–G6 (a fourth process is SIGKILLed in the middle of a burst for G5), atomic batches spread over
// them keep B1–B2, and the payout
// projection's lease moves to a survivor when its holder is SIGKILLed.
import { randomBytes } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYOUT_LEASE_NAME, projectionLeases } from '../../src/payouts/index.ts';
import { startAppProcess, startEngineProcess, type AppProcess, type EngineProcess } from '../support/app.ts';
import { inLanes, openAccount, untilFinal } from '../support/callers.ts';
import { createTestWsClient, type TestWsClient } from '../support/ws.ts';
import { WORK_ITEM_STATUS, type StatusEvent } from '../fanout/support/streamsTest.ts';
import { waitFor } from '../support/waiting.ts';

const START_TIMEOUT_MS = 120_000;
/** The lease lasts 15 s unless renewed (ProjectionLimits.leaseDurationMs); a survivor takes it after. */
const LEASE_MOVE_TIMEOUT_MS = 90_000;
const BALANCE_MAX = Number.MAX_SAFE_INTEGER;
type ApiProcess = AppProcess;

/** The data of one call with the service key; GraphQL errors throw. */
async function gql(api: ApiProcess, query: string, variables: Record<string, unknown> = {}): Promise<any> {
  const body = await api.gql(query, variables, { key: 'service' });
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data;
}

const CREATE = `mutation ($input: CreateWorkItemInput!) { createWorkItem(input: $input) { __typename ... on CreateWorkItemSuccess { item { id } } } }`;
const DEPOSIT = `mutation ($input: DepositInput!) { deposit(input: $input) { __typename } }`;
const WITHDRAW = `mutation ($input: WithdrawInput!) { withdraw(input: $input) { __typename
  ... on WithdrawSuccess { entry { id } } ... on DuplicateReplayed { original { __typename ... on WithdrawSuccess { entry { id } } } } } }`;
const TRANSFER = `mutation ($input: TransferInput!) { transfer(input: $input) { __typename
  ... on DuplicateReplayed { original { __typename } } } }`;
const SUBMIT = `mutation ($input: SubmitMovesInput!) { submitMoves(input: $input) { __typename
  ... on SubmitMovesSuccess { results { __typename ... on DuplicateReplayed { original { __typename } } } } } }`;
const DEPOSIT_DETAIL = `mutation ($input: DepositInput!) { deposit(input: $input) { __typename
  ... on BalanceLimitExceeded { balance } ... on DuplicateReplayed { original { __typename } } } }`;

/** A union answer as one word: `DuplicateReplayed(WithdrawSuccess)` for a replay. */
function kindOf(outcome: { __typename: string; original?: { __typename: string } }): string {
  return outcome.__typename === 'DuplicateReplayed'
    ? `DuplicateReplayed(${outcome.original!.__typename})`
    : outcome.__typename;
}

/** The final answer of one key, sent again with the same key while the answer is transient. */
async function finalAnswer(send: () => Promise<string>): Promise<string> {
  return (await untilFinal(send)).at(-1)!;
}

/** Each account's balance and the sum of its journal, read straight from the engine. */
async function balanceAndJournal(db: Db, accountId: string): Promise<{ balance: number; journal: number }> {
  const account = await db.collection<{ _id: string; balance: unknown }>('accounts').findOne({ _id: accountId });
  const entries = await db.collection('ledger_entries').find({ accountId }).toArray();
  const journal = entries.reduce(
    (sum, e) => sum + (e['kind'] === 'deposit' || e['kind'] === 'transferIn' ? 1 : -1) * Number(e['amount']),
    0,
  );
  return { balance: Number(account?.balance), journal };
}

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
    const wsClient = createTestWsClient(api.wsUrl, { authorization: `Bearer ${api.keys.ops}` });
    wsClients.push(wsClient);
    return wsClient;
  };

  /** One more API process on the engine, as `npm start` runs it, once it listens. */
  function startApi(): Promise<ApiProcess> {
    return startAppProcess({ mongoUri: engine.uri, dbName, startTimeoutMs: START_TIMEOUT_MS });
  }

  beforeAll(async () => {
    engine = await startEngineProcess();
    apis = await Promise.all([0, 1, 2].map(() => startApi()));
    client = await MongoClient.connect(engine.uri);
    db = client.db(dbName);
    // The engine keeps its default transactionLifetimeLimitSeconds (60): a killed process's open
    // transactions are ended by the survivors' orphan sweep (R3).
  }, START_TIMEOUT_MS * 2);

  afterAll(async () => {
    await Promise.all(wsClients.map((wsClient) => wsClient.close()));
    for (const api of apis) {
      await api.stop();
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
      await openAccount(apis[0]!, accountId);
      expect(
        (await gql(apis[1]!, DEPOSIT, { input: { accountId, amount: fundingMinor, requestId: `${accountId}-fund` } }))
          .deposit.__typename,
      ).toBe('DepositSuccess');
    }
    // 30 withdrawals of 3 per account (90 asked, 50 held): most succeed, the rest must be refused.
    const amount = 3;
    const keys = accounts.flatMap((accountId) =>
      Array.from({ length: 30 }, (_, i) => ({ accountId, requestId: `${accountId}-w${i}` })),
    );
    const answers = await Promise.all(
      keys.flatMap((key, i) =>
        [0, 1].map(async (copy) => {
          const data = await gql(apis[(i + copy) % 3]!, WITHDRAW, { input: { ...key, amount } });
          return { ...key, outcome: data.withdraw };
        }),
      ),
    );
    const entries = await db
      .collection('ledger_entries')
      .find({ accountId: { $in: accounts }, kind: 'withdrawal' })
      .toArray();
    // G3: at most one entry per key, and every answered success names that one entry.
    const entryByRequest = new Map<string, string>();
    for (const entry of entries) {
      const requestId = String(entry['requestId']);
      expect(
        keys.some((key) => key.requestId === requestId),
        String(entry._id),
      ).toBe(true);
      expect(entryByRequest.has(requestId!), `two entries for ${requestId}`).toBe(false);
      entryByRequest.set(requestId!, String(entry._id));
    }
    for (const answer of answers) {
      const success = answer.outcome.__typename === 'WithdrawSuccess' ? answer.outcome : answer.outcome.original;
      if (success?.__typename === 'WithdrawSuccess')
        expect(success.entry.id).toBe(entryByRequest.get(answer.requestId));
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

  it('keeps G2, G4 and G6 with transfers and deposits spread over the three, each key sent to two processes at once', async () => {
    const tag = randomBytes(3).toString('hex');
    const ring = Array.from({ length: 4 }, (_, i) => `scale-ring-${tag}-${i}`);
    const openingMinor = 100;
    for (const accountId of ring) {
      await openAccount(apis[0]!, accountId);
      await gql(apis[1]!, DEPOSIT, { input: { accountId, amount: openingMinor, requestId: `${accountId}-fund` } });
    }
    // G2: 80 transfers around the ring, both directions, each key to two processes at once.
    const transfers = Array.from({ length: 80 }, (_, i) => ({
      fromAccountId: ring[i % 4]!,
      toAccountId: ring[(i + (i % 2 === 0 ? 1 : 3)) % 4]!,
      amount: 1 + (i % 7),
      requestId: `scale-tr-${tag}-${i}`,
    }));
    const finals = await Promise.all(
      transfers.flatMap((input, i) =>
        [0, 1].map((copy) =>
          finalAnswer(async () => kindOf((await gql(apis[(i + copy) % 3]!, TRANSFER, { input })).transfer)),
        ),
      ),
    );
    expect(
      finals.every((kind) => kind === 'TransferSuccess' || kind === 'DuplicateReplayed(TransferSuccess)'),
      finals.join(),
    ).toBe(true);
    const totals = await Promise.all(ring.map((accountId) => balanceAndJournal(db, accountId)));
    for (const { balance, journal } of totals) expect(balance).toBe(journal);
    expect(totals.reduce((sum, t) => sum + t.balance, 0)).toBe(ring.length * openingMinor);
    expect(
      await db.collection('ledger_entries').countDocuments({ accountId: { $in: ring }, kind: 'transferOut' }),
    ).toBe(transfers.length);

    // G4: every key again, with another amount, on the third process: refused, nothing moves.
    const reused = await Promise.all(
      transfers.map(async (input, i) =>
        kindOf((await gql(apis[(i + 2) % 3]!, TRANSFER, { input: { ...input, amount: input.amount + 1 } })).transfer),
      ),
    );
    expect(new Set(reused)).toEqual(new Set(['IdempotencyKeyReused']));
    expect(await Promise.all(ring.map((accountId) => balanceAndJournal(db, accountId)))).toEqual(totals);

    // G6: an account 5 below the ceiling, credited 3 by nine keys over the three processes at
    // once: one fits, the eight others are refused with nothing applied.
    const near = `scale-near-max-${tag}`;
    await openAccount(apis[0]!, near);
    await gql(apis[0]!, DEPOSIT, { input: { accountId: near, amount: BALANCE_MAX - 5, requestId: `${near}-fund` } });
    const credits = await Promise.all(
      Array.from({ length: 9 }, (_, i) =>
        finalAnswer(async () =>
          kindOf(
            (
              await gql(apis[i % 3]!, DEPOSIT_DETAIL, {
                input: { accountId: near, amount: 3, requestId: `${near}-c${i}` },
              })
            ).deposit,
          ),
        ),
      ),
    );
    expect(credits.filter((kind) => kind === 'DepositSuccess')).toHaveLength(1);
    expect(credits.filter((kind) => kind === 'BalanceLimitExceeded')).toHaveLength(8);
    const nearTotals = await balanceAndJournal(db, near);
    expect(nearTotals).toEqual({ balance: BALANCE_MAX - 2, journal: BALANCE_MAX - 2 });
    const stored = await db.collection('accounts').findOne({ _id: near as never }, { promoteLongs: false });
    expect(stored?.['balance']?._bsontype).toBe('Long');
  }, 180_000);

  it('keeps B1 and B2 with atomic batches spread over the three, each batch sent to two processes at once', async () => {
    const tag = randomBytes(3).toString('hex');
    const ids = Array.from({ length: 6 }, (_, i) => `scale-batch-${tag}-${i}`);
    const openingMinor = 40;
    for (const accountId of ids) await openAccount(apis[0]!, accountId);
    const funding = ids.map((accountId) => ({
      kind: 'DEPOSIT',
      accountId,
      amount: openingMinor,
      requestId: `${accountId}-fund`,
    }));
    expect((await gql(apis[1]!, SUBMIT, { input: { atomic: true, moves: funding } })).submitMoves.__typename).toBe(
      'SubmitMovesSuccess',
    );
    // 30 atomic batches, each a transfer of 5 and a withdrawal of 9 from the next account: each
    // account loses 9 a round of six, so the last round runs dry and its batches fail whole. Each
    // batch goes to two processes.
    const batches = Array.from({ length: 30 }, (_, b) => [
      {
        kind: 'TRANSFER',
        accountId: ids[b % 6],
        toAccountId: ids[(b + 1) % 6],
        amount: 5,
        requestId: `scale-moves-${tag}-${b}-t`,
      },
      { kind: 'WITHDRAW', accountId: ids[(b + 1) % 6], amount: 9, requestId: `scale-moves-${tag}-${b}-w` },
    ]);
    const answers = await Promise.all(
      batches.flatMap((moves, b) =>
        [0, 1].map(async (copy) => {
          for (;;) {
            const results = (await gql(apis[(b + copy) % 3]!, SUBMIT, { input: { atomic: true, moves } })).submitMoves
              .results as Array<{ __typename: string; original?: { __typename: string } }>;
            const kinds = results.map(kindOf);
            if (!kinds.some((kind) => kind === 'RequestInProgress' || kind === 'OutcomeUnknown')) return { b, kinds };
          }
        }),
      ),
    );
    // B2: each batch whole (both moves' requests and entries) or absent, whatever either copy answered.
    let wholes = 0;
    for (let b = 0; b < batches.length; b += 1) {
      const requests = await db
        .collection('ledger_requests')
        .countDocuments({ requestId: { $in: batches[b]!.map((move) => move.requestId) } });
      const whole = requests === 2;
      expect([0, 2], `batch ${b}`).toContain(requests);
      if (whole) wholes += 1;
      // Each answer is all applied (or replays of applied moves), or all failed (a move that would
      // have stood answers LinkedMoveFailed): never a part. A failed copy wrote nothing, so the
      // other copy may still have applied the batch.
      const isApplied = (kind: string) => kind.endsWith('Success') || kind.endsWith('Success)');
      const applied = answers
        .filter((answer) => answer.b === b)
        .map(({ kinds }) => {
          const allApplied = kinds.every(isApplied);
          if (!allApplied) expect(kinds.filter(isApplied), `batch ${b}: ${kinds}`).toEqual([]);
          return allApplied;
        });
      expect(applied.some(Boolean), `batch ${b}`).toBe(whole);
    }
    expect(wholes).toBeGreaterThan(0);
    expect(wholes).toBeLessThan(batches.length);
    // B1 with G1-G3: every balance its journal, none below zero, every applied key one entry.
    for (const accountId of ids) {
      const { balance, journal } = await balanceAndJournal(db, accountId);
      expect(balance).toBe(journal);
      expect(balance).toBeGreaterThanOrEqual(0);
    }
    const entries = await db
      .collection('ledger_entries')
      .find({ requestId: new RegExp(`^scale-moves-${tag}-`) })
      .toArray();
    expect(new Set(entries.map((entry) => entry._id)).size).toBe(entries.length);
    const applied = await db
      .collection('ledger_requests')
      .countDocuments({ requestId: new RegExp(`^scale-moves-${tag}-`) });
    expect(entries.length).toBe((applied * 3) / 2); // a transfer's two entries and a withdrawal's one
  }, 120_000);

  it(
    'keeps every key final and applied at most once when a fourth process is SIGKILLed mid-burst (G5, G1, G3)',
    async () => {
      const tag = randomBytes(3).toString('hex');
      const victim = await startApi();
      const accounts = [`scale-g5-${tag}-a`, `scale-g5-${tag}-b`];
      const fundingMinor = 200;
      const amount = 5;
      for (const accountId of accounts) {
        await openAccount(apis[0]!, accountId);
        await gql(apis[1]!, DEPOSIT, { input: { accountId, amount: fundingMinor, requestId: `${accountId}-fund` } });
      }
      // 60 withdrawals per account (300 asked, 200 held), sent round-robin over all four; the
      // fourth is killed once 8 of its 30 answers came back, whatever it has in flight.
      const keys = Array.from({ length: 120 }, (_, i) => ({
        accountId: accounts[i % 2]!,
        amount,
        requestId: `scale-g5-${tag}-w${i}`,
      }));
      const targets = [...apis, victim];
      let victimAnswers = 0;
      let cut = 0;
      await inLanes(keys.length, 16, async (i) => {
        const target = targets[i % 4]!;
        if (target === victim && victim.main.child.signalCode) return;
        await gql(target, WITHDRAW, { input: keys[i] }).then(
          () => {
            if (target === victim && ++victimAnswers === 8) victim.main.child.kill('SIGKILL');
          },
          () => void cut++, // the connection died with the fourth process
        );
      });
      console.log(
        `threeProcesses G5: the fourth process answered ${victimAnswers} withdrawals, ${cut} were cut by its SIGKILL`,
      );
      if (!victim.main.child.signalCode) victim.main.child.kill('SIGKILL');
      expect(await victim.main.exited).toMatchObject({ signal: 'SIGKILL' });

      // Every key, retried by its caller on the survivors with the same key, ends final.
      const finals = new Map<string, string>();
      await inLanes(keys.length, 16, async (i) => {
        finals.set(
          keys[i]!.requestId,
          await finalAnswer(async () => kindOf((await gql(apis[i % 3]!, WITHDRAW, { input: keys[i] })).withdraw)),
        );
      });
      const entries = await db
        .collection('ledger_entries')
        .find({ accountId: { $in: accounts }, kind: 'withdrawal' })
        .toArray();
      const entryKeys = entries.map((entry) => String(entry['requestId']));
      expect(new Set(entryKeys).size).toBe(entryKeys.length); // G3: one entry per key at most
      for (const { requestId } of keys) {
        const final = finals.get(requestId)!;
        const applied = final === 'WithdrawSuccess' || final === 'DuplicateReplayed(WithdrawSuccess)';
        expect(
          applied || final === 'InsufficientFunds' || final === 'DuplicateReplayed(InsufficientFunds)',
          `${requestId}: ${final}`,
        ).toBe(true);
        expect(entryKeys.includes(requestId), `${requestId}: ${final}`).toBe(applied);
      }
      for (const accountId of accounts) {
        // G1 and G2: the balance is exactly what the journal says, 40 withdrawals of 5, never below zero.
        expect(await balanceAndJournal(db, accountId)).toEqual({ balance: 0, journal: 0 });
      }
      // G5: every key was decided, none left pending by the process that died.
      const requests = await db
        .collection('ledger_requests')
        .find({ requestId: { $in: keys.map((key) => key.requestId) } })
        .toArray();
      expect(requests).toHaveLength(keys.length);
      expect(requests.filter((request) => request['status'] !== 'applied' && request['status'] !== 'rejected')).toEqual(
        [],
      );
      // The projection lease never stays with the dead process: one of the three holds it.
      await waitFor(
        async () => {
          const holder = (await projectionLeases(db).findOne({ _id: PAYOUT_LEASE_NAME }))?.holder;
          return holder && apis.some((api) => holder.includes(`:${api.pid}:`)) ? holder : undefined;
        },
        'the lease on one of the three',
        LEASE_MOVE_TIMEOUT_MS,
      );
    },
    START_TIMEOUT_MS + LEASE_MOVE_TIMEOUT_MS + 180_000,
  );

  it(
    'moves the projection lease to a survivor when its holder is SIGKILLed, and the survivor projects',
    async () => {
      const lease = await waitFor(
        async () => (await projectionLeases(db).findOne({ _id: PAYOUT_LEASE_NAME }))?.holder,
        'a lease holder',
        60_000,
      );
      const holder = apis.find((api) => lease.includes(`:${api.pid}:`));
      expect(holder, lease).toBeDefined();
      holder!.main.child.kill('SIGKILL');
      await holder!.main.exited;
      const survivors = apis.filter((api) => api !== holder);
      const next = await waitFor(
        async () => {
          const doc = await projectionLeases(db).findOne({ _id: PAYOUT_LEASE_NAME });
          return doc && doc.holder !== lease ? doc.holder : undefined;
        },
        'the lease to move',
        LEASE_MOVE_TIMEOUT_MS,
      );
      expect(
        survivors.some((api) => next.includes(`:${api.pid}:`)),
        next,
      ).toBe(true);

      // A withdrawal after the kill becomes a payout: the new holder projects.
      const accountId = `scale-after-kill-${randomBytes(3).toString('hex')}`;
      await openAccount(survivors[0]!, accountId);
      await gql(survivors[0]!, DEPOSIT, { input: { accountId, amount: 10, requestId: `${accountId}-fund` } });
      const withdrawn = await gql(survivors[1]!, WITHDRAW, {
        input: { accountId, amount: 4, requestId: `${accountId}-w` },
      });
      expect(withdrawn.withdraw.__typename).toBe('WithdrawSuccess');
      await waitFor(
        async () =>
          (await db
            .collection('workItems')
            .countDocuments({ kind: 'PAYOUT', 'payload.entryId': withdrawn.withdraw.entry.id })) === 1,
        'the payout',
        60_000,
      );
    },
    LEASE_MOVE_TIMEOUT_MS + 120_000,
  );
});
