// Starting the app for a test, the one module for it, in two ways:
// - in process: `startTestApp` runs the real server (HTTP + WebSocket, real schema, real start-up
//   tasks) on the run's engine, on a random port, with one API key per role;
// - as processes, as production runs them: `startAppProcess` runs `src/main.ts` as `npm start`
//   does and resolves once it listens, `startEngineProcess` the emulator's CLI, and `spawnMain` is
//   the bare process for tests of start-up itself.
// Both kinds of app answer `gql` the same way, so the callers (support/callers.ts) serve both:
//
//   const app = await startTestApp();
//   const res = await app.gql('{ health { engine } }', {}, { key: 'dashboard' });
//   await app.close();
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GraphQLSchema } from 'graphql';
import type { Db, MongoClient } from 'mongodb';
import type { Registry } from 'prom-client';
import type { AppOptions } from '../../src/app/createApp.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { connectMongo } from '../../src/db/connect.ts';
import { appNameOf, newProcessId } from '../../src/db/processLiveness.ts';
import { ROLES, type Role } from '../../src/access/roles.ts';
import { createLogger, type Logger } from '../../src/observability/logger.ts';
import { startServer, type RunningServer } from '../../src/server/startServer.ts';
import type { AppServices } from '../../src/app/services.ts';
import { PROCESS_BUNDLES } from '../../scripts/buildProcesses.ts';
import { testMongoEngine, testMongoUri } from './mongo.ts';
import { createTestWsClient, type TestWsClient } from './ws.ts';

export { startEngineProcess, type EngineProcess } from '../../bench/engineProcess.ts';

/** How src/app/createApp.ts builds the app: which start-up tasks run, the projection's and audit's settings. */
export interface StartTestAppOptions
  extends Pick<AppOptions, 'startupTasks' | 'payoutProjection' | 'buildPayoutProjection' | 'ledgerAudit'> {
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
  /** How HTTP executes trusted documents (src/server/startServer.ts); compiled plans by default. */
  trustedExecution?: 'compiled' | 'graphql-js';
  /** The app's client emits `commandStarted` for every command (on `TestApp.client`): a test reads what goes on the wire. */
  monitorCommands?: boolean;
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
  errors?: Array<{
    message: string;
    path?: Array<string | number>;
    extensions?: { code?: string; [key: string]: unknown };
  }>;
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
  gql<TData = any>(
    query: string,
    variables?: Record<string, unknown>,
    options?: GqlOptions,
  ): Promise<GqlResponse<TData>>;
  /** A graphql-ws client authenticated with `key` (a role, a raw token, or null for none). */
  ws(key?: Role | string | null): TestWsClient;
  close(): Promise<void>;
}

/** One fresh key per role, and the API_KEYS value that grants them (plus `extra`, token → role). */
function keysPerRole(extra: Record<string, Role> = {}): { keys: Record<Role, string>; apiKeys: string } {
  const keys = Object.fromEntries(
    ROLES.map((role) => [role, `test-${role}-${randomBytes(12).toString('hex')}`]),
  ) as Record<Role, string>;
  const allKeys: Record<string, Role> = { ...Object.fromEntries(ROLES.map((role) => [keys[role], role])), ...extra };
  return {
    keys,
    apiKeys: Object.entries(allKeys)
      .map(([token, role]) => `${token}=${role}`)
      .join(','),
  };
}

/** The Authorization header for a role (its generated key), a raw token, or null (none). Default: admin. */
function authorizationFor(keys: Record<Role, string>, key: Role | string | null | undefined): string | undefined {
  if (key === null) return undefined;
  const token = keys[key as Role] ?? key ?? keys.admin;
  return `Bearer ${token}`;
}

