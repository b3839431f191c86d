// Abuse class "a cheap request that costs the server a lot" (issue 41, item 2): one batched HTTP
// request of 10 operations, each with 30 aliases of `ledgerTotals(currency, from: "0001-...")`, was
// 300 full-ledger `$group`s charged 10 rate-limit tokens; on the embedded engine (the emulator in
// the API's own process, as `npm start` runs without MONGODB_URI) it stalled the event loop for
// seconds, and another client's `{ viewer { role } }` waited as long. Here the engine runs in this
// process too, and each operation's aliases name 3 different `from`s (30 walks in all):
// - every read of the totals is a `find` of at most DashboardLimits.totalsSliceMax documents on a
//   named index, never an aggregation over the journal (counted on the wire), and identical totals
//   in flight share one walk (30 walks for 300 aliases);
// - another client's small query is answered while the batch is still running;
// - every alias is exact, and each alias takes a rate-limit token (300, not 10).
// The event loop's longest stall is printed for the record (speed figures belong in the bench).
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startEmulator, type RunningEmulator } from '@precondition/mongo-emulator';
import { parse } from 'graphql';
import { Long, type CommandStartedEvent, type CommandSucceededEvent } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAppSchema } from '../../../src/app/schema.ts';
import { documentTokens } from '../../../src/graphql/rateLimitTokens.ts';
import { DashboardLimits } from '../../../src/ledger/limits.ts';
import { startTestApp, type TestApp } from '../../support/app.ts';

const OPERATIONS = 10;
const ALIASES = 30;
/** Different `from`s per operation: aliases with the same arguments share a walk. */
const RANGES_PER_OPERATION = 3;
/** Entries per kind: deposits take several slices, the other kinds one each. */
const ENTRIES = { deposit: 2_500, withdrawal: 300, transferOut: 200 } as const;
const ACCOUNTS = 40;
const AMOUNT = 7;

function hostileOperation(op: number): string {
  const aliases = Array.from({ length: ALIASES }, (_, i) => {
    // Instants 1 ms apart, all before any entry: RANGES_PER_OPERATION walks per operation, none shared across operations.
    const from = new Date(Date.UTC(1, 0, 1) + op * RANGES_PER_OPERATION + (i % RANGES_PER_OPERATION))
      .toISOString()
      .replace('+000001', '0001');
    return `t${i}: ledgerTotals(currency: "EUR", from: "${from}") { moneyHeld accounts deposits { count amount } withdrawals { count amount } transfers { count amount } }`;
  });
  return `query Hostile${op} { ${aliases.join(' ')} }`;
}

