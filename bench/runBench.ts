// `npm run bench [-- --quick] [--engine process|in-process] [--tracing off|on] [scenario ...]`: starts the engine
// (its own process by default, as production runs it), the API and the plain-driver baseline on
// it, runs the chosen scenarios one after another, prints one line per measurement, then checks
// the invariants. A scenario that fails (its set-up, or an engine that stops answering) is
// reported on its own line and the run goes on with the next, so a long run is not lost to one
// failure. Returns the exit code: 0 whatever the speed, 1 when an invariant broke or a scenario
// failed, 2 for a bad command line. `--tracing on` starts the OpenTelemetry SDK before the API, as
// OTEL_EXPORTER_OTLP_ENDPOINT does in production, exporting every span over OTLP/HTTP to a sink in
// this process that reads and drops them: the same scenario run with `off` and `on` in one sitting
// gives tracing's overhead (docs/observability.md).
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { emptyBook, type BenchContext } from './context.ts';
import { createGraphqlPool } from './graphqlPool.ts';
import { startEngineProcess } from './engineProcess.ts';
import { checkInvariants } from './invariants.ts';
import { formatLine } from './measured.ts';
import { connectRawDriver } from './rawDriver.ts';
import type { Scenario } from './scenario.ts';
import { scenarios as allScenarios, selectScenarios } from './scenarios/index.ts';
import { startBenchApp } from './startBenchApp.ts';
import { startTracing } from '../src/observability/tracing.ts';

/** The widest scenario runs 32 callers at once; each gets its own keep-alive connection. */
const POOL_CONNECTIONS_MAX = 32;

export interface RunBenchOptions {
  argv: readonly string[];
  env: NodeJS.ProcessEnv;
  write(line: string): void;
  /** The scenarios a command line picks from (all of them by default). */
  scenarios?: readonly Scenario[];
}

export async function runBench({ argv, env, write, scenarios = allScenarios }: RunBenchOptions): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    options: {
      quick: { type: 'boolean', default: false },
      engine: { type: 'string', default: 'process' },
      tracing: { type: 'string', default: 'off' },
    },
    allowPositionals: true,
  });
  const { selected, unknown } = selectScenarios(positionals, scenarios);
  if (unknown.length > 0) {
    write(`unknown scenario ${unknown.join(', ')}; known: ${scenarios.map((scenario) => scenario.name).join(', ')}`);
    return 2;
  }
  if (values.engine !== 'process' && values.engine !== 'in-process') {
    write(`unknown --engine ${values.engine}; known: process, in-process`);
    return 2;
  }
  if (values.tracing !== 'off' && values.tracing !== 'on') {
    write(`unknown --tracing ${values.tracing}; known: off, on`);
    return 2;
  }
  const mode = values.quick ? 'quick' : 'full';
  const runId = randomBytes(4).toString('hex');
  write(
    `bench ${runId}: ${mode} run, ${selected.length} scenario(s), Node ${process.version}, ${availableParallelism()} cores, loopback`,
  );
  const engine = await startEngine(env, values.engine);
  // Before the app: the server decides once, as it is built, whether it traces.
  const tracing = values.tracing === 'on' ? await startSpanSink() : null;
  const app = await startBenchApp({ ...env, MONGO_ENGINE: undefined, MONGODB_URI: engine.uri }, runId).catch(
    async (error: unknown) => {
      await tracing?.stop();
      await engine.stop();
      throw error;
    },
  );
  write(
    tracing
      ? `tracing: on, every span exported over OTLP/HTTP to ${tracing.url}`
      : 'tracing: off (no OpenTelemetry SDK)',
  );
  const raw = await connectRawDriver(engine.uri, app.server.db.databaseName);
  const pool = createGraphqlPool(app.server.url, POOL_CONNECTIONS_MAX);
  try {
    write(`engine: ${engine.describe ?? `${app.server.engine.kind}, because ${app.server.engine.reason}`}`);
    const context: BenchContext = {
      pool,
      db: app.server.db,
      keys: app.keys,
      runId,
      mode,
      book: emptyBook(),
      raw,
      mongoUri: engine.uri,
      app: { wsUrl: app.server.wsUrl, subscriberCount: () => app.server.services.liveFeeds.workItems.subscriberCount },
    };
    const failed: string[] = [];
    for (const scenario of selected) {
      write(`▶ ${scenario.name}: ${scenario.describe(mode)}`);
      try {
        for (const measured of await scenario.run(context)) write(formatLine(measured));
      } catch (error) {
        failed.push(scenario.name);
        write(
          `✗ ${scenario.name} failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
        );
      }
    }
    const checks = [...(await checkInvariants(app.server.db, context.book)), ...(await raw.checkInvariants())];
    for (const check of checks) write(`${check.holds ? '✓' : '✗'} invariant: ${check.name} (${check.detail})`);
    const broken = checks.filter((check) => !check.holds).length;
    write(broken === 0 ? 'invariants hold' : `${broken} invariant(s) BROKEN`);
    if (failed.length > 0) write(`${failed.length} scenario(s) FAILED: ${failed.join(', ')}`);
    return broken === 0 && failed.length === 0 ? 0 : 1;
  } finally {
    await pool.close();
    await raw.close();
    await app.stop();
    if (tracing) write(`tracing: ${(await tracing.stop()).posts} OTLP export(s) received`);
    await engine.stop();
  }
}

/** The OpenTelemetry SDK started with an OTLP/HTTP exporter to a sink on a free loopback port. */
async function startSpanSink(): Promise<{ url: string; stop(): Promise<{ posts: number }> }> {
  let posts = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      posts++;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const tracing = startTracing({ endpoint: url, serviceName: 'precondition-bench' });
  return {
    url,
    async stop() {
      await tracing.shutdown();
      await new Promise((resolve) => server.close(resolve));
      return { posts };
    },
  };
}

interface BenchEngine {
  uri: string;
  /** How the engine line reads when the bench started the engine itself. */
  describe: string | null;
  stop(): Promise<void>;
}

/** MONGODB_URI when given; else the emulator, in its own process (default) or in this one. */
async function startEngine(env: NodeJS.ProcessEnv, where: 'process' | 'in-process'): Promise<BenchEngine> {
  if (env['MONGODB_URI']) return { uri: env['MONGODB_URI'], describe: null, stop: async () => undefined };
  if (where === 'process') {
    const engine = await startEngineProcess();
    return {
      uri: engine.uri,
      describe: `emulator in its own process (mongo-emulator CLI, pid ${engine.pid})`,
      stop: () => engine.stop(),
    };
  }
  const { startEmulator } = await import('@precondition/mongo-emulator');
  const emulator = await startEmulator({ port: 0, replSetName: 'rs0' });
  return {
    uri: emulator.uri,
    describe: 'emulator in the bench process (--engine in-process)',
    stop: () => emulator.stop(),
  };
}
