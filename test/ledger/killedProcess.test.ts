// @module-tag processes
import { type Document, MongoClient } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { startAppProcess, startEngineProcess, type AppProcess, type EngineProcess } from '../support/app.ts';
import { inLanes, openAccount, untilFinal } from '../support/callers.ts';

// G5 with a real crash: two API processes share one engine process; A is killed with SIGKILL in
// the middle of a burst of transfers src -> dst, B keeps serving and is never restarted. Because
// a move is one transaction, the money adds up at once, with no replay and no sweep; A's open
// transaction (if the kill caught one) holds its accounts until B's orphan sweep ends it (R3,
// within 5 s, the engine at its default 60 s lifetime limit: test/db/orphanedTransactions.test.ts
// measures it), B answers RequestInProgress on them meanwhile, and the caller's retries with the
// same keys finish.

const dbName = 'ledger_killed_process';
const transfersCount = 300;
const transferAmount = 10;
const openingMinorUnits = transfersCount * transferAmount;
/**
 * Deposits B serves to each account after the kill. With the transfers A never finished, which B
 * decides on replay (each a decision on both accounts), B decides more than 1,200 moves.
 */
const depositsPerAccount = Number(process.env['KILL_TEST_DEPOSITS'] ?? 500);
/** Transfers A is answered before it is killed; the rest of the burst is in flight or unsent. */
const answeredBeforeKill = 60;
const burstConcurrency = 16;

let engine: EngineProcess | undefined;
const apis: AppProcess[] = [];
let client: MongoClient | undefined;
afterAll(async () => {
  await client?.close();
  for (const api of apis) if (api.main.child.exitCode === null) api.main.child.kill('SIGKILL');
  await engine?.kill();
});

async function startApi(uri: string): Promise<AppProcess> {
  const api = await startAppProcess({ mongoUri: uri, dbName });
  apis.push(api);
  return api;
}

/** The data of one call with the service key; GraphQL errors throw. */
async function gql(api: AppProcess, query: string, variables: Document): Promise<Document> {
  const body = await api.gql(query, variables, { key: 'service' });
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data!;
}

const deposit =
  'mutation($id: String!, $r: String!, $a: SafeInt!) { deposit(input: { accountId: $id, amount: $a, requestId: $r }) { __typename } }';
const transfer = `mutation($r: String!) { transfer(input: { fromAccountId: "src", toAccountId: "dst", amount: ${transferAmount}, requestId: $r }) {
  __typename ... on DuplicateReplayed { original { __typename } } } }`;

