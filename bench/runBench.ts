// `npm run bench [-- --quick] [scenario ...]`: starts the API, runs the chosen scenarios one after
// another, prints one line per measurement, then checks the invariants. Returns the exit code:
// 0 whatever the speed, 1 when an invariant broke, 2 for a bad command line.
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { emptyBook, type BenchContext } from './context.ts';
import { createGraphqlPool } from './graphqlPool.ts';
import { checkInvariants } from './invariants.ts';
import { formatMeasured } from './measured.ts';
import { scenarios, selectScenarios } from './scenarios/index.ts';
import { startBenchApp } from './startBenchApp.ts';

/** The widest scenario runs 32 callers at once; each gets its own keep-alive connection. */
const POOL_CONNECTIONS_MAX = 32;

export interface RunBenchOptions {
  argv: readonly string[];
  env: NodeJS.ProcessEnv;
  write(line: string): void;
}

export async function runBench({ argv, env, write }: RunBenchOptions): Promise<number> {
  const { values, positionals } = parseArgs({ args: [...argv], options: { quick: { type: 'boolean', default: false } }, allowPositionals: true });
  const { selected, unknown } = selectScenarios(positionals);
  if (unknown.length > 0) {
    write(`unknown scenario ${unknown.join(', ')}; known: ${scenarios.map((scenario) => scenario.name).join(', ')}`);
    return 2;
  }
  const mode = values.quick ? 'quick' : 'full';
  const runId = randomBytes(4).toString('hex');
  write(`bench ${runId}: ${mode} run, ${selected.length} scenario(s), Node ${process.version}, ${availableParallelism()} cores, loopback`);
  const app = await startBenchApp(env, runId);
  const pool = createGraphqlPool(app.server.url, POOL_CONNECTIONS_MAX);
  try {
    write(`engine: ${app.server.engine.kind}, because ${app.server.engine.reason}`);
    const context: BenchContext = { pool, keys: app.keys, runId, mode, book: emptyBook(), db: app.server.db };
    for (const scenario of selected) {
      write(`▶ ${scenario.name}: ${scenario.describe(mode)}`);
      for (const measured of await scenario.run(context)) write(formatMeasured(measured));
    }
    const checks = await checkInvariants(app.server.db, context.book);
    for (const check of checks) write(`${check.holds ? '✓' : '✗'} invariant: ${check.name} (${check.detail})`);
    const broken = checks.filter((check) => !check.holds).length;
    write(broken === 0 ? 'invariants hold' : `${broken} invariant(s) BROKEN`);
    return broken === 0 ? 0 : 1;
  } finally {
    await pool.close();
    await app.stop();
  }
}
