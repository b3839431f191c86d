// The HTTP server: Apollo Server on /graphql straight from node:http (graphql/httpTransport.ts),
// graphql-ws on the same port and path, and Express for the rest: GET /healthz (liveness, no
// auth), GET /readyz (readiness, no auth), GET /metrics (the app's registry) and the console. `startServer` builds the app (src/app.ts, the composition root: connection,
// registry, services, start-up tasks), wires HTTP and WebSockets to it, and returns one `stop()`
// that takes it all down in reverse; main.ts wires signals to it.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginInlineTraceDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import { fileURLToPath } from 'node:url';
import express from 'express';
import type { GraphQLSchema } from 'graphql';
import type { Db } from 'mongodb';
import type { Registry } from 'prom-client';
import { WebSocketServer } from 'ws';
import { createApp, type AppOptions } from './app.ts';
import type { Config } from './config.ts';
import type { EngineInfo } from './db/engine.ts';
import { generateApiKey, Keyring, type Authentication } from './graphql/auth/apiKeys.ts';
import { consistencyPlugin } from './graphql/consistency.ts';
import type { Role } from './graphql/auth/roles.ts';
import { createContext, type AppContext } from './graphql/context.ts';
import { formatAppError } from './graphql/formatError.ts';
import { graphqlHttpHandler } from './graphql/httpTransport.ts';
import { queryLimitProtection, screenHttpOperations, tokenCheck } from './graphql/queryLimits.ts';
import { TrustedDocuments } from './graphql/trustedDocuments.ts';
import { readManifest } from './graphql/trustedDocumentsManifest.ts';
import { RateLimiter, rateLimitPlugin } from './graphql/rateLimit.ts';
import { buildAppSchema } from './graphql/schema.ts';
import { checkReadiness } from './health/readiness.ts';
import { attachGraphqlWs } from './graphql/websocket.ts';
import { noStorePlugin } from './graphql/noStore.ts';
import { observabilityPlugin, operationNamesOf } from './graphql/observabilityPlugin.ts';
import { createLogger, type Logger } from './observability/logger.ts';
import type { AppServices } from './services.ts';
import { createShutdownGate } from './graphql/shutdownGate.ts';

export const GRAPHQL_PATH = '/graphql';
export const CONSOLE_PATH = '/console';
const CONSOLE_DIR = fileURLToPath(new URL('./console/', import.meta.url));

/** How to build the app (src/app.ts), and the HTTP side's own settings. */
export interface StartServerOptions extends AppOptions {
  /** Defaults to `buildAppSchema()`. */
  schema?: GraphQLSchema;
  /** Where a generated development key is shown, once; stderr by default, never the logger. */
  announce?: (line: string) => void;
}

export interface RunningServer {
  url: string;
  wsUrl: string;
  port: number;
  db: Db;
  engine: EngineInfo;
  /** The app's services, as built once by src/app.ts. */
  services: AppServices;
  /** The app's registry, served at GET /metrics. */
  registry: Registry;
  /** The admin key generated because API_KEYS was unset (development only). */
  generatedAdminKey: string | undefined;
  /** Idempotent: drains HTTP, closes WebSockets, stops Apollo, then the app (tasks, Mongo, an embedded engine). */
  stop(): Promise<void>;
}

