// `npm run test:spec [paths…] [--write-known-failures] [--filter text] [--topology one|three] [--dbpath]`: runs unified-format spec
// test files through the Node driver against MONGODB_URI, or against an emulator started here.
// Exit code 1 when a test outside known-failures.json fails, a listed test fails differently, or
// a listed test no longer fails.
import { appendFileSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MongoClient } from 'mongodb';
import { judge, loadKnownFailures, ratchetFails, regenerate, writeKnownFailures } from './knownFailures.ts';
import { formatFailure, formatSkips, formatTable, formatVerdict, summaryLine } from './report.ts';
import { gatherServerFacts } from './requirements.ts';
import { killAllSessions } from './runTest.ts';
import { runFile, type TestReport } from './runFile.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = resolve(HERE, '../../../..');
const DEFAULT_SPEC_PATH = resolve(REPO_ROOT, '../shared/mongo-spec-tests');
/**
 * The ratchet's list per topology: the one-node emulator (`known-failures.json`) and the
 * three-member replica set of processes (`--topology three`: `known-failures.three.json`).
 */
const KNOWN_FAILURES_PATHS = {
  one: join(HERE, 'known-failures.json'),
  three: join(HERE, 'known-failures.three.json'),
} as const;
/** The three-member topology's election timeout: failovers within a test's bound (mongod's default is 10 s). */
const THREE_MEMBER_ELECTION_TIMEOUT_MS = 2000;
const THREE_MEMBER_HEARTBEAT_INTERVAL_MS = 500;
/** Bound on one test; change streams wait for events, fail points block connections. */
const TEST_TIMEOUT_MS = Number(process.env.SPEC_TEST_TIMEOUT_MS ?? 15_000);
/** Bound on how deep a directory of test files is searched. */
const DIRECTORY_DEPTH_MAX = 8;

interface CliOptions {
  paths: string[];
  writeKnownFailures: boolean;
  filter?: string;
  topology: keyof typeof KNOWN_FAILURES_PATHS;
  /** --dbpath: the emulator keeps its data in a fresh temporary directory (journal, checkpoints), as `npm start` runs it. */
  dbpath: boolean;
}

function parseArgs(argv: string[]): CliOptions {
  const options: CliOptions = { paths: [], writeKnownFailures: false, topology: 'one', dbpath: false };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === '--write-known-failures') options.writeKnownFailures = true;
    else if (arg === '--topology') {
      const topology = argv[++i];
      if (topology !== 'one' && topology !== 'three')
        throw new Error(`--topology must be one or three, got ${String(topology)}`);
      options.topology = topology;
    } else if (arg === '--filter') options.filter = argv[++i];
    else if (arg === '--dbpath') options.dbpath = true;
    else if (arg.startsWith('--')) throw new Error(`unknown option ${arg}`);
    else options.paths.push(resolve(arg));
  }
  if (options.paths.length === 0) options.paths.push(DEFAULT_SPEC_PATH);
  return options;
}

function testFiles(path: string, depth = 0): string[] {
  if (depth > DIRECTORY_DEPTH_MAX) throw new Error(`${path}: directories nested deeper than ${DIRECTORY_DEPTH_MAX}`);
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => {
      const child = join(path, name);
      return statSync(child).isDirectory() ? testFiles(child, depth + 1) : name.endsWith('.json') ? [child] : [];
    });
}

async function main(): Promise<number> {
  const options = parseArgs(process.argv.slice(2));
  const files = options.paths
    .flatMap((path) => testFiles(path))
    .filter((f) => options.filter === undefined || f.includes(options.filter));
  // Loaded only when needed, so a run against MONGODB_URI does not depend on the emulator's code.
  const emulator = process.env.MONGODB_URI ? undefined : await startTopology(options.topology, options.dbpath);
  const uri = process.env.MONGODB_URI ?? emulator!.uri;
  const KNOWN_FAILURES_PATH = KNOWN_FAILURES_PATHS[options.topology];
  console.log(
    `[test:spec] ${files.length} files against ${emulator ? `the emulator (${options.topology === 'one' ? 'one node' : 'three member processes'}${options.dbpath ? ', on a dbpath' : ', in memory'}) at ${uri}` : 'MONGODB_URI'}`,
  );
  const internalClient = new MongoClient(uri);
  const reports: TestReport[] = [];
  try {
    await internalClient.connect();
    const facts = await gatherServerFacts(internalClient, uri);
    console.log(`[test:spec] server ${facts.version}, topology ${facts.topology}`);
    await killAllSessions(internalClient);
    for (const file of files) {
      const fileReports = await runFile(file, { uri, internalClient, facts, testTimeoutMs: TEST_TIMEOUT_MS });
      for (const report of fileReports.filter((r) => r.status === 'failed')) console.log(formatFailure(report));
      reports.push(...fileReports);
    }
  } finally {
    await internalClient.close(true);
    await emulator?.stop();
  }
  const known = loadKnownFailures(KNOWN_FAILURES_PATH);
  if (options.writeKnownFailures) {
    writeKnownFailures(KNOWN_FAILURES_PATH, regenerate(reports, known));
    console.log(`[test:spec] wrote ${KNOWN_FAILURES_PATH}: give every new entry its one-line reason before committing`);
  }
  const verdict = judge(reports, options.writeKnownFailures ? loadKnownFailures(KNOWN_FAILURES_PATH) : known);
  console.log('');
  for (const line of [...formatSkips(reports), '', ...formatTable(reports), '', ...formatVerdict(verdict)])
    console.log(line);
  console.log(summaryLine(reports));
  return ratchetFails(verdict) ? 1 : 0;
}

async function startTopology(
  topology: CliOptions['topology'],
  onDbpath: boolean,
): Promise<{ uri: string; stop(): Promise<void> }> {
  const emulator = await import('@precondition/mongo-emulator');
  const dbpath = onDbpath ? mkdtempSync(join(tmpdir(), 'spec-dbpath-')) : undefined;
  const removing = <T extends { stop(): Promise<void> }>(running: T): T & { uri: string } => {
    const stop = running.stop.bind(running);
    return Object.assign(running, {
      async stop() {
        await stop();
        if (dbpath) rmSync(dbpath, { recursive: true, force: true });
      },
    }) as T & { uri: string };
  };
  if (topology === 'one')
    return removing(await emulator.startEmulator({ port: 0, replSetName: 'rs0', ...(dbpath ? { dbpath } : {}) }));
  // SPEC_MEMBER_LOG=path keeps the members' own logs (elections, syncing, warnings) for a failed run.
  const log = process.env.SPEC_MEMBER_LOG;
  return emulator
    .startReplicaSet({
      nodes: 3,
      replSetName: 'rs0',
      electionTimeoutMillis: THREE_MEMBER_ELECTION_TIMEOUT_MS,
      heartbeatIntervalMillis: THREE_MEMBER_HEARTBEAT_INTERVAL_MS,
      onOutput: log ? (index, line) => appendFileSync(log, `[member ${index}] ${line}\n`) : undefined,
      ...(dbpath ? { dbpath } : {}),
    })
    .then(removing);
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(2);
  },
);
