// @module-tag processes
import { type Document, MongoClient } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { startAppProcess, startEngineProcess, type AppProcess, type EngineProcess } from '../support/app.ts';
import { deposit, inLanes, openAccount, untilFinal } from '../support/callers.ts';

// The life cycle across real API processes (L1 and L2 with callers on two processes), and a
// process killed with SIGKILL in the middle of a burst of reversals and closes: every reversal is
// then whole (its request, its entry, the original's reversedAmount and the account's balance
// moved together) or absent, every close whole (CLOSED, balance 0, request and both entries, the
// target credited) or absent, and the same keys through the other process finish them once. The
// engine keeps its default transactionLifetimeLimitSeconds: an orphaned transaction is ended by
// the survivor's sweep (R3), as in production.

const dbName = 'ledger_lifecycle_processes';
const burst = 24;
const answeredBeforeKill = 6;

let engine: EngineProcess | undefined;
const apis: AppProcess[] = [];
let client: MongoClient | undefined;
afterAll(async () => {
  await client?.close();
  for (const api of apis) if (api.main.child.exitCode === null) api.main.child.kill('SIGKILL');
  await engine?.kill();
});

async function gql(api: AppProcess, query: string, variables: Document): Promise<Document> {
  const body = await api.gql(query, variables, { key: 'service' });
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data!;
}

const reverse = `mutation($r: String!, $o: String!, $a: SafeInt) { reverseMove(input: { requestId: $r, originalRequestId: $o, amount: $a }) {
  __typename ... on DuplicateReplayed { original { __typename } } } }`;
const close = `mutation($r: String!, $id: String!, $to: String!) { closeAccount(input: { requestId: $r, accountId: $id, transferBalanceTo: $to }) {
  __typename ... on CloseAccountSuccess { movedAmount } ... on DuplicateReplayed { original { __typename } } } }`;
const depositQuery =
  'mutation($r: String!, $id: String!) { deposit(input: { accountId: $id, amount: 1, requestId: $r }) { __typename } }';

/** The final answer's member (a replay as `DuplicateReplayed(<original>)`), resent while transient. */
async function finalOf(api: AppProcess, query: string, variables: Document, field: string): Promise<string> {
  const answers = await untilFinal(async () => {
    const result = (await gql(api, query, variables))[field];
    return result.__typename === 'DuplicateReplayed'
      ? `DuplicateReplayed(${result.original.__typename})`
      : result.__typename;
  });
  return answers.at(-1)!;
}

function tally(kinds: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of kinds) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}