describe('a process killed mid-burst (G5, real processes)', () => {
  it('leaves the money whole at once, and every key final, while the other process keeps serving', async () => {
    const t0 = Date.now();
    const phase = (name: string) =>
      process.env['KILL_TEST_TRACE'] && process.stderr.write(`[kill test] ${Date.now() - t0} ms ${name}\n`);
    // The emulator's CLI, as an operator runs the engine, at its default settings.
    engine = await startEngineProcess();
    const uri = engine.uri;
    const [a, b] = await Promise.all([startApi(uri), startApi(uri)]);
    client = new MongoClient(uri);
    const db = client.db(dbName);
    const balances = async () => {
      const docs = await db.collection('accounts').find({}).sort({ _id: 1 }).toArray();
      return Object.fromEntries(docs.map((doc) => [doc._id, Number(doc.balance)]));
    };
    const journalSum = async (accountId: string) => {
      const entries = await db.collection('ledger_entries').find({ accountId }).toArray();
      return entries.reduce(
        (sum, e) => sum + (e.kind === 'deposit' || e.kind === 'transferIn' ? 1 : -1) * Number(e.amount),
        0,
      );
    };

    phase('processes up');
    for (const id of ['src', 'dst']) await openAccount(a, id);
    await gql(a, deposit, { id: 'src', r: 'kill-fund', a: openingMinorUnits });

    // The burst through A; A is killed once `answeredBeforeKill` transfers came back.
    let answered = 0;
    let killedAt = 0;
    const burst = inLanes(transfersCount, burstConcurrency, async (i) => {
      if (killedAt) return;
      await gql(a, transfer, { r: `kill-tr-${i}` }).then(
        () => {
          answered += 1;
          if (answered === answeredBeforeKill && !killedAt) {
            killedAt = Date.now();
            a.main.child.kill('SIGKILL');
          }
        },
        () => undefined, // the connection died with A
      );
    });
    await burst;
    expect(await a.main.exited).toMatchObject({ signal: 'SIGKILL' });

    phase('A killed');
    // No replay, no sweep: the money adds up at once, each balance equals its journal.
    const atKill = await balances();
    expect(atKill['src']! + atKill['dst']!).toBe(openingMinorUnits);
    expect([await journalSum('src'), await journalSum('dst')]).toEqual([atKill['src'], atKill['dst']]);
    const appliedAtKill = await db.collection('ledger_entries').countDocuments({ kind: 'transferOut' });
    expect(await db.collection('ledger_requests').countDocuments({ status: { $ne: 'applied' } })).toBe(0);

    phase('checked at kill');
    // B serves deposits on both accounts; a caller retries transient answers with the same key.
    let transientAnswers = 0;
    let lastTransientMs = 0;
    await inLanes(2 * depositsPerAccount, 16, async (i) => {
      const id = i % 2 === 0 ? 'src' : 'dst';
      const answers = await untilFinal(
        async () => (await gql(b, deposit, { id, r: `kill-dep-${i}`, a: 1 })).deposit.__typename as string,
      );
      transientAnswers += answers.length - 1;
      expect(answers.at(-1)).toBe('DepositSuccess');
      if (answers.length > 1) lastTransientMs = Math.max(lastTransientMs, Date.now() - killedAt);
      if (i % 100 === 0) phase(`deposit ${i}: ${answers.join(',')}`);
    });

    phase('deposits done');
    // Every transfer key, replayed through B, is final: sent or not, applied once.
    const replayKinds: Record<string, number> = {};
    await inLanes(transfersCount, 16, async (i) => {
      const answers = await untilFinal(async () => {
        const result = (await gql(b, transfer, { r: `kill-tr-${i}` })).transfer;
        return result.__typename === 'DuplicateReplayed'
          ? `DuplicateReplayed(${result.original.__typename})`
          : result.__typename;
      });
      transientAnswers += answers.length - 1;
      if (answers.length > 1) lastTransientMs = Math.max(lastTransientMs, Date.now() - killedAt);
      const final = answers.at(-1)!;
      replayKinds[final] = (replayKinds[final] ?? 0) + 1;
    });
    expect(
      Object.keys(replayKinds).every(
        (kind) => kind === 'TransferSuccess' || kind === 'DuplicateReplayed(TransferSuccess)',
      ),
    ).toBe(true);

    const deposited = openingMinorUnits + 2 * depositsPerAccount;
    const end = await balances();
    expect(end).toEqual({ src: depositsPerAccount, dst: openingMinorUnits + depositsPerAccount });
    expect(end['src']! + end['dst']!).toBe(deposited);
    expect([await journalSum('src'), await journalSum('dst')]).toEqual([end['src'], end['dst']]);
    expect(await db.collection('ledger_entries').countDocuments({ kind: 'transferIn' })).toBe(transfersCount);
    const decidedByB = 2 * depositsPerAccount + transfersCount - appliedAtKill;
    expect(decidedByB).toBeGreaterThan(1_200);
    console.log(
      `killedProcess: A answered ${answered} transfers before SIGKILL, ${appliedAtKill} were applied at the kill ` +
        `(src+dst=${atKill['src']! + atKill['dst']!} of ${openingMinorUnits}); B decided ${decidedByB} moves ` +
        `(${2 * depositsPerAccount} deposits, ${transfersCount - appliedAtKill} transfers); ${transientAnswers} transient answers ` +
        `retried by the caller, the last ${lastTransientMs} ms after the kill (engine lifetime limit 60 s, orphans ended by B); ` +
        `replays ${JSON.stringify(replayKinds)}; end src+dst=${end['src']! + end['dst']!} of ${deposited}`,
    );
  }, 600_000);
});
