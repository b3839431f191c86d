import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { configDefaults, defineConfig, type TestUserConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

const INCLUDE = ['test/**/*.test.ts', 'packages/*/test/**/*.test.ts'];

/**
 * A test file that runs processes of its own (API processes, engine processes, a replica set's
 * members, a browser, redis, prometheus, a worker, `npm start`, a compiler) says so on a line of
 * its own:
 *
 *   // @module-tag processes
 *
 * (vitest's own file-tag syntax). Those files run first, a few at a time: their processes take
 * the CPU while they start, and their elections (1 s timeouts) and kills must not starve. Every
 * other file runs in the parallel group, many at a time, in reused workers. A file that starts a
 * process without the tag fails test/suite/groups.test.ts.
 *
 *   // @module-tag failpoints
 *
 * marks a file whose tests set failCommand: one fail point per server, so on a shared engine a
 * file's fault waits while another file's is on (test/support/failPoints.ts holds the engine's
 * fail-point lock), and beside each other those waits ate the tests' 30 s on a loaded machine.
 * Such a file calls `useOwnEngine()` (test/support/mongo.ts: an in-process emulator of its own when
 * the run's engine is the emulator) and runs in the parallel group; test/suite/groups.test.ts
 * checks that each tagged file does. The lock still guards an untagged file, and every file on a
 * real mongod.
 */
const PROCESSES_TAG = /^\s*(?:\/\/|\*)\s*@module-tag\s+processes\b/m;

/** The test files under `dir` (relative to the repository), found as INCLUDE's globs find them. */
function testFilesUnder(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : testFilesUnder(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Every test file of the run, relative to the repository. */
export const testFiles = [
  ...testFilesUnder('test'),
  ...readdirSync('packages', { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => testFilesUnder(join('packages', entry.name, 'test'))),
];
/** The files tagged `processes`: the group that runs first. */
export const processFiles = testFiles.filter((file) => PROCESSES_TAG.test(readFileSync(file, 'utf8')));
const FAILPOINTS_TAG = /^\s*(?:\/\/|\*)\s*@module-tag\s+failpoints\b/m;
/** The files tagged `failpoints` (and not `processes`): each on an engine of its own (useOwnEngine). */
export const failPointFiles = testFiles.filter(
  (file) => !processFiles.includes(file) && FAILPOINTS_TAG.test(readFileSync(file, 'utf8')),
);

/** The settings every configuration shares (vitest.faults, .bench and .mutation spread them). */
export const sharedTest = {
  include: INCLUDE,
  // type-graphql's decorators need the Reflect metadata API before any resolver file loads.
  setupFiles: ['reflect-metadata'],
  testTimeout: 30_000,
  hookTimeout: 30_000,
  // The emulator freezes each stored version, so a mutation of shared history throws at the
  // culprit. test/globalSetup.ts hands it to the run's shared engine too (env reaches workers only).
  env: { EMULATOR_FREEZE_DOCUMENTS: '1' },
  tags: [
    {
      name: 'processes',
      description: 'runs processes of its own: in the bounded group that runs first (vitest.config.ts)',
    },
    {
      name: 'failpoints',
      description:
        'sets fail points: on an engine of its own (useOwnEngine, test/support/mongo.ts), in the parallel group (vitest.config.ts)',
    },
  ],
} satisfies TestUserConfig;

const resolve = {
  // type-graphql loads graphql's CommonJS build; point every import at that one copy so that
  // schema objects are not "from another module or realm".
  alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
};

export default defineConfig({
  resolve,
  test: {
    ...sharedTest,
    reporters: ['default', './test/support/summaryReporter.ts'],
    // Once per run, in the main process: the one engine every file shares (own database names).
    // The groups below do not extend this configuration, so it is not run again per group.
    globalSetup: ['test/globalSetup.ts'],
    // Two groups, one after the other (vitest runs groupOrder 0, then 1). Most files wait on the
    // engine, elections or timers, not the CPU, so more workers than the 2 cores pay.
    projects: [
      {
        resolve,
        test: {
          ...sharedTest,
          name: 'processes',
          include: processFiles,
          maxWorkers: 3,
          // Reused workers, as in the parallel group: about 3.5 s of imports a file saved.
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        resolve,
        test: {
          ...sharedTest,
          name: 'parallel',
          exclude: [...configDefaults.exclude, ...processFiles],
          maxWorkers: 4,
          // A worker runs file after file without reloading the modules (about 0.5 s of imports a
          // file): files share no module state but the engine's URI, each with its own database.
          isolate: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
