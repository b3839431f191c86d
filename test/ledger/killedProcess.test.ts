import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type Document, MongoClient } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { inLanes, untilFinal } from '../support/callers.ts';
import { spawnMain, type MainProcess } from '../support/spawnMain.ts';

// G5 with a real crash: two API processes share one engine process; A is killed with SIGKILL in
// the middle of a burst of transfers src -> dst, B keeps serving and is never restarted. Because
// a move is one transaction, the money adds up at once, with no replay and no sweep; A's open
// transaction (if the kill caught one) holds its accounts until the engine's lifetime limit, B
// answers RequestInProgress on them meanwhile, and the caller's retries with the same keys finish.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dbName = 'ledger_killed_process';
const key = 'kill-test-service-key';
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
const lifetimeLimitSeconds = 10;

const children: ChildProcess[] = [];
let client: MongoClient | undefined;
afterAll(async () => {
  await client?.close();
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

function startEngine(): Promise<string> {
  // The emulator's CLI, as an operator runs the engine; its open transactions expire as a mongod
  // started with the same --setParameter would (see docs/ledger.md).
  const cli = 'packages/mongo-emulator/bin/mongo-emulator.mjs';
  const child = spawn(process.execPath, [cli, '--port', '0', '--setParameter', `transactionLifetimeLimitSeconds=${lifetimeLimitSeconds}`], {
    cwd: ROOT,
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += String(chunk);
      const match = /ready on (mongodb:\/\/\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.stderr!.on('data', (chunk) => (out += String(chunk)));
    child.once('exit', () => reject(new Error(`engine exited: ${out}`)));
  });
}

async function startApi(uri: string): Promise<{ main: MainProcess; url: string }> {
  const main = spawnMain({ MONGODB_URI: uri, MONGODB_DB: dbName, PORT: '0', HOST: '127.0.0.1', API_KEYS: `${key}=service`, SEED_DEMO: '0' });
  children.push(main.child);
  const [, url] = await main.waitFor(/listening on (http:\S+\/graphql)/, 60_000);
  return { main, url: url! };
}

async function gql(url: string, query: string, variables: Document): Promise<Document> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { data?: Document; errors?: unknown[] };
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data!;
}

const open = 'mutation($id: String!) { openAccount(input: { accountId: $id, currency: "EUR" }) { __typename } }';
const deposit = 'mutation($id: String!, $r: String!, $a: SafeInt!) { deposit(input: { accountId: $id, amount: $a, requestId: $r }) { __typename } }';
const transfer = `mutation($r: String!) { transfer(input: { fromAccountId: "src", toAccountId: "dst", amount: ${transferAmount}, requestId: $r }) {
  __typename ... on DuplicateReplayed { original { __typename } } } }`;


describe('a process killed mid-burst (G5, real processes)', () => {
  it('leaves the money whole at once, and every key final, while the other process keeps serving', async () => {
    const t0 = Date.now();
    const phase = (name: string) => process.env['KILL_TEST_TRACE'] && process.stderr.write(`[kill test] ${Date.now() - t0} ms ${name}\n`);
    const uri = await startEngine();
    const [a, b] = await Promise.all([startApi(uri), startApi(uri)]);
    client = new MongoClient(uri);
    const db = client.db(dbName);
    const balances = async () => {
      const docs = await db.collection('accounts').find({}).sort({ _id: 1 }).toArray();
      return Object.fromEntries(docs.map((doc) => [doc._id, Number(doc.balance)]));
    };
    const journalSum = async (accountId: string) => {
      const entries = await db.collection('ledger_entries').find({ accountId }).toArray();
      return entries.reduce((sum, e) => sum + (e.kind === 'deposit' || e.kind === 'transferIn' ? 1 : -1) * Number(e.amount), 0);
    };

    phase('processes up');
    for (const id of ['src', 'dst']) await gql(a.url, open, { id });
    await gql(a.url, deposit, { id: 'src', r: 'kill-fund', a: openingMinorUnits });

    // The burst through A; A is killed once `answeredBeforeKill` transfers came back.
    let answered = 0;
    let killedAt = 0;
    const burst = inLanes(transfersCount, burstConcurrency, async (i) => {
      if (killedAt) return;
      await gql(a.url, transfer, { r: `kill-tr-${i}` }).then(
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
      const answers = await untilFinal(async () => (await gql(b.url, deposit, { id, r: `kill-dep-${i}`, a: 1 })).deposit.__typename as string);
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
        const result = (await gql(b.url, transfer, { r: `kill-tr-${i}` })).transfer;
        return result.__typename === 'DuplicateReplayed' ? `DuplicateReplayed(${result.original.__typename})` : result.__typename;
      });
      transientAnswers += answers.length - 1;
      if (answers.length > 1) lastTransientMs = Math.max(lastTransientMs, Date.now() - killedAt);
      const final = answers.at(-1)!;
      replayKinds[final] = (replayKinds[final] ?? 0) + 1;
    });
    expect(Object.keys(replayKinds).every((kind) => kind === 'TransferSuccess' || kind === 'DuplicateReplayed(TransferSuccess)')).toBe(true);

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
        `retried by the caller, the last ${lastTransientMs} ms after the kill (engine lifetime limit ${lifetimeLimitSeconds} s); ` +
        `replays ${JSON.stringify(replayKinds)}; end src+dst=${end['src']! + end['dst']!} of ${deposited}`,
    );
  }, 600_000);
});
