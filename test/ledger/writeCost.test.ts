import { type CommandStartedEvent, type CommandSucceededEvent, type Document, MongoClient } from 'mongodb';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedgerService, createLedgerTelemetry, type LedgerService } from '../../src/ledger/index.ts';
import { openLedgerHarness, type LedgerHarness } from './support/harness.ts';

// What one withdrawal costs the database, seen through command monitoring: how many round trips
// it takes (the transaction's commit included), what a group commit and a submitMoves of N cost
// (six commands whatever N), and how concurrent withdrawals on one account behave: in one process
// they are committed together (no conflict), across processes they conflict, retry and all
// finish, each retried conflict counted.

/** Separate clients (own pools), so concurrent withdrawals really meet on the server. */
const clientCount = 4;

let h: LedgerHarness;
let clients: MongoClient[];
let services: LedgerService[];
let service: LedgerService;
let registry: Registry;
const started: CommandStartedEvent[] = [];
const replies: CommandSucceededEvent[] = [];
const handshakes = new Set(['hello', 'isMaster', 'ismaster', 'ping', 'endSessions']);

beforeAll(async () => {
  h = await openLedgerHarness('writecost');
  registry = new Registry();
  const telemetry = createLedgerTelemetry(registry, pino({ level: 'silent' }));
  clients = await Promise.all(
    Array.from({ length: clientCount }, async () => {
      const client = new MongoClient(h.db.uri, { monitorCommands: true });
      await client.connect();
      client.on('commandStarted', (event) => handshakes.has(event.commandName) || started.push(event));
      client.on('commandSucceeded', (event) => handshakes.has(event.commandName) || replies.push(event));
      return client;
    }),
  );
  services = clients.map((client) => createLedgerService({ db: client.db(h.db.dbName), telemetry }));
  service = services[0]!;
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await h.close();
});

/** Runs `action` and returns the commands it sent ("name collection") and their replies. */
async function observe(action: () => Promise<unknown>): Promise<{ sent: string[]; replyDocs: Document[] }> {
  started.length = 0;
  replies.length = 0;
  await action();
  return {
    sent: started.map((event) => `${event.commandName} ${String(event.command[event.commandName])}`),
    replyDocs: replies.map((event) => event.reply as Document),
  };
}

function tally(sent: string[]): Record<string, number> {
  const counts = new Map<string, number>();
  for (const command of sent) counts.set(command, (counts.get(command) ?? 0) + 1);
  return Object.fromEntries(counts);
}

/** Committed transactions of `kind` and the moves they carried (ledger_transactions_total, ledger_transaction_moves_total). */
async function committed(kind: string): Promise<{ transactions: number; moves: number }> {
  const read = async (name: string) =>
    Number(new RegExp(`kind="${kind}"} (\\d+)`).exec(await registry.getSingleMetricAsString(name))?.[1] ?? 0);
  return { transactions: await read('ledger_transactions_total'), moves: await read('ledger_transaction_moves_total') };
}

async function conflictsRetried(): Promise<number> {
  const text = await registry.getSingleMetricAsString('ledger_transaction_retries_total');
  return Number(/reason="writeConflict"} (\d+)/.exec(text)?.[1] ?? 0);
}

