// @module-tag processes
import { type Document, MongoClient } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { createLedgerService, createLedgerTelemetry, type MoveInput } from '../../src/ledger/index.ts';
import { startAppProcess, startEngineProcess, type AppProcess, type EngineProcess } from '../support/app.ts';
import { inLanes, openAccount } from '../support/callers.ts';

// B2 through a real crash: API process A is killed with SIGKILL in the middle of a burst of atomic
// batches, each spreading its moves over many accounts. A batch is one transaction, so at the
// kill every batch is whole or absent, with no replay and no sweep. Then every batch is sent
// again, same keys, through another ledger (this test's own, on its own client, as a surviving
// process would): each ends whole, applied once (replayed where A's commit went through). The
// engine keeps its default transactionLifetimeLimitSeconds (60): what A left open is ended by the
// orphan sweep of API process B, which lives through the kill as a second process would (R3).

const dbName = 'ledger_killed_batch';
const accountsCount = 20;
const openingMinorUnits = 10_000;
const batchesCount = 60;
/** Moves per batch: a withdrawal of 1 from each of 10 accounts, and a transfer. */
const movesPerBatch = 11;
const answeredBeforeKill = 20;
let engine: EngineProcess | undefined;
let a: AppProcess | undefined;
let b: AppProcess | undefined;
let client: MongoClient | undefined;
afterAll(async () => {
  await client?.close();
  await a?.stop();
  await b?.stop();
  await engine?.stop();
});

/** The data of one call with the service key; GraphQL errors throw. */
async function gql(api: AppProcess, query: string, variables: Document): Promise<Document> {
  const body = await api.gql(query, variables, { key: 'service' });
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data as Document;
}

const accountId = (i: number) => `kb-${String(i % accountsCount).padStart(2, '0')}`;
const submit = `mutation($input: SubmitMovesInput!) { submitMoves(input: $input) {
  __typename ... on SubmitMovesSuccess { results { __typename ... on DuplicateReplayed { original { __typename } } } } } }`;

function batchInput(b: number): Document {
  const moves = Array.from({ length: movesPerBatch - 1 }, (_, m) => ({
    kind: 'WITHDRAW',
    accountId: accountId(b + m),
    amount: 1,
    requestId: `kb-${b}-w${m}`,
  }));
  moves.push({
    kind: 'TRANSFER',
    accountId: accountId(b),
    toAccountId: accountId(b + 10),
    amount: 7,
    requestId: `kb-${b}-t`,
  } as never);
  return { input: { atomic: true, moves } };
}

/** A batch's answers, a replay counted as its original: ['WithdrawSuccess', ...]. */
const kindsOf = (data: Document): string[] =>
  (data['submitMoves'].results as Document[]).map((r) =>
    r['__typename'] === 'DuplicateReplayed' ? r['original'].__typename : r['__typename'],
  );

