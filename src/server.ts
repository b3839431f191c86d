// The HTTP server: Express 5 with Apollo Server on /graphql, graphql-ws on the same port and
// path, GET /healthz (liveness, no auth), GET /readyz (readiness, no auth) and GET /metrics.
// `startServer` brings everything up in order and returns one `stop()` that takes it all down in
// reverse; main.ts wires signals to it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import { expressMiddleware } from '@as-integrations/express5';
import { fileURLToPath } from 'node:url';
import express from 'express';
import type { GraphQLSchema } from 'graphql';
import type { Db, MongoClient } from 'mongodb';
import { WebSocketServer } from 'ws';
import type { Config } from './config.ts';
import { connectMongo } from './db/connect.ts';
import { resolveEngine, type EngineInfo } from './db/engine.ts';
import type { RunningTask, StartupTask } from './db/startupTasks.ts';
import { generateApiKey, Keyring } from './graphql/auth/apiKeys.ts';
import { consistencyPlugin } from './graphql/consistency.ts';
import type { Role } from './graphql/auth/roles.ts';
import { createContext, type AppContext, type AppServices } from './graphql/context.ts';
import { formatAppError } from './graphql/formatError.ts';
import { gateHttpOperations, queryLimitProtection, tokenCheck } from './graphql/queryLimits.ts';
import { TrustedDocuments } from './graphql/trustedDocuments.ts';
import { RateLimiter, rateLimitPlugin } from './graphql/rateLimit.ts';
import { buildAppSchema } from './graphql/schema.ts';
import { createGraphqlTelemetry } from './graphql/telemetry.ts';
import { checkReadiness } from './health/readiness.ts';
import { attachGraphqlWs } from './graphql/websocket.ts';
import { observabilityPlugin } from './graphql/observabilityPlugin.ts';
import { createLogger, type Logger } from './observability/logger.ts';
import { metricsRegistry } from './observability/metrics.ts';
import { startupTasks as appStartupTasks } from './startupTasks.ts';
import { watchOpsGauges } from './observability/opsGauges.ts';
import { createShutdownGate } from './graphql/shutdownGate.ts';

export const GRAPHQL_PATH = '/graphql';
export const CONSOLE_PATH = '/console';
const CONSOLE_DIR = fileURLToPath(new URL('./console/', import.meta.url));

export interface StartServerOptions {
  config: Config;
  /** An already-connected database (tests). Without it the engine is resolved and started here. */
  db?: Db;
  /** Which engine `db` lives on, for the `health` query; only with `db`. */
  engine?: EngineInfo;
  logger?: Logger;
  /** Defaults to `buildAppSchema()`. */
  schema?: GraphQLSchema;
  /** Defaults to the app's `startupTasks`. */
  startupTasks?: readonly StartupTask[];
  /** Where a generated development key is shown, once; stderr by default, never the logger. */
  announce?: (line: string) => void;
}

export interface RunningServer {
  url: string;
  wsUrl: string;
  port: number;
  db: Db;
  engine: EngineInfo;
  /** The admin key generated because API_KEYS was unset (development only). */
  generatedAdminKey: string | undefined;
  /** Idempotent: drains HTTP, closes WebSockets, stops Apollo, tasks, Mongo and an embedded engine. */
  stop(): Promise<void>;
}

