import { MongoClient, type Db } from 'mongodb';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { connectTestDb, type TestDb } from '../../support/mongo.ts';
import {
  createWorkService,
  createWorkTelemetry,
  ensureWorkItemIndexes,
  type WorkService,
  type WorkServiceOptions,
} from '../../../src/work/index.ts';

/**
 * One test file's work-items database, and a factory of services each on its own MongoClient
 * (its own connection pool), so that concurrent calls really race on the server.
 */
export interface WorkHarness {
  db: TestDb;
  /** A service on the harness's own client. */
  service: WorkService;
  registry: Registry;
  /**
   * `count` services on `count` separate clients, all counting into `registry`; `wrapDb` lets a
   * meta-test build them on an altered Db (a mutant), leaving the service's code as it is.
   */
  services(count: number, options?: Partial<WorkServiceOptions>, wrapDb?: (db: Db) => Db): Promise<WorkService[]>;
  conflicts(): Promise<number>;
  close(): Promise<void>;
}

/** Clients a test may open at once; far above any test's needs, but not unbounded. */
const CLIENTS_MAX = 64;

export async function openWorkHarness(tag: string, options: Partial<WorkServiceOptions> = {}): Promise<WorkHarness> {
  const db = await connectTestDb(`work_${tag}`);
  await ensureWorkItemIndexes(db.db);
  const registry = new Registry();
  const telemetry = createWorkTelemetry(registry, pino({ level: 'silent' }));
  const make = (client: MongoClient, extra: Partial<WorkServiceOptions>, wrapDb: (db: Db) => Db = (plain) => plain) =>
    createWorkService({ ...options, ...extra, db: wrapDb(client.db(db.dbName)), telemetry });
  const clients: MongoClient[] = [];
  return {
    db,
    registry,
    service: make(db.client, {}),
    async services(count, extra = {}, wrapDb) {
      if (clients.length + count > CLIENTS_MAX) throw new Error(`at most ${CLIENTS_MAX} extra clients per harness`);
      const opened = await Promise.all(
        Array.from({ length: count }, async () => {
          const client = new MongoClient(db.uri, { maxPoolSize: 2 });
          await client.connect();
          return client;
        }),
      );
      clients.push(...opened);
      return opened.map((client) => make(client, extra, wrapDb));
    },
    async conflicts() {
      const metric = registry.getSingleMetric('claim_conflict_total');
      const values = metric === undefined ? [] : (await metric.get()).values;
      return values.reduce((sum, v) => sum + v.value, 0);
    },
    async close() {
      await Promise.all(clients.map((client) => client.close()));
      await db.close();
    },
  };
}
