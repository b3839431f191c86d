// The HTTP server: Apollo Server on /graphql straight from node:http (src/server/http.ts),
// graphql-ws on the same port and path (src/server/websocket.ts), both behind one admission
// screen (src/server/admission.ts), and the rest on the same node:http server (src/server/routes.ts):
// GET /healthz (liveness, no auth), GET /readyz (readiness, no auth), GET /metrics (the app's
// registry) and the console.
// `startServer` builds the app (src/app/createApp.ts, the composition root: connection, registry,
// services, start-up tasks), wires HTTP and WebSockets to it, and returns one `stop()` that takes
// it all down in reverse; main.ts wires signals to it.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApolloServer } from '@apollo/server';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginInlineTraceDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import type { GraphQLSchema } from 'graphql';
import type { Db } from 'mongodb';
import type { Registry } from 'prom-client';
import { WebSocketServer } from 'ws';
import { createApp, type App, type AppOptions } from '../app/createApp.ts';
import type { Config } from '../config.ts';
import type { EngineInfo } from '../db/engine.ts';
import { Keyring } from '../access/apiKeys.ts';
import { loadOrCreateAdminKey } from '../access/adminKeyFile.ts';
import { consistencyPlugin } from '../graphql/consistency.ts';
import { createContext, type AppContext } from '../app/requestContext.ts';
import { unavailablePlugin } from './unavailable.ts';
import { formatAppError } from './formatError.ts';
import { graphqlHttpHandler } from './http.ts';
import { CONSOLE_BUILD_DIR, CONSOLE_PATH } from './consoleFiles.ts';
import { createRoutes } from './routes.ts';
import { CompiledExecution } from './compiledExecution.ts';
import { traceMutations } from './traceMutations.ts';
import { tracingEnabled } from '../observability/tracing.ts';
import { Admission } from './admission.ts';
import { queryLimitProtection } from './queryLimits.ts';
import { TrustedDocuments } from './trustedDocuments.ts';
import { SharedRateLimiter } from './sharedRateLimit.ts';
import { buildAppSchema } from '../app/schema.ts';
import { checkReadiness } from '../health/readiness.ts';
import { attachGraphqlWs } from './websocket.ts';
import { clientMistakeStatusPlugin, markRootAnswers } from './clientMistakeStatus.ts';
import { noStorePlugin } from './noStore.ts';
import { observabilityPlugin, operationNamesOf } from './observabilityPlugin.ts';
import { logMutationResults } from './operationObservation.ts';
import { readManifest } from '../access/trustedDocumentsManifest.ts';
import { StopList } from '../lib/stopList.ts';
import { createLogger, type Logger } from '../observability/logger.ts';
import type { AppServices } from '../app/services.ts';
import { createShutdownGate, } from './shutdownGate.ts';
import { createGraphqlTelemetry, type GraphqlTelemetry } from './telemetry.ts';

export const GRAPHQL_PATH = '/graphql';

/** How to build the app (src/app/createApp.ts), and the HTTP side's own settings. */
export interface StartServerOptions extends AppOptions {
  /** Defaults to `buildAppSchema()`. */
  schema?: GraphQLSchema;
  /** Where a generated development key is shown, once; stderr by default, never the logger. */
  announce?: (line: string) => void;
  /**
   * How HTTP executes the trusted documents: `compiled` (the default) through plans graphql-jit
   * compiles once (compiledExecution.ts), `graphql-js` as any other document. Only the
   * differential test sets it.
   */
  trustedExecution?: 'compiled' | 'graphql-js';
}

export interface RunningServer {
  url: string;
  wsUrl: string;
  port: number;
  db: Db;
  engine: EngineInfo;
  /** The app's services, as built once by src/app/createApp.ts. */
  services: AppServices;
  /** The app's registry, served at GET /metrics. */
  registry: Registry;
  /** The admin key generated because API_KEYS was unset (development only). */
  generatedAdminKey: string | undefined;
  /** How many trusted documents have a compiled plan so far (compiledExecution.ts): each gets one on its first request. */
  compiledDocuments(): number;
  /** Idempotent: drains HTTP, closes WebSockets, stops Apollo, then the app (tasks, Mongo, an embedded engine). */
  stop(): Promise<void>;
}

