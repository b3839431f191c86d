import { type CommandStartedEvent, type CommandSucceededEvent, type Document, MongoClient } from 'mongodb';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedgerService, createLedgerTelemetry, type LedgerService } from '../../src/ledger/index.ts';
import { openLedgerHarness, type LedgerHarness } from './support/harness.ts';

// What one withdrawal costs the database, seen through command monitoring: how many round trips
// it takes, that no reply ships the account's trace of recent decisions (up to 1,000 records)
// back to the API, and that concurrent withdrawals on one account neither retry nor wait.

/** Separate clients (own pools), so concurrent withdrawals really meet on the server. */
const clientCount = 4;

let h: LedgerHarness;
let clients: MongoClient[];
let services: LedgerService[];
let service: LedgerService;
const started: CommandStartedEvent[] = [];
const replies: CommandSucceededEvent[] = [];
const handshakes = new Set(['hello', 'isMaster', 'ismaster', 'ping', 'endSessions']);

beforeAll(async () => {
  h = await openLedgerHarness('writecost');
  const telemetry = createLedgerTelemetry(new Registry(), pino({ level: 'silent' }));
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

/** Every trace array anywhere in the replies (findAndModify `value`, find batches). */
function traceLengths(replyDocs: Document[]): number[] {
  const docs = replyDocs.flatMap((reply) => [reply.value, ...(reply.cursor?.firstBatch ?? [])]).filter(Boolean) as Document[];
  return docs.filter((doc) => Array.isArray(doc.trace)).map((doc) => (doc.trace as unknown[]).length);
}

describe('ledger write cost', () => {
  it('withdraws in five commands, and the account write returns only its own trace record', async () => {
    await h.fundedAccount('wc-acct', 1_000);
    for (let i = 0; i < 20; i += 1) await h.service.deposit({ accountId: 'wc-acct', amount: 1, requestId: `wc-dep-${i}` });

    const { sent, replyDocs } = await observe(() => service.withdraw({ accountId: 'wc-acct', amount: 5, requestId: 'wc-w1' }));
    expect(sent).toEqual([
      'find accounts', // exists? currency, version at claim
      'insert ledger_requests', // the claim
      'findAndModify accounts', // the conditional debit
      'insert ledger_entries', // the journal entry
      'findAndModify ledger_requests', // the outcome
    ]);
    expect(traceLengths(replyDocs)).toEqual([1]);
  });

  it('writes the account once per withdrawal when 64 of them race on it: no retry, no wait', async () => {
    await h.fundedAccount('wc-hot', 1_000);
    const count = 64;
    const { sent } = await observe(() =>
      Promise.all(
        Array.from({ length: count }, (_, i) => services[i % clientCount]!.withdraw({ accountId: 'wc-hot', amount: 1, requestId: `wc-hot-${i}` })),
      ),
    );
    const tally = new Map<string, number>();
    for (const command of sent) tally.set(command, (tally.get(command) ?? 0) + 1);
    expect(Object.fromEntries(tally)).toEqual({
      'find accounts': count,
      'insert ledger_requests': count,
      'findAndModify accounts': count,
      'insert ledger_entries': count,
      'findAndModify ledger_requests': count,
    });
    expect(await h.db.db.collection('accounts').findOne({ _id: 'wc-hot' as never })).toMatchObject({ balance: 1_000 - count });
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