describe('ledger write cost', () => {
  it('withdraws in four commands, the commit included', async () => {
    await h.fundedAccount('wc-acct', 1_000);
    for (let i = 0; i < 20; i += 1)
      await h.service.deposit({ accountId: 'wc-acct', amount: 1, requestId: `wc-dep-${i}` });

    const { sent } = await observe(() => service.withdraw({ accountId: 'wc-acct', amount: 5, requestId: 'wc-w1' }));
    expect(sent).toEqual([
      'findAndModify accounts', // the conditional debit, first: a write conflict shows at once
      'insert ledger_requests', // the request under its key, already decided
      'update ledger_entries', // the journal entry (an upsert, to stamp committedAt with $$NOW)
      'commitTransaction 1', // all of it or nothing, w: majority
    ]);
  });

  // A group: what is queued on one account when its turn comes, in one transaction.
  const groupCommands = {
    'find accounts': 1, // the group's accounts, read once in its snapshot
    'find ledger_requests': 1, // which of its keys are decided already (replays)
    'update accounts': 1, // one conditional write per account, filtered on the balance and version read
    'insert ledger_requests': 1, // every decided request
    'update ledger_entries': 1, // every journal entry (upserts, to stamp committedAt with $$NOW)
    'commitTransaction 1': 1, // all of it or nothing, w: majority
  };
  const perMove = new Map<string, number>();

  it.each([10, 100])(
    'commits %i withdrawals queued on one account in one group: six commands, no conflict',
    async (count) => {
      await h.fundedAccount(`wc-hot-${count}`, 1_000);
      const before = await conflictsRetried();
      const groupsBefore = await committed('group');
      const { sent } = await observe(() =>
        Promise.all(
          Array.from({ length: count }, (_, i) =>
            service.withdraw({ accountId: `wc-hot-${count}`, amount: 1, requestId: `wc-hot-${count}-${i}` }),
          ),
        ),
      );
      expect(tally(sent)).toEqual(groupCommands);
      expect(await conflictsRetried()).toBe(before);
      // The metrics say so too: one more group transaction, carrying `count` moves.
      expect(await committed('group')).toEqual({
        transactions: groupsBefore.transactions + 1,
        moves: groupsBefore.moves + count,
      });
      expect(await h.db.db.collection('accounts').findOne({ _id: `wc-hot-${count}` as never })).toMatchObject({
        balance: 1_000 - count,
      });
      perMove.set(`group of ${count}`, sent.length / count);
    },
  );

  it.each([1, 10, 100])(
    'submits %i withdrawals in one submitMoves: six commands, on one account or on as many',
    async (count) => {
      await h.fundedAccount(`wc-batch-${count}`, 1_000);
      await Promise.all(Array.from({ length: count }, (_, i) => h.fundedAccount(`wc-spread-${count}-${i}`, 10)));
      const oneAccount = await observe(() =>
        service.submitMoves({
          atomic: false,
          moves: Array.from({ length: count }, (_, i) => ({
            kind: 'withdraw',
            accountId: `wc-batch-${count}`,
            amount: 1,
            requestId: `wc-batch-${count}-${i}`,
          })),
        }),
      );
      expect(tally(oneAccount.sent)).toEqual(groupCommands);
      const spread = await observe(() =>
        service.submitMoves({
          atomic: true,
          moves: Array.from({ length: count }, (_, i) => ({
            kind: 'withdraw',
            accountId: `wc-spread-${count}-${i}`,
            amount: 1,
            requestId: `wc-spread-${count}-${i}`,
          })),
        }),
      );
      // However many accounts: their conditional writes go in one `update` command.
      expect(tally(spread.sent)).toEqual(groupCommands);
      perMove.set(`submitMoves of ${count}`, oneAccount.sent.length / count);
    },
  );

  it('finishes 32 withdrawals racing on one account from four processes, retrying and counting every conflict', async () => {
    await h.fundedAccount('wc-race', 1_000);
    const count = 32;
    const before = await conflictsRetried();
    let results: { kind: string }[] = [];
    const { sent } = await observe(async () => {
      results = await Promise.all(
        Array.from({ length: count }, (_, i) =>
          services[i % clientCount]!.withdraw({ accountId: 'wc-race', amount: 1, requestId: `wc-race-${i}` }),
        ),
      );
    });
    expect(results.map((result) => result.kind)).toEqual(Array(count).fill('withdrawSuccess'));
    const counts = tally(sent);
    // Each process commits what it queued in groups (a lone move alone); every account write that
    // did not commit met another process's transaction on the account, was counted, aborted and
    // run again.
    const writes = (counts['findAndModify accounts'] ?? 0) + (counts['update accounts'] ?? 0);
    const conflicts = counts['abortTransaction 1'] ?? 0;
    expect(writes).toBe(counts['commitTransaction 1']! + conflicts);
    expect(await conflictsRetried()).toBe(before + conflicts);
    console.log(
      `writeCost: ${count} withdrawals on one account from ${clientCount} processes: ${counts['commitTransaction 1']} commits, ${conflicts} write conflicts retried`,
    );
    expect(await h.db.db.collection('accounts').findOne({ _id: 'wc-race' as never })).toMatchObject({
      balance: 1_000 - count,
    });
  });

  it('costs fewer commands per move as the group grows', () => {
    // A lone withdrawal: four commands (first test). A group or batch: six, whatever its size.
    expect(Object.fromEntries(perMove)).toEqual({
      'group of 10': 0.6,
      'group of 100': 0.06,
      'submitMoves of 1': 6,
      'submitMoves of 10': 0.6,
      'submitMoves of 100': 0.06,
    });
  });

  it('answers the first caller with what a replay reads from the database', async () => {
    await h.fundedAccount('wc-same', 100);
    const first = await service.withdraw({ accountId: 'wc-same', amount: 30, requestId: 'wc-same-1' });
    const replay = await service.withdraw({ accountId: 'wc-same', amount: 30, requestId: 'wc-same-1' });
    expect(first).toMatchObject({ kind: 'withdrawSuccess', account: { balance: 70 } });
    expect(replay).toMatchObject({ kind: 'duplicateReplayed', original: first });
    expect((replay as { original: unknown }).original).toEqual(first);
  });
});