describe('the life cycle across API processes', () => {
  it('L1 and L2 across two processes, and a SIGKILL mid-reversal and mid-close leaves each whole or absent', async () => {
    engine = await startEngineProcess();
    const [a, b] = await Promise.all([
      startAppProcess({ mongoUri: engine.uri, dbName }),
      startAppProcess({ mongoUri: engine.uri, dbName }),
    ]);
    apis.push(a, b);
    client = new MongoClient(engine.uri);
    const db = client.db(dbName);

    // L1: 40 reversals of 50 of one deposit of 1,000, alternating between the processes.
    await openAccount(a, 'lp-rev');
    await deposit(a, 'lp-rev', 5_000, 'lp-rev-spare');
    await deposit(a, 'lp-rev', 1_000, 'lp-rev-orig');
    const reversals = tally(
      await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          finalOf(i % 2 === 0 ? a : b, reverse, { r: `lp-rev-${i}`, o: 'lp-rev-orig', a: 50 }, 'reverseMove'),
        ),
      ),
    );
    expect(reversals).toEqual({ ReverseMoveSuccess: 20, ReversalExceedsOriginal: 20 });
    expect(await db.collection('ledger_requests').findOne({ _id: 'ledger:lp-rev-orig' as never })).toMatchObject({
      reversedAmount: 1_000,
    });

    // L2: a close through B racing 120 deposits through both.
    await openAccount(a, 'lp-close');
    await openAccount(a, 'lp-close-to');
    await deposit(a, 'lp-close', 100, 'lp-close-fund');
    let answered = 0;
    let closing: Promise<string> | null = null;
    const deposits = tally(
      await Promise.all(
        Array.from({ length: 120 }, async (_, i) => {
          const kind = await finalOf(
            i % 2 === 0 ? a : b,
            depositQuery,
            { r: `lp-close-d${i}`, id: 'lp-close' },
            'deposit',
          );
          if (++answered === 30)
            closing = finalOf(b, close, { r: 'lp-close-it', id: 'lp-close', to: 'lp-close-to' }, 'closeAccount');
          return kind;
        }),
      ),
    );
    expect(await closing).toBe('CloseAccountSuccess');
    const closed = await db.collection('accounts').findOne({ _id: 'lp-close' as never });
    const target = await db.collection('accounts').findOne({ _id: 'lp-close-to' as never });
    expect([closed!['status'], Number(closed!['balance'])]).toEqual(['CLOSED', 0]);
    expect(Number(target!['balance'])).toBe(100 + (deposits['DepositSuccess'] ?? 0));
    expect((deposits['DepositSuccess'] ?? 0) + (deposits['AccountClosed'] ?? 0)).toBe(120);

    // The burst through A: reversals of `burst` deposits and closes of `burst` accounts,
    // interleaved, A killed once `answeredBeforeKill` came back.
    await openAccount(a, 'lp-k');
    await openAccount(a, 'lp-k-to');
    await inLanes(burst, 8, async (i) => {
      await deposit(a, 'lp-k', 100, `lp-k-dep-${i}`);
      await openAccount(a, `lp-kc-${i}`);
      await deposit(a, `lp-kc-${i}`, 10 + i, `lp-kc-fund-${i}`);
    });
    let answeredA = 0;
    let killed = false;
    await inLanes(2 * burst, 8, async (n) => {
      if (killed) return;
      const i = Math.floor(n / 2);
      const sent =
        n % 2 === 0
          ? gql(a, reverse, { r: `lp-k-rev-${i}`, o: `lp-k-dep-${i}`, a: 60 })
          : gql(a, close, { r: `lp-kc-close-${i}`, id: `lp-kc-${i}`, to: 'lp-k-to' });
      await sent.then(
        () => {
          answeredA += 1;
          if (answeredA === answeredBeforeKill && !killed) {
            killed = true;
            a.main.child.kill('SIGKILL');
          }
        },
        () => undefined, // the connection died with A
      );
    });
    expect(await a.main.exited).toMatchObject({ signal: 'SIGKILL' });

    // Whole or absent, at once.
    let reversedAtKill = 0;
    let closedAtKill = 0;
    let movedAtKill = 0;
    for (let i = 0; i < burst; i += 1) {
      const request = await db.collection('ledger_requests').countDocuments({ _id: `ledger:lp-k-rev-${i}` as never });
      const entry = await db
        .collection('ledger_entries')
        .countDocuments({ requestId: `lp-k-rev-${i}`, reversalOf: `lp-k-dep-${i}` });
      const original = await db.collection('ledger_requests').findOne({ _id: `ledger:lp-k-dep-${i}` as never });
      const reversed = Number(original!['reversedAmount'] ?? 0);
      expect([request, entry, reversed]).toEqual(request === 1 ? [1, 1, 60] : [0, 0, 0]);
      reversedAtKill += request;

      const account = await db.collection('accounts').findOne({ _id: `lp-kc-${i}` as never });
      const closeRequest = await db
        .collection('ledger_requests')
        .countDocuments({ _id: `ledger:lp-kc-close-${i}` as never });
      const closeEntries = await db.collection('ledger_entries').countDocuments({ requestId: `lp-kc-close-${i}` });
      const state = [account!['status'] ?? 'OPEN', Number(account!['balance']), closeRequest, closeEntries];
      expect(state).toEqual(closeRequest === 1 ? ['CLOSED', 0, 1, 2] : ['OPEN', 10 + i, 0, 0]);
      if (closeRequest === 1) {
        closedAtKill += 1;
        movedAtKill += 10 + i;
      }
    }
    const lpk = await db.collection('accounts').findOne({ _id: 'lp-k' as never });
    expect(Number(lpk!['balance'])).toBe(100 * burst - 60 * reversedAtKill);
    expect(Number((await db.collection('accounts').findOne({ _id: 'lp-k-to' as never }))!['balance'])).toBe(
      movedAtKill,
    );

    // The same keys through B: each reversal and close final, and applied once.
    const finals = await Promise.all(
      Array.from({ length: burst }, async (_, i) => [
        await finalOf(b, reverse, { r: `lp-k-rev-${i}`, o: `lp-k-dep-${i}`, a: 60 }, 'reverseMove'),
        await finalOf(b, close, { r: `lp-kc-close-${i}`, id: `lp-kc-${i}`, to: 'lp-k-to' }, 'closeAccount'),
      ]),
    );
    const kinds = tally(finals.flat());
    expect(
      Object.keys(kinds).every((kind) =>
        /^(DuplicateReplayed\()?(ReverseMoveSuccess|CloseAccountSuccess)\)?$/.test(kind),
      ),
    ).toBe(true);
    expect(Number((await db.collection('accounts').findOne({ _id: 'lp-k' as never }))!['balance'])).toBe(
      100 * burst - 60 * burst,
    );
    const everyFund = Array.from({ length: burst }, (_, i) => 10 + i).reduce((sum, n) => sum + n, 0);
    expect(Number((await db.collection('accounts').findOne({ _id: 'lp-k-to' as never }))!['balance'])).toBe(everyFund);
    expect(await db.collection('ledger_entries').countDocuments({ requestId: { $regex: /^lp-k-rev-/ } })).toBe(burst);
    expect(await db.collection('ledger_entries').countDocuments({ requestId: { $regex: /^lp-kc-close-/ } })).toBe(
      2 * burst,
    );
    console.log(
      `lifecycleProcesses: L1 ${JSON.stringify(reversals)}, L2 ${JSON.stringify(deposits)}; A answered ${answeredA} before SIGKILL, ${reversedAtKill} reversals and ${closedAtKill} closes of ${burst} each were whole at the kill; replays through B: ${JSON.stringify(kinds)}`,
    );
  }, 150_000);
});
