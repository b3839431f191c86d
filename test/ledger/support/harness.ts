import { MongoClient, type MongoClientOptions } from 'mongodb';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { connectTestDb, type TestDb } from '../../support/mongo.ts';
import {
  createLedgerService,
  createLedgerTelemetry,
  ensureLedgerIndexes,
  type LedgerService,
} from '../../../src/ledger/index.ts';
import { createLedgerServiceForTest, type LedgerReplacements } from '../../../src/testing/index.ts';

/**
 * One test file's ledger database, and a factory of services each on its own MongoClient (its own
 * connection pool), so that concurrent calls really race on the server.
 */
export interface LedgerHarness {
  db: TestDb;
  service: LedgerService;
  registry: Registry;
  /** `count` services on `count` separate clients; `replace` builds a mutant (src/testing). */
  services(count: number, replace?: LedgerReplacements, clientOptions?: MongoClientOptions): Promise<LedgerService[]>;
  /** Opens `accountId` and deposits `amount` into it (no deposit when 0). */
  fundedAccount(accountId: string, amount: number, currency?: string): Promise<void>;
  close(): Promise<void>;
}

/** Clients a test may open at once; far above any test's needs, but not unbounded. */
const clientsMax = 64;

export async function openLedgerHarness(tag: string): Promise<LedgerHarness> {
  const db = await connectTestDb(`ledger_${tag}`);
  await ensureLedgerIndexes(db.db);
  const registry = new Registry();
  const telemetry = createLedgerTelemetry(registry, pino({ level: 'silent' }));
  const clients: MongoClient[] = [];
  const service = createLedgerService({ db: db.db, telemetry });
  return {
    db,
    service,
    registry,
    async services(count, replace = {}, clientOptions = { maxPoolSize: 20 }) {
      if (clients.length + count > clientsMax) throw new Error(`at most ${clientsMax} extra clients per harness`);
      const opened = await Promise.all(
        Array.from({ length: count }, async () => {
          const client = new MongoClient(db.uri, clientOptions);
          await client.connect();
          return client;
        }),
      );
      clients.push(...opened);
      return opened.map((client) => createLedgerServiceForTest({ db: client.db(db.dbName), telemetry }, replace));
    },
    async fundedAccount(accountId, amount, currency = 'EUR') {
      const opened = await service.openAccount({ accountId, currency });
      if (opened.kind !== 'openAccountSuccess') throw new Error(`setup: could not open ${accountId}: ${opened.kind}`);
      if (amount === 0) return;
      const funded = await service.deposit({ accountId, amount, requestId: `fund-${accountId}` });
      if (funded.kind !== 'depositSuccess') throw new Error(`setup: could not fund ${accountId}: ${funded.kind}`);
    },
    async close() {
      await Promise.all(clients.map((client) => client.close()));
      await db.close();
    },
  };
}
