// Starts the real server (HTTP + WebSocket, real schema, real start-up tasks) on the run's engine,
// on a random port, with one API key per role. Feature tests use it for end-to-end calls:
//
//   const app = await startTestApp();
//   const res = await app.gql('{ health { engine } }', {}, { key: 'dashboard' });
//   await app.close();
import { randomBytes } from 'node:crypto';
import type { GraphQLSchema } from 'graphql';
import type { Db, MongoClient } from 'mongodb';
import type { Registry } from 'prom-client';
import type { AppOptions } from '../../src/app/createApp.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { connectMongo } from '../../src/db/connect.ts';
import { ROLES, type Role } from '../../src/access/roles.ts';
import { createLogger, type Logger } from '../../src/observability/logger.ts';
import { startServer, type RunningServer } from '../../src/server/startServer.ts';
import type { AppServices } from '../../src/app/services.ts';
import { testMongoEngine, testMongoUri } from './mongo.ts';
import { createTestWsClient, type TestWsClient } from './ws.ts';

/** How src/app/createApp.ts builds the app: which start-up tasks run, the projection's and audit's settings. */
export interface StartTestAppOptions extends Pick<AppOptions, 'startupTasks' | 'payoutProjection' | 'buildPayoutProjection' | 'ledgerAudit'> {
  /** Extra keys, token → role, besides the one generated per role. */
  apiKeys?: Record<string, Role>;
  /** An exact database name, e.g. to run two app instances on one database; kept on close.
   *  Without it the app gets a fresh database of its own, dropped on close. */
  dbName?: string;
  /** More environment, as main.ts would read it (e.g. limits). */
  env?: Record<string, string>;
  schema?: GraphQLSchema;
  logger?: Logger;
  /** Another engine than the run's (e.g. an emulator with a tiny oplog started by the test). */
  mongoUri?: string;
}

export interface GqlOptions {
  /** A role (its generated key is sent), a raw token, or null for no Authorization header. Default: 'admin'. */
  key?: Role | string | null;
  /** A raw Authorization header value; wins over `key`. */
  authorization?: string;
}

export interface GqlResponse<TData = any> {
  status: number;
  data?: TData | null;
  errors?: Array<{ message: string; path?: Array<string | number>; extensions?: { code?: string; [key: string]: unknown } }>;
}

export interface TestApp {
  url: string;
  wsUrl: string;
  db: Db;
  client: MongoClient;
  config: Config;
  server: RunningServer;
  /** The app's services, built once by src/app/createApp.ts (e.g. its live feeds' subscriber counts). */
  services: AppServices;
  /** The app's own metrics registry, as GET /metrics serves it. */
  registry: Registry;
  keys: Record<Role, string>;
  gql<TData = any>(query: string, variables?: Record<string, unknown>, options?: GqlOptions): Promise<GqlResponse<TData>>;
  /** A graphql-ws client authenticated with `key` (a role, a raw token, or null for none). */
  ws(key?: Role | string | null): TestWsClient;
  close(): Promise<void>;
}

export async function startTestApp(options: StartTestAppOptions = {}): Promise<TestApp> {
  const keys = Object.fromEntries(ROLES.map((role) => [role, `test-${role}-${randomBytes(12).toString('hex')}`])) as Record<Role, string>;
  const allKeys: Record<string, Role> = { ...Object.fromEntries(ROLES.map((role) => [keys[role], role])), ...options.apiKeys };
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    HOST: '127.0.0.1',
    PORT: '0',
    API_KEYS: Object.entries(allKeys).map(([token, role]) => `${token}=${role}`).join(','),
    ...options.env,
  });
  const client = await connectMongo(options.mongoUri ?? testMongoUri(), config.limits);
  const ownsDatabase = options.dbName === undefined;
  const db = client.db(options.dbName ?? `test_app_${randomBytes(6).toString('hex')}`);
  const wsClients = new Set<TestWsClient>();
  let server: RunningServer;
  try {
    server = await startServer({
      config,
      db,
      engine: testMongoEngine(),
      logger: options.logger ?? createLogger({ level: 'silent' }),
      ...(options.schema ? { schema: options.schema } : {}),
      ...(options.startupTasks ? { startupTasks: options.startupTasks } : {}),
      ...(options.payoutProjection ? { payoutProjection: options.payoutProjection } : {}),
      ...(options.buildPayoutProjection ? { buildPayoutProjection: options.buildPayoutProjection } : {}),
      ...(options.ledgerAudit ? { ledgerAudit: options.ledgerAudit } : {}),
    });
  } catch (error) {
    await client.close();
    throw error;
  }
  const authorizationFor = (key: Role | string | null | undefined): string | undefined => {
    if (key === null) return undefined;
    const token = keys[key as Role] ?? key ?? keys.admin;
    return `Bearer ${token}`;
  };
  return {
    url: server.url,
    wsUrl: server.wsUrl,
    db,
    client,
    config,
    server,
    services: server.services,
    registry: server.registry,
    keys,
    async gql(query, variables = {}, gqlOptions = {}) {
      const authorization = gqlOptions.authorization ?? authorizationFor(gqlOptions.key);
      const response = await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
        body: JSON.stringify({ query, variables }),
      });
      return { status: response.status, ...((await response.json()) as Omit<GqlResponse, 'status'>) };
    },
    ws(key) {
      const authorization = authorizationFor(key);
      const wsClient = createTestWsClient(server.wsUrl, authorization ? { authorization } : {});
      wsClients.add(wsClient);
      return wsClient;
    },
    async close() {
      await Promise.all([...wsClients].map((wsClient) => wsClient.close()));
      await server.stop();
      if (ownsDatabase) await db.dropDatabase().catch(() => undefined);
      await client.close();
    },
  };
}