/** One GraphQL request over HTTP, as a client sends it. */
async function postGql(
  url: string,
  keys: Record<Role, string>,
  query: string,
  variables: Record<string, unknown>,
  options: GqlOptions,
): Promise<GqlResponse> {
  const authorization = options.authorization ?? authorizationFor(keys, options.key);
  const response = await postJson(url, JSON.stringify({ query, variables }), authorization);
  return { status: response.status, ...(JSON.parse(response.body) as Omit<GqlResponse, 'status'>) };
}

/**
 * A POST of a JSON body through node:http (its global agent keeps connections alive, as fetch
 * does): the same request on the wire, for less CPU than fetch's web streams, which were a sixth
 * of a request-bound file's time (test/server/compiledExecution.test.ts sends 2,800).
 */
function postJson(
  url: string,
  body: string,
  authorization: string | undefined,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          ...(authorization ? { authorization } : {}),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    sent.on('error', reject);
    sent.end(body);
  });
}

export async function startTestApp(options: StartTestAppOptions = {}): Promise<TestApp> {
  const { keys, apiKeys } = keysPerRole(options.apiKeys);
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    HOST: '127.0.0.1',
    PORT: '0',
    API_KEYS: apiKeys,
    ...options.env,
  });
  // Named as an API process names its client, so this app's open transactions are told apart too.
  // Without monitorCommands the client monitors as the app's would: when tracing is on (connect.ts).
  const processId = newProcessId();
  const client = await connectMongo(
    options.mongoUri ?? testMongoUri(),
    config.limits,
    appNameOf(processId),
    options.monitorCommands === undefined ? {} : { monitorCommands: options.monitorCommands },
  );
  const ownsDatabase = options.dbName === undefined;
  const db = client.db(options.dbName ?? `test_app_${randomBytes(6).toString('hex')}`);
  const wsClients = new Set<TestWsClient>();
  let server: RunningServer;
  try {
    server = await startServer({
      config,
      db,
      processId,
      engine: testMongoEngine(),
      logger: options.logger ?? createLogger({ level: 'silent' }),
      ...(options.schema ? { schema: options.schema } : {}),
      ...(options.startupTasks ? { startupTasks: options.startupTasks } : {}),
      ...(options.payoutProjection ? { payoutProjection: options.payoutProjection } : {}),
      ...(options.buildPayoutProjection ? { buildPayoutProjection: options.buildPayoutProjection } : {}),
      ...(options.ledgerAudit ? { ledgerAudit: options.ledgerAudit } : {}),
      ...(options.trustedExecution ? { trustedExecution: options.trustedExecution } : {}),
    });
  } catch (error) {
    await client.close();
    throw error;
  }
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
    gql: (query, variables = {}, gqlOptions = {}) => postGql(server.url, keys, query, variables, gqlOptions),
    ws(key) {
      const authorization = authorizationFor(keys, key);
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

// ---- As processes ----

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Output kept per stream; a test needs only the first lines. */
const OUTPUT_CHARS_MAX = 1_000_000;
/** How long a process may take to listen: `npm start` compiles the app with tsx on start, slower on a busy machine. */
const PROCESS_START_TIMEOUT_MS = 60_000;

export interface MainProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves when `pattern` appears on stdout or stderr; rejects on exit or after `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Runs `src/main.ts`, with only `env` (plus PATH/HOME): from its bundle (scripts/buildProcesses.ts,
 * built by the run's setup: the same sources esbuild-compiled at once instead of by tsx's loader
 * on every start, listening in a fraction of the time). The tests of `npm start` itself run npm.
 */
export function spawnMain(env: Record<string, string>): MainProcess {
  return spawnNode(['--enable-source-maps', PROCESS_BUNDLES.server.outfile], env);
}

/** Runs node with `args` in the repository's root, with only `env` (plus PATH/HOME): any of the project's processes. */
export function spawnNode(args: string[], env: Record<string, string>): MainProcess {
  return spawnCommand(process.execPath, args, env);
}

/**
 * Runs `command` in the repository's root as a process manager would (its own pid, signals sent
 * to it), with only `env` (plus PATH/HOME): `npm start` as systemd runs it, for one.
 */
export function spawnCommand(command: string, args: string[], env: Record<string, string>): MainProcess {
  // Only what the test passes, plus PATH/HOME: nothing from the runner's own environment. A
  // DATA_DIR of its own unless the test names one: a server without API_KEYS keeps its admin key
  // there, and the repository's .data is the developer's.
  const dataDir = env['DATA_DIR'] === undefined ? mkdtempSync(join(tmpdir(), 'precondition-process-')) : null;
  const child = spawn(command, args, {
    cwd: ROOT,
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: process.env['HOME'] ?? '',
      ...(dataDir ? { DATA_DIR: dataDir } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (dataDir) child.once('exit', () => rmSync(dataDir, { recursive: true, force: true }));
  let out = '';
  let err = '';
  const listeners = new Set<() => void>();
  child.stdout?.on('data', (chunk) => {
    if (out.length < OUTPUT_CHARS_MAX) out += String(chunk);
    for (const listener of listeners) listener();
  });
  child.stderr?.on('data', (chunk) => {
    if (err.length < OUTPUT_CHARS_MAX) err += String(chunk);
    for (const listener of listeners) listener();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    exited,
    stdout: () => out,
    stderr: () => err,
    waitFor(pattern, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(out) ?? pattern.exec(err);
          if (match) {
            done();
            resolve(match);
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`${pattern} not seen within ${timeoutMs}ms; stdout: ${out}; stderr: ${err}`));
        }, timeoutMs);
        const onExit = () => {
          done();
          reject(new Error(`exited before ${pattern}; stdout: ${out}; stderr: ${err}`));
        };
        const done = () => {
          clearTimeout(timer);
          listeners.delete(check);
          child.off('exit', onExit);
        };
        listeners.add(check);
        child.once('exit', onExit);
        check();
      });
    },
  };
}

export interface StartAppProcessOptions {
  mongoUri: string;
  dbName: string;
  /** More environment (limits, LOG_LEVEL, SHUTDOWN_GRACE_MS...). */
  env?: Record<string, string>;
  /** Extra keys, token → role, besides the one generated per role. */
  apiKeys?: Record<string, Role>;
  startTimeoutMs?: number;
}

/** An API process started by `startAppProcess`, listening. */
export interface AppProcess {
  main: MainProcess;
  url: string;
  wsUrl: string;
  pid: number;
  keys: Record<Role, string>;
  /** As TestApp's: the role's key (default admin), a raw token, or null for none. */
  gql<TData = any>(
    query: string,
    variables?: Record<string, unknown>,
    options?: GqlOptions,
  ): Promise<GqlResponse<TData>>;
  /** SIGTERM (unless it already exited), then waits for the exit. */
  stop(): Promise<void>;
}

/** One API process on `mongoUri`, as `npm start` runs it, with one key per role; resolves once it listens. */
export async function startAppProcess(options: StartAppProcessOptions): Promise<AppProcess> {
  const { keys, apiKeys } = keysPerRole(options.apiKeys);
  const main = spawnMain({
    MONGODB_URI: options.mongoUri,
    MONGODB_DB: options.dbName,
    PORT: '0',
    HOST: '127.0.0.1',
    API_KEYS: apiKeys,
    SEED_DEMO: '0',
    ...options.env,
  });
  const [, url] = await main
    .waitFor(/listening on (http:\S+\/graphql)/, options.startTimeoutMs ?? PROCESS_START_TIMEOUT_MS)
    .catch((error: unknown) => {
      main.child.kill('SIGKILL');
      throw error;
    });
  return {
    main,
    url: url!,
    wsUrl: url!.replace(/^http/, 'ws'),
    pid: main.child.pid!,
    keys,
    gql: (query, variables = {}, gqlOptions = {}) => postGql(url!, keys, query, variables, gqlOptions),
    async stop() {
      if (main.child.exitCode === null && main.child.signalCode === null) main.child.kill('SIGTERM');
      await main.exited;
    },
  };
}