export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const { config } = options;
  const logger = options.logger ?? createLogger({ level: config.logLevel, format: config.logFormat });
  const cleanups: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      await cleanup().catch((error: unknown) => logger.error({ err: error }, 'shutdown step failed'));
    }
  };
  // The port first, before any start-up work: a port in use stops the process at once (main.ts
  // says so and exits 98), not after every start-up task and an audit have run. Until the app is
  // ready, requests are answered 503 with Retry-After.
  const httpServer = createServer();
  let handle: (req: IncomingMessage, res: ServerResponse) => void = answerStarting;
  httpServer.on('request', (req: IncomingMessage, res: ServerResponse) => handle(req, res));
  const port = await listen(httpServer, config.port, config.host);
  cleanups.push(() => new Promise<void>((resolve) => {
    httpServer.closeAllConnections();
    httpServer.close(() => resolve());
  }));
  try {
    const { keyring, generatedAdminKey } = createKeyring(config, options.announce);
    const app = await createApp({ ...options, logger });
    cleanups.push(() => app.stop());
    const { graphqlTelemetry, services } = app;
    const schema = options.schema ?? (await buildAppSchema());
    const queryLimits = queryLimitProtection(config.limits, config.nodeEnv === 'production', graphqlTelemetry);
    const rateLimiter = config.rateLimits ? new RateLimiter(config.rateLimits, graphqlTelemetry) : null;
    const trustedDocuments = new TrustedDocuments(config.trustedDocuments, logger.child({ component: 'trustedDocuments' }), graphqlTelemetry);
    const apollo = new ApolloServer<AppContext>({
      schema,
      validationRules: queryLimits.validationRules,
      allowBatchedHttpRequests: config.limits.graphqlBatchMax > 1,
      introspection: config.nodeEnv !== 'production',
      stopOnTerminationSignals: false,
      // A 10-line stack trace on every error buries the message; only a developer who asks for
      // debug logs gets them (never in production).
      includeStacktraceInErrorResponses: config.nodeEnv !== 'production' && (config.logLevel === 'debug' || config.logLevel === 'trace'),
      formatError: (formatted, raw) => formatAppError(formatted, config.nodeEnv === 'production', raw),
      plugins: [
        // Off: Apollo installs both by default, and both run per request for nothing here. Cache
        // control ran a hook per resolved field to answer `no-store` every time (noStorePlugin
        // writes it); inline tracing only ever applies to a federated subgraph, which this is not.
        ApolloServerPluginCacheControlDisabled(),
        ApolloServerPluginInlineTraceDisabled(),
        noStorePlugin(),
        ApolloServerPluginDrainHttpServer({ httpServer, stopGracePeriodMillis: config.limits.shutdownGraceMs }),
        config.nodeEnv === 'production'
          ? ApolloServerPluginLandingPageDisabled()
          : ApolloServerPluginLandingPageLocalDefault({ embed: true }),
        observabilityPlugin(graphqlTelemetry, logger, { knownOperationNames: knownOperationNames(config) }),
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
      app,
      logger,
      production: config.nodeEnv === 'production',
      telemetry: graphqlTelemetry,
      queryLimits,
      rateLimiter,
      trustedDocuments,
    });
    // Runs before apollo.stop(): close subscriptions first so nothing new arrives while draining.
    cleanups.push(() => graphqlWs.dispose());

    const http = express();
    http.disable('x-powered-by');
    // Runs first on stop (cleanups run in reverse): refuse new requests with 503, close
    // subscriptions (1001), let in-flight requests finish within the grace, then close the rest.
    const gate = createShutdownGate();
    cleanups.push(async () => {
      gate.begin();
      await graphqlWs.dispose();
      const left = await gate.drained(config.limits.shutdownGraceMs);
      logger.info({ inFlight: left, graceMs: config.limits.shutdownGraceMs }, left === 0 ? 'in-flight requests drained' : 'grace period over with requests in flight');
    });
    http.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
    // The ops console: static files straight from src/console (no build step, nothing from a CDN).
    http.use(CONSOLE_PATH, express.static(CONSOLE_DIR, { index: 'index.html', fallthrough: false }));
    http.get('/readyz', async (_req, res) => {
      const readiness = await checkReadiness(app.db, services, { shuttingDown: gate.shuttingDown });
      res.status(readiness.ready ? 200 : 503).json(readiness);
    });
    http.get('/metrics', async (_req, res) => {
      res.type(app.registry.contentType).send(await app.registry.metrics());
    });
    // GraphQL over HTTP bypasses Express (src/graphql/httpTransport.ts); Express serves the rest.
    const graphqlHttp = graphqlHttpHandler({
      apollo,
      bodyLimitBytes: config.limits.httpBodyLimitBytes,
      // Once per request: the screen (trusted documents' admin exception) and the context share it.
      authenticate: (authorization) => keyring.authenticate(authorization),
      screen: screenHttpOperations<Authentication>(config.limits.graphqlBatchMax, [
        (query, auth) => trustedDocuments.check(query, roleOf(auth)),
        tokenCheck(queryLimits),
      ], graphqlTelemetry),
      context: async (_req, auth) => createContext(app, auth, 'http'),
      logger,
    });
    handle = (req: IncomingMessage, res: ServerResponse) => {
      if (!gate.admit(req, res)) return;
      const path = (req.url ?? '/').split('?', 1)[0];
      if (path === GRAPHQL_PATH || path === `${GRAPHQL_PATH}/`) graphqlHttp(req, res);
      else http(req, res);
    };
    const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
    logger.info({ port, engine: app.engine.kind }, `listening on http://${host}:${port}${GRAPHQL_PATH}`);

    let stopping: Promise<void> | undefined;
    return {
      url: `http://${host}:${port}${GRAPHQL_PATH}`,
      wsUrl: `ws://${host}:${port}${GRAPHQL_PATH}`,
      port,
      db: app.db,
      engine: app.engine,
      services,
      registry: app.registry,
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

function roleOf(auth: Authentication): Role | null {
  return auth.ok ? auth.principal.role : null;
}

function writeToStderr(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** Before the app is ready: 503, come back in a second. */
function answerStarting(_req: IncomingMessage, res: ServerResponse): void {
  res.statusCode = 503;
  res.setHeader('retry-after', '1');
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ errors: [{ message: 'The server is starting; retry in a second', extensions: { code: 'STARTING' } }] }));
}

/** The SDK's operation names, read from the trusted-documents manifest: the bounded label set of graphql_operations_total. */
function knownOperationNames(config: Config): Set<string> {
  const manifest = readManifest(config.trustedDocuments.manifestPath);
  return manifest.ok ? operationNamesOf(manifest.texts) : new Set();
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
