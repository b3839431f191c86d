// The check behind test/suite/groups.test.ts: which test files start a process of their own and
// lack the `// @module-tag processes` tag. It lives here because a test file exports nothing.

/**
 * What starts a process: node's child_process, and the helpers built on it (test/support,
 * bench, the emulator's test helpers). A new helper that starts one belongs here.
 */
const STARTS_A_PROCESS = new RegExp(
  `\\b(${[
    'node:child_process',
    // test/support/app.ts and bench/engineProcess.ts: API processes, `npm start`, node, the emulator's CLI.
    'startAppProcess',
    'startEngineProcess',
    'spawnMain',
    'spawnNode',
    'spawnCommand',
    // a browser, redis, a replica set's members, a payout worker, a projection child.
    'launchChromium',
    'startTestRedis',
    'startTestReplSet',
    'startReplicaSet',
    'startPayoutWorkerProcess',
    'startProjectionChild',
    'runPayouts',
    // the emulator's own process tests (packages/mongo-emulator/test/repl, durability).
    'watchReadmeSet',
    'startNode',
    'runToExit',
    'wholeSetKill',
    'seed002Q3',
    'memberRejoins',
    'memberFellOffTheOplog',
    'launcherBringsTheSetBack',
    'singleNodeD1',
  ].join('|')})\\b`,
);

/** The files that start a process and are not tagged, among `files`. */
export function untaggedProcessFiles(
  files: ReadonlyArray<{ file: string; text: string }>,
  tagged: readonly string[],
): string[] {
  return files
    .filter(({ file, text }) => STARTS_A_PROCESS.test(text) && !tagged.includes(file))
    .map(({ file }) => file);
}