export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const { config } = options;
  const logger = options.logger ?? createLogger({ level: config.logLevel, format: config.logFormat });
  const cleanups = new StopList((error) => logger.error({ err: error }, 'shutdown step failed'));
  const stopAll = () => cleanups.stopAll();
  // The port first, before any start-up work: a port in use stops the process at once (main.ts
  // says so and exits 98), not after every start-up task and an audit have run. Until the app is
  // ready, requests are answered 503 with Retry-After.
  const httpServer = createBoundedHttpServer(config);
  let handle: (req: IncomingMessage, res: ServerResponse) => void = answerStarting;
  httpServer.on('request', (req: IncomingMessage, res: ServerResponse) => handle(req, res));
  const port = await listen(httpServer, config.port, config.host);
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        httpServer.closeAllConnections();
        httpServer.close(() => resolve());
      }),
  );
  try {
    const { keyring, generatedAdminKey } = await createKeyring(config, options.announce);
    const app = await createApp({ ...options, logger });
    cleanups.push(() => app.stop());
    const { services } = app;
    const graphqlTelemetry = createGraphqlTelemetry(app.registry);
    // Both transports execute this one schema, whose mutation fields write their own log line;
    // with tracing on each runs in its span, its log line included (trace_id, span_id).
    const logged = markRootAnswers(logMutationResults(options.schema ?? (await buildAppSchema())));
    const schema = tracingEnabled() ? traceMutations(logged) : logged;
    const manifest = readManifest(config.trustedDocuments.manifestPath);
    // The SDK's operation names: the bounded label set of graphql_operations_total.
    const operationNames = manifest.ok ? operationNamesOf(manifest.texts) : new Set<string>();
    // Trusted documents run on plans compiled once (compiledExecution.ts); others on graphql-js.
    const compiled = new CompiledExecution(
      schema,
      manifest.ok && options.trustedExecution !== 'graphql-js' ? manifest.hashes : new Set(),
    );
    const admission = createAdmission(config, app, keyring, graphqlTelemetry, logger);
    const apollo = createApollo({
      config,
      compiled,
      admission,
      httpServer,
      telemetry: graphqlTelemetry,
      logger,
      knownOperationNames: operationNames,
    });
    await apollo.start();
    cleanups.push(() => apollo.stop());
    const wss = new WebSocketServer({
      server: httpServer,
      path: GRAPHQL_PATH,
      maxPayload: config.limits.httpBodyLimitBytes,
    });
    const graphqlWs = attachGraphqlWs({
      wss,
      schema,
      admission,
      app,
      logger,
      telemetry: graphqlTelemetry,
      knownOperationNames: operationNames,
    });
    // Runs before apollo.stop(): close subscriptions first so nothing new arrives while draining.
    cleanups.push(() => graphqlWs.dispose());

    // Runs first on stop (cleanups run in reverse): refuse new requests with 503, close
    // subscriptions (1001), let in-flight requests finish within the grace, then close the rest.
    const gate = createShutdownGate();
    cleanups.push(async () => {
      gate.begin();
      await graphqlWs.dispose();
      const left = await gate.drained(config.limits.shutdownGraceMs);
      logger.info(
        { inFlight: left, graceMs: config.limits.shutdownGraceMs },
        left === 0 ? 'in-flight requests drained' : 'grace period over with requests in flight',
      );
    });
    const routes = createRoutes({
      graphqlPath: GRAPHQL_PATH,
      consolePath: CONSOLE_PATH,
      consoleDir: CONSOLE_BUILD_DIR,
      registry: app.registry,
      readiness: () => checkReadiness(app.db, services, { shuttingDown: gate.shuttingDown }),
    });
    // One node:http server: GraphQL (src/server/http.ts), and the routes beside it (src/server/routes.ts).
    const graphqlHttp = graphqlOverHttp(config, apollo, admission, app, logger);
    handle = (req: IncomingMessage, res: ServerResponse) => {
      if (!gate.admit(req, res)) return;
      const path = (req.url ?? '/').split('?', 1)[0];
      if (path === GRAPHQL_PATH || path === `${GRAPHQL_PATH}/`) graphqlHttp(req, res);
      else routes(req, res);
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
      compiledDocuments: () => compiled.compiledCount,
      stop: () => (stopping ??= stopAll().then(() => logger.info('stopped'))),
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** The HTTP server, with the slow-client bounds (src/config.ts derives each; Node answers 408). */
function createBoundedHttpServer(config: Config): Server {
  const httpServer = createServer({
    headersTimeout: config.limits.httpHeadersTimeoutMs,
    requestTimeout: config.limits.httpRequestTimeoutMs,
    // Node enforces the two timeouts above only when it checks, every 30 s by default: a
    // dripping client would then hold on up to 30 s past its bound.
    connectionsCheckingInterval: timeoutCheckIntervalMs(config.limits.httpHeadersTimeoutMs),
  });
  httpServer.keepAliveTimeout = config.limits.httpKeepAliveTimeoutMs;
  return httpServer;
}

/** The one admission screen both transports run every operation through (admission.ts). */
function createAdmission(
  config: Config,
  app: App,
  keyring: Keyring,
  telemetry: GraphqlTelemetry,
  logger: Logger,
): Admission {
  return new Admission({
    keyring,
    production: config.nodeEnv === 'production',
    batchMax: config.limits.graphqlBatchMax,
    queryLimits: queryLimitProtection(config.limits, telemetry),
    trustedDocuments: new TrustedDocuments(
      config.trustedDocuments,
      logger.child({ component: 'trustedDocuments' }),
      telemetry,
    ),
    rateLimiter: config.rateLimits
      ? new SharedRateLimiter(config.rateLimits, app.db, telemetry, logger.child({ component: 'rateLimit' }))
      : null,
    telemetry: telemetry,
  });
}

interface ApolloDeps {
  config: Config;
  compiled: CompiledExecution;
  admission: Admission;
  httpServer: Server;
  telemetry: GraphqlTelemetry;
  logger: Logger;
  knownOperationNames: Set<string>;
}

/** Apollo Server for GraphQL over HTTP: the admission screen's rules and plugin, and the app's own plugins. */
function createApollo({
  config,
  compiled,
  admission,
  httpServer,
  telemetry,
  logger,
  knownOperationNames,
}: ApolloDeps): ApolloServer<AppContext> {
  return new ApolloServer<AppContext>({
    // The app's schema, executed by compiledExecution.ts (Apollo takes an executor only from a gateway).
    gateway: compiled.gateway(),
    // Parsing aside, Apollo meets the admission screen (admission.ts) twice: its validation rules
    // (which refuse introspection in production: Apollo's own rule is off so that both transports
    // answer alike) and its plugin (rate limit, suggestions masked in production).
    validationRules: [...admission.validationRules],
    allowBatchedHttpRequests: config.limits.graphqlBatchMax > 1,
    introspection: true,
    stopOnTerminationSignals: false,
    // A 10-line stack trace on every error buries the message; only a developer who asks for
    // debug logs gets them (never in production).
    includeStacktraceInErrorResponses:
      config.nodeEnv !== 'production' && (config.logLevel === 'debug' || config.logLevel === 'trace'),
    formatError: (formatted, raw) => formatAppError(formatted, config.nodeEnv === 'production', raw),
    plugins: [
      // Off: Apollo installs both by default, and both run per request for nothing here. Cache
      // control ran a hook per resolved field to answer `no-store` every time (noStorePlugin
      // writes it); inline tracing only ever applies to a federated subgraph, which this is not.
      ApolloServerPluginCacheControlDisabled(),
      ApolloServerPluginInlineTraceDisabled(),
      noStorePlugin(),
      clientMistakeStatusPlugin(),
      ApolloServerPluginDrainHttpServer({ httpServer, stopGracePeriodMillis: config.limits.shutdownGraceMs }),
      config.nodeEnv === 'production'
        ? ApolloServerPluginLandingPageDisabled()
        : ApolloServerPluginLandingPageLocalDefault({ embed: true }),
      observabilityPlugin(telemetry, logger, { knownOperationNames }),
      consistencyPlugin(),
      unavailablePlugin(),
      admission.apolloPlugin<AppContext>(),
    ],
  });
}

/** GraphQL over HTTP straight from node:http (src/server/http.ts), behind the admission screen. */
function graphqlOverHttp(
  config: Config,
  apollo: ApolloServer<AppContext>,
  admission: Admission,
  app: App,
  logger: Logger,
) {
  return graphqlHttpHandler({
    apollo,
    bodyLimitBytes: config.limits.httpBodyLimitBytes,
    // Once per request: the screen (trusted documents' admin exception) and the context share it.
    authenticate: (authorization) => admission.authenticate(authorization),
    screen: (operations, auth) => admission.screenHttp(operations, auth),
    context: async (_req, auth) => createContext(app, auth, 'http'),
    logger,
  });
}

/** How often Node checks the header and request timeouts: a quarter of the headers' bound, within 100 ms–1 s. */
export function timeoutCheckIntervalMs(headersTimeoutMs: number): number {
  return Math.min(1_000, Math.max(100, Math.floor(headersTimeoutMs / 4)));
}

/**
 * Keys from API_KEYS; without them (never in production: config refuses) one admin key, kept in
 * DATA_DIR (src/access/adminKeyFile.ts) so a restart keeps it.
 */
async function createKeyring(config: Config, announce: (line: string) => void = writeToStderr) {
  if (config.apiKeys) return { keyring: new Keyring(config.apiKeys), generatedAdminKey: undefined };
  if (config.nodeEnv === 'production') throw new Error('API_KEYS is required when NODE_ENV=production');
  const { token, path, created } = await loadOrCreateAdminKey(config.dataDir);
  // Shown on the terminal at every start, so a developer can call the API; the logger never sees it.
  announce(
    `API_KEYS is unset: ${created ? 'generated a development admin key' : 'the development admin key'} (kept in ${path}, mode 0600; delete the file for a new one): ${token}`,
  );
  return { keyring: new Keyring([{ token, role: 'admin' }]), generatedAdminKey: token };
}

function writeToStderr(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** Before the app is ready: 503, come back in a second. */
function answerStarting(_req: IncomingMessage, res: ServerResponse): void {
  res.statusCode = 503;
  res.setHeader('retry-after', '1');
  res.setHeader('content-type', 'application/json');
  res.end(
    JSON.stringify({
      errors: [{ message: 'The server is starting; retry in a second', extensions: { code: 'STARTING' } }],
    }),
  );
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