describe('an atomic batch through a SIGKILL (B2, real processes)', () => {
  it('leaves every batch whole or absent at the kill, and whole once sent again', async () => {
    const t0 = Date.now();
    const phase = (name: string) =>
      process.env['KILL_TEST_TRACE'] && process.stderr.write(`[killed batch] ${Date.now() - t0} ms ${name}\n`);
    engine = await startEngineProcess();
    client = new MongoClient(engine.uri);
    [a, b] = await Promise.all([
      startAppProcess({ mongoUri: engine.uri, dbName }),
      startAppProcess({ mongoUri: engine.uri, dbName }),
    ]);
    const api = a;
    const db = client.db(dbName);
    const survivor = createLedgerService({
      db,
      telemetry: createLedgerTelemetry(new Registry(), pino({ level: 'silent' })),
    });
    phase('processes up');
    await Promise.all(Array.from({ length: accountsCount }, (_, i) => openAccount(api, accountId(i))));
    const funding = Array.from({ length: accountsCount }, (_, i) => ({
      kind: 'DEPOSIT',
      accountId: accountId(i),
      amount: openingMinorUnits,
      requestId: `kb-fund-${i}`,
    }));
    expect(kindsOf(await gql(api, submit, { input: { atomic: true, moves: funding } }))).toEqual(
      Array(accountsCount).fill('DepositSuccess'),
    );
    /** Requests written per batch, and whether every account equals its journal. */
    const requestsPerBatch = async () => {
      const docs = await db
        .collection('ledger_requests')
        .find({ requestId: /^kb-\d+-/ })
        .project({ requestId: 1 })
        .toArray();
      const counts = new Map<number, number>();
      for (const doc of docs) {
        const batch = Number(/^kb-(\d+)-/.exec(doc['requestId'])![1]);
        counts.set(batch, (counts.get(batch) ?? 0) + 1);
      }
      return counts;
    };
    const expectBalancesAreJournals = async () => {
      for (const account of await db.collection('accounts').find({}).toArray()) {
        const entries = await db.collection('ledger_entries').find({ accountId: account._id }).toArray();
        const sum = entries.reduce(
          (total, e) => total + (e['kind'] === 'deposit' || e['kind'] === 'transferIn' ? 1 : -1) * Number(e['amount']),
          0,
        );
        expect(Number(account['balance'])).toBe(sum);
      }
    };

    let answered = 0;
    let killed = false;
    await inLanes(batchesCount, 8, async (i) => {
      if (killed) return;
      await gql(api, submit, batchInput(i)).then(
        (data) => {
          expect(kindsOf(data)).toEqual([...Array(movesPerBatch - 1).fill('WithdrawSuccess'), 'TransferSuccess']);
          answered += 1;
          if (answered === answeredBeforeKill && !killed) {
            killed = true;
            api.main.child.kill('SIGKILL');
          }
        },
        () => undefined, // the connection died with A
      );
    });
    expect(await api.main.exited).toMatchObject({ signal: 'SIGKILL' });

    phase('A killed');
    // At the kill, at once: every batch whole or absent, every balance its journal.
    const atKill = await requestsPerBatch();
    for (const count of atKill.values()) expect(count).toBe(movesPerBatch);
    expect(atKill.size).toBeGreaterThanOrEqual(answeredBeforeKill);
    await expectBalancesAreJournals();

    // Every batch again through the survivor, same keys, until no move is transient.
    let replayedWhole = 0;
    let transientResends = 0;
    await inLanes(batchesCount, 8, async (i) => {
      const moves = (batchInput(i)['input'].moves as Document[]).map(
        (move) => ({ ...move, kind: String(move['kind']).toLowerCase() }) as MoveInput,
      );
      for (;;) {
        const result = await survivor.submitMoves({ atomic: true, moves });
        if (result.kind !== 'submitMovesSuccess') throw new Error(result.kind);
        if (result.results.some((move) => move.kind === 'requestInProgress' || move.kind === 'outcomeUnknown')) {
          transientResends += 1; // accounts still held by a transaction A left open, until the engine ends it
          continue;
        }
        const kinds = result.results.map((move) =>
          move.kind === 'duplicateReplayed' ? move.original.kind : move.kind,
        );
        expect(kinds).toEqual([...Array(movesPerBatch - 1).fill('withdrawSuccess'), 'transferSuccess']);
        if (result.results.every((move) => move.kind === 'duplicateReplayed')) replayedWhole += 1;
        return;
      }
    });
    phase('sent again');
    const end = await requestsPerBatch();
    expect(end.size).toBe(batchesCount);
    for (const count of end.values()) expect(count).toBe(movesPerBatch);
    expect(replayedWhole).toBe(atKill.size);
    await expectBalancesAreJournals();
    const total = (await db.collection('accounts').find({}).toArray()).reduce(
      (sum, doc) => sum + Number(doc['balance']),
      0,
    );
    expect(total).toBe(accountsCount * openingMinorUnits - batchesCount * (movesPerBatch - 1));
    console.log(
      `killedBatch: A answered ${answered} atomic batches before SIGKILL, ${atKill.size} were whole at the kill, none partial; the survivor replayed those whole and applied the other ${batchesCount - atKill.size} (${transientResends} transient answers resent)`,
    );
  }, 90_000);
});