describe('a batch of full-ledger totals', () => {
  let emulator: RunningEmulator;
  let app: TestApp;
  const started: CommandStartedEvent[] = [];
  const succeeded: CommandSucceededEvent[] = [];

  beforeAll(async () => {
    // In this process, as the embedded engine runs in the API's: its work is this event loop's.
    emulator = await startEmulator({ port: 0, replSetName: 'rs0' });
    app = await startTestApp({ mongoUri: emulator.uri, monitorCommands: true, env: { SEED_DEMO: '0' } });
    const accounts = Array.from({ length: ACCOUNTS }, (_, i) => ({
      _id: `tc-${i}` as never,
      currency: 'EUR',
      balance: Long.fromNumber(1_000 + i),
      version: Long.fromNumber(0),
      held: Long.fromNumber(0),
      openedAt: new Date(),
    }));
    await app.db.collection('accounts').insertMany(accounts);
    let n = 0;
    const entries = Object.entries(ENTRIES).flatMap(([kind, count]) =>
      Array.from({ length: count }, () => {
        n += 1;
        return {
          _id: `tc-entry-${n}`,
          requestId: `tc-req-${n}`,
          accountId: `tc-${n % ACCOUNTS}`,
          currency: 'EUR',
          kind,
          amount: Long.fromNumber(AMOUNT),
          balanceAfter: Long.fromNumber(0),
          versionAfter: Long.fromNumber(n),
          counterpartyAccountId: null,
          // Many entries share an instant: slices must break ties on _id.
          createdAt: new Date(Date.UTC(2026, 0, 1) + Math.floor(n / 7)),
        };
      }),
    );
    await app.db.collection('ledger_entries').insertMany(entries as never[]);
    app.client.on('commandStarted', (event) => started.push(event));
    app.client.on('commandSucceeded', (event) => succeeded.push(event));
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await emulator?.stop();
  });

  it('takes one rate-limit token per ledgerTotals (and workQueueStats), aliases and fragments included', async () => {
    const schema = await buildAppSchema();
    expect(documentTokens(schema, parse(hostileOperation(0)), null, {})).toBe(ALIASES);
    const viaFragments = parse(
      'query { ...A ... on Query { b: ledgerTotals(currency: "EUR") { accounts } } } fragment A on Query { a: ledgerTotals(currency: "EUR") { accounts } c: viewer { role } }',
    );
    expect(documentTokens(schema, viaFragments, null, {})).toBe(2);
    expect(documentTokens(schema, parse('{ viewer { role } }'), null, {})).toBe(1);
    // workQueueStats (kinds x 4 bounded counts) is priced the same way.
    expect(
      documentTokens(
        schema,
        parse('{ a: workQueueStats { conflictsSinceStart } b: workQueueStats { conflictsSinceStart } }'),
        null,
        {},
      ),
    ).toBe(2);
  });

  it(`answers ${OPERATIONS} x ${ALIASES} aliases exactly, in slices of at most ${DashboardLimits.totalsSliceMax} documents, while another client is served`, async () => {
    started.length = 0;
    succeeded.length = 0;
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const startedMs = performance.now();
    let batchDone = false;
    const batch = fetch(app.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${app.keys.dashboard}` },
      body: JSON.stringify(Array.from({ length: OPERATIONS }, (_, op) => ({ query: hostileOperation(op) }))),
    }).then(async (response) => {
      batchDone = true;
      return {
        status: response.status,
        body: (await response.json()) as Array<{ data?: Record<string, any>; errors?: unknown[] }>,
      };
    });
    // Once the walks have begun, another client asks something small.
    await expect
      .poll(
        () =>
          started.filter((event) => event.commandName === 'find' && event.command['find'] === 'ledger_entries').length,
        { timeout: 30_000, interval: 5 },
      )
      .toBeGreaterThan(0);
    const isTotalsRead = (event: CommandSucceededEvent) =>
      ['find', 'aggregate'].includes(event.commandName) &&
      /\.(ledger_entries|accounts)$/.test(String((event.reply as any).cursor?.ns));
    const totalsReadsBefore = succeeded.filter(isTotalsRead).length;
    const viewer = await app.gql('{ viewer { role } }', {}, { key: 'ops' });
    const totalsReadsWhileViewerWaited = succeeded.filter(isTotalsRead).length - totalsReadsBefore;
    const viewerAnsweredWhileBatchRan = !batchDone;
    const viewerMs = performance.now() - startedMs;
    const { status, body } = await batch;
    delay.disable();
    const batchMs = performance.now() - startedMs;

    expect(viewer.data).toEqual({ viewer: { role: 'ops' } });
    expect(viewerAnsweredWhileBatchRan).toBe(true);
    expect(status).toBe(200);
    expect(body).toHaveLength(OPERATIONS);
    const expected = {
      moneyHeld: String(
        Array.from({ length: ACCOUNTS }, (_, i) => 1_000 + i).reduce((sum, balance) => sum + balance, 0),
      ),
      accounts: ACCOUNTS,
      deposits: { count: ENTRIES.deposit, amount: String(ENTRIES.deposit * AMOUNT) },
      withdrawals: { count: ENTRIES.withdrawal, amount: String(ENTRIES.withdrawal * AMOUNT) },
      transfers: { count: ENTRIES.transferOut, amount: String(ENTRIES.transferOut * AMOUNT) },
    };
    for (const answer of body) {
      expect(answer.errors).toBeUndefined();
      expect(Object.values(answer.data!)).toEqual(Array.from({ length: ALIASES }, () => expected));
    }

    // The work, counted on the wire: no aggregation over the ledger; every read a bounded slice on a named index.
    // (The app's own background loops read these collections too: only reads of the currency count.)
    const ofCurrency = (event: CommandStartedEvent) =>
      JSON.stringify(event.command['filter'] ?? event.command['pipeline'] ?? null).includes('"EUR"');
    const aggregations = started.filter(
      (event) =>
        event.commandName === 'aggregate' &&
        ['ledger_entries', 'accounts'].includes(event.command['aggregate']) &&
        ofCurrency(event),
    );
    expect(aggregations).toEqual([]);
    const totalsReads = started.filter(
      (event) =>
        event.commandName === 'find' &&
        ['ledger_entries', 'accounts'].includes(event.command['find']) &&
        ofCurrency(event),
    );
    expect(new Set(totalsReads.map((event) => event.command['hint']))).toEqual(
      new Set(['dash_currency_kind_createdAt', 'dash_currency_id']),
    );
    expect(Math.max(...totalsReads.map((event) => Number(event.command['limit'])))).toBe(
      DashboardLimits.totalsSliceMax,
    );
    const returned = succeeded
      .filter(
        (event) =>
          event.commandName === 'find' && (event.reply as any).cursor?.ns?.match(/\.(ledger_entries|accounts)$/),
      )
      .map((event) => (event.reply as any).cursor.firstBatch.length as number);
    expect(Math.max(...returned)).toBeLessThanOrEqual(DashboardLimits.totalsSliceMax);
    // 30 walks; a kind of n entries takes floor(n / slice) + 1 reads (the last one short, maybe empty), the accounts one.
    const readsOf = (n: number) => Math.floor(n / DashboardLimits.totalsSliceMax) + 1;
    const perWalk =
      readsOf(ENTRIES.deposit) + readsOf(ENTRIES.withdrawal) + readsOf(ENTRIES.transferOut) + readsOf(ACCOUNTS);
    expect(totalsReads.length).toBe(OPERATIONS * RANGES_PER_OPERATION * perWalk);
    console.log(
      `totalsCost: ${OPERATIONS}x${ALIASES} aliases over ${ENTRIES.deposit + ENTRIES.withdrawal + ENTRIES.transferOut} entries: ${totalsReads.length} slices, ` +
        `batch ${batchMs.toFixed(0)} ms, other client answered after ${viewerMs.toFixed(0)} ms (${totalsReadsWhileViewerWaited} slices meanwhile), longest event-loop stall ${(delay.max / 1e6).toFixed(0)} ms`,
    );
  }, 180_000);
});
