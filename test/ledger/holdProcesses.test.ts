// @module-tag processes
import { type Document, MongoClient } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { startAppProcess, startEngineProcess, type AppProcess, type EngineProcess } from '../support/app.ts';
import { inLanes, openAccount, untilFinal } from '../support/callers.ts';

// Holds across real API processes (H2), and a process killed with SIGKILL in the middle of a burst
// of captures: every hold is then either captured whole (hold CAPTURED, its request and its
// withdrawal entry, the account's balance and held moved together) or still pending with nothing
// of its capture written, and replaying the captures through the other process finishes them once.
// The engine keeps its default transactionLifetimeLimitSeconds (60): an open transaction the kill
// left behind is ended by the surviving process's orphan sweep (R3), as in production.

const dbName = 'ledger_hold_processes';
const holdsCount = 24;
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

const deposit =
  'mutation($r: String!, $a: SafeInt!) { deposit(input: { accountId: "hp", amount: $a, requestId: $r }) { __typename } }';
const authorize = `mutation($r: String!, $a: SafeInt!) { authorizeHold(input: { requestId: $r, accountId: "hp", amount: $a, expiresInSeconds: 600 }) {
  __typename ... on AuthorizeHoldSuccess { hold { id } } } }`;
const capture = `mutation($r: String!, $h: String!, $a: SafeInt) { captureHold(input: { requestId: $r, holdId: $h, amount: $a }) {
  __typename ... on HoldNotPending { status } ... on DuplicateReplayed { original { __typename } } } }`;
const voidHold = `mutation($r: String!, $h: String!) { voidHold(input: { requestId: $r, holdId: $h }) { __typename ... on HoldNotPending { status } } }`;
const holdQuery = 'query($id: ID!) { hold(id: $id) { status capturedAmount } }';

async function authorizeHold(api: AppProcess, requestId: string, amount: number): Promise<string> {
  const result = (await gql(api, authorize, { r: requestId, a: amount })).authorizeHold;
  if (result.__typename !== 'AuthorizeHoldSuccess') throw new Error(`setup: ${requestId}: ${result.__typename}`);
  return result.hold.id as string;
}

describe('holds across API processes', () => {
  it('H2 across two processes, and a SIGKILL mid-capture leaves every capture whole or its hold pending', async () => {
    engine = await startEngineProcess();
    const [a, b] = await Promise.all([
      startAppProcess({ mongoUri: engine.uri, dbName }),
      startAppProcess({ mongoUri: engine.uri, dbName }),
    ]);
    apis.push(a, b);
    client = new MongoClient(engine.uri);
    const db = client.db(dbName);
    await openAccount(a, 'hp');
    await gql(a, deposit, { r: 'hp-fund', a: 100_000 });

    // H2: 32 captures and voids of one hold, half through each process.
    const raced = await authorizeHold(a, 'hp-h2', 100);
    const answers = await Promise.all(
      Array.from({ length: 32 }, async (_, i) => {
        const api = i % 2 === 0 ? a : b;
        if (i % 4 === 1) return (await gql(api, voidHold, { r: `hp-h2-void-${i}`, h: raced })).voidHold;
        return (await gql(api, capture, { r: `hp-h2-cap-${i}`, h: raced, a: i % 4 === 0 ? 40 : null })).captureHold;
      }),
    );
    const final = (await gql(b, holdQuery, { id: raced })).hold;
    const wins = answers.filter(
      (answer) => answer.__typename === 'CaptureHoldSuccess' || answer.__typename === 'VoidHoldSuccess',
    );
    expect(wins).toHaveLength(1);
    expect(
      answers
        .filter((answer) => !wins.includes(answer))
        .every((answer) => answer.__typename === 'HoldNotPending' && answer.status === final.status),
    ).toBe(true);
    const afterRace = await db.collection('accounts').findOne({ _id: 'hp' as never });
    const balanceBefore = Number(afterRace!['balance']);

    // The burst of captures through A, killed once `answeredBeforeKill` came back.
    const holdIds: string[] = [];
    await inLanes(holdsCount, 8, async (i) => {
      holdIds[i] = await authorizeHold(a, `hp-auth-${i}`, 100);
    });
    let answered = 0;
    let killed = false;
    await inLanes(holdsCount, 8, async (i) => {
      if (killed) return;
      await gql(a, capture, { r: `hp-cap-${i}`, h: holdIds[i], a: 60 }).then(
        () => {
          answered += 1;
          if (answered === answeredBeforeKill && !killed) {
            killed = true;
            a.main.child.kill('SIGKILL');
          }
        },
        () => undefined, // the connection died with A
      );
    });
    expect(await a.main.exited).toMatchObject({ signal: 'SIGKILL' });

    // Whole or nothing, at once: a CAPTURED hold has its request and its withdrawal entry; a
    // PENDING one has neither; balance and held moved exactly by the captured holds.
    const holds = await db
      .collection('ledger_holds')
      .find({ _id: { $in: holdIds as never[] } })
      .toArray();
    const capturedAtKill = holds.filter((hold) => hold['status'] === 'CAPTURED').length;
    for (const [i, id] of holdIds.entries()) {
      const hold = holds.find((doc) => doc._id === (id as never))!;
      const request = await db.collection('ledger_requests').countDocuments({ _id: `ledger:hp-cap-${i}` as never });
      const entry = await db
        .collection('ledger_entries')
        .countDocuments({ _id: `ledger:hp-cap-${i}:debit` as never, kind: 'withdrawal' });
      expect([hold['status'], request, entry]).toEqual(
        hold['status'] === 'CAPTURED' ? ['CAPTURED', 1, 1] : ['PENDING', 0, 0],
      );
    }
    const atKill = await db.collection('accounts').findOne({ _id: 'hp' as never });
    expect(Number(atKill!['balance'])).toBe(balanceBefore - 60 * capturedAtKill);
    expect(Number(atKill!['held'])).toBe(100 * (holdsCount - capturedAtKill));

    // The same keys through B: each capture is final and applied once.
    const kinds: Record<string, number> = {};
    await inLanes(holdsCount, 8, async (i) => {
      const answers = await untilFinal(async () => {
        const result = (await gql(b, capture, { r: `hp-cap-${i}`, h: holdIds[i], a: 60 })).captureHold;
        return result.__typename === 'DuplicateReplayed'
          ? `DuplicateReplayed(${result.original.__typename})`
          : result.__typename;
      });
      kinds[answers.at(-1)!] = (kinds[answers.at(-1)!] ?? 0) + 1;
    });
    expect(
      Object.keys(kinds).every(
        (kind) => kind === 'CaptureHoldSuccess' || kind === 'DuplicateReplayed(CaptureHoldSuccess)',
      ),
    ).toBe(true);
    const end = await db.collection('accounts').findOne({ _id: 'hp' as never });
    expect([Number(end!['balance']), Number(end!['held'])]).toEqual([balanceBefore - 60 * holdsCount, 0]);
    expect(await db.collection('ledger_entries').countDocuments({ requestId: { $regex: /^hp-cap-/ } })).toBe(
      holdsCount,
    );
    console.log(
      `holdProcesses: H2 across two processes won by ${wins[0]!.__typename}; A answered ${answered} captures before SIGKILL, ${capturedAtKill} of ${holdsCount} were captured at the kill; replays through B: ${JSON.stringify(kinds)}`,
    );
  }, 90_000);
});