export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const { config } = options;
  const logger = options.logger ?? createLogger({ level: config.logLevel });
  const cleanups: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      await cleanup().catch((error: unknown) => logger.error({ err: error }, 'shutdown step failed'));
    }
  };
  try {
    const { keyring, generatedAdminKey } = createKeyring(config, options.announce);
    const services = await openDatabase(options, logger, cleanups);
    await runStartupTasks(options.startupTasks ?? appStartupTasks, { ...services, config, logger, registry: metricsRegistry }, cleanups);
    const graphqlTelemetry = createGraphqlTelemetry(metricsRegistry);
    const opsGauges = watchOpsGauges(services.db);
    cleanups.push(async () => opsGauges.stop());
    const schema = options.schema ?? (await buildAppSchema());
    const httpServer = createServer();
    const queryLimits = queryLimitProtection(config.limits, config.nodeEnv === 'production', graphqlTelemetry);
    const rateLimiter = config.rateLimits ? new RateLimiter(config.rateLimits, graphqlTelemetry) : null;
    const trustedDocuments = new TrustedDocuments(config.trustedDocuments, logger.child({ component: 'trustedDocuments' }), graphqlTelemetry);
    const apollo = new ApolloServer<AppContext>({
      schema,
      validationRules: queryLimits.validationRules,
      allowBatchedHttpRequests: config.limits.graphqlBatchMax > 1,
      introspection: config.nodeEnv !== 'production',
      stopOnTerminationSignals: false,
      includeStacktraceInErrorResponses: config.nodeEnv !== 'production',
      formatError: (formatted, raw) => formatAppError(formatted, config.nodeEnv === 'production', raw),
      plugins: [
        ApolloServerPluginDrainHttpServer({ httpServer, stopGracePeriodMillis: config.limits.shutdownGraceMs }),
        config.nodeEnv === 'production'
          ? ApolloServerPluginLandingPageDisabled()
          : ApolloServerPluginLandingPageLocalDefault({ embed: true }),
        observabilityPlugin(graphqlTelemetry),
        consistencyPlugin(),
        ...(queryLimits.plugins as Array<ApolloServerPlugin<AppContext>>),
        ...(rateLimiter ? [rateLimitPlugin(rateLimiter)] : []),
      ],
    });
    await apollo.start();
    cleanups.push(() => apollo.stop());
    const wss = new WebSocketServer({ server: httpServer, path: GRAPHQL_PATH, maxPayload: config.limits.httpBodyLimitBytes });
    const graphqlWs = attachGraphqlWs({
      wss,
      schema,
      keyring,
      services,
      logger,
      production: config.nodeEnv === 'production',
      telemetry: graphqlTelemetry,
      queryLimits,
      rateLimiter,
      trustedDocuments,
    });
    // Runs before apollo.stop(): close subscriptions first so nothing new arrives while draining.
    cleanups.push(() => graphqlWs.dispose());

    const app = express();
    app.disable('x-powered-by');
    // Runs first on stop (cleanups run in reverse): refuse new requests with 503, close
    // subscriptions (1001), let in-flight requests finish within the grace, then close the rest.
    const gate = createShutdownGate();
    app.use(gate.middleware);
    cleanups.push(async () => {
      gate.begin();
      await graphqlWs.dispose();
      const left = await gate.drained(config.limits.shutdownGraceMs);
      logger.info({ inFlight: left, graceMs: config.limits.shutdownGraceMs }, left === 0 ? 'in-flight requests drained' : 'grace period over with requests in flight');
    });
    app.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
    // The ops console: static files straight from src/console (no build step, nothing from a CDN).
    app.use(CONSOLE_PATH, express.static(CONSOLE_DIR, { index: 'index.html', fallthrough: false }));
    app.get('/readyz', async (_req, res) => {
      const readiness = await checkReadiness(services.db, { shuttingDown: gate.shuttingDown });
      res.status(readiness.ready ? 200 : 503).json(readiness);
    });
    app.get('/metrics', async (_req, res) => {
      res.type(metricsRegistry.contentType).send(await metricsRegistry.metrics());
    });
    app.use(
      GRAPHQL_PATH,
      express.json({ limit: config.limits.httpBodyLimitBytes }),
      gateHttpOperations(config.limits.graphqlBatchMax, [
        (query, req) => trustedDocuments.check(query, roleOf(keyring.authenticate(req.headers.authorization))),
        tokenCheck(queryLimits),
      ], graphqlTelemetry),
      expressMiddleware(apollo, {
        context: async ({ req }) => createContext(services, keyring.authenticate(req.headers.authorization), 'http'),
      }),
    );
    httpServer.on('request', app);
    const port = await listen(httpServer, config.port, config.host);
    const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
    logger.info({ port, engine: services.engine.kind }, `listening on http://${host}:${port}${GRAPHQL_PATH}`);

    let stopping: Promise<void> | undefined;
    return {
      url: `http://${host}:${port}${GRAPHQL_PATH}`,
      wsUrl: `ws://${host}:${port}${GRAPHQL_PATH}`,
      port,
      db: services.db,
      engine: services.engine,
      generatedAdminKey,
      stop: () => (stopping ??= stopAll().then(() => logger.info('stopped'))),
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** Keys from API_KEYS; without them (never in production: config refuses) one random admin key. */
function createKeyring(config: Config, announce: (line: string) => void = writeToStderr) {
  if (config.apiKeys) return { keyring: new Keyring(config.apiKeys), generatedAdminKey: undefined };
  if (config.nodeEnv === 'production') throw new Error('API_KEYS is required when NODE_ENV=production');
  const token = generateApiKey();
  // Shown once, on the terminal, so a developer can call the API; the logger never sees it.
  announce(`API_KEYS is unset: generated a development admin key for this run only: ${token}`);
  return { keyring: new Keyring([{ token, role: 'admin' }]), generatedAdminKey: token };
}

function roleOf(auth: ReturnType<Keyring['authenticate']>): Role | null {
  return auth.ok ? auth.principal.role : null;
}

function writeToStderr(line: string): void {
  process.stderr.write(`${line}\n`);
}

async function openDatabase(
  options: StartServerOptions,
  logger: Logger,
  cleanups: Array<() => Promise<void>>,
): Promise<AppServices> {
  if (options.db) {
    const engine = options.engine ?? { kind: 'uri', reason: 'a database was handed to startServer' };
    return { client: options.db.client, db: options.db, engine, logger };
  }
  const { config } = options;
  const engine = await resolveEngine(config);
  cleanups.push(() => engine.stop());
  const log = engine.kind === 'emulator' ? logger.warn.bind(logger) : logger.info.bind(logger);
  log({ engine: engine.kind }, `MongoDB engine: ${engine.kind}, because ${engine.reason}`);
  const client: MongoClient = await connectMongo(engine.uri, config.limits);
  cleanups.push(() => client.close());
  return { client, db: client.db(config.mongodbDb), engine: { kind: engine.kind, reason: engine.reason }, logger };
}

async function runStartupTasks(
  tasks: readonly StartupTask[],
  deps: Parameters<StartupTask['run']>[0],
  cleanups: Array<() => Promise<void>>,
): Promise<void> {
  for (const task of tasks) {
    const startedAtMs = Date.now();
    const running: RunningTask | void = await task.run(deps);
    if (running) cleanups.push(() => running.stop());
    deps.logger.info({ task: task.name, durationMs: Date.now() - startedAtMs }, 'startup task done');
  }
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}
