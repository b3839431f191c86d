// npm test runs in two groups (vitest.config.ts): the files tagged `// @module-tag processes` first,
// a few at a time, then every other file four at a time. A file that starts processes of its own
// and forgets the tag lands in the crowded group, where its processes' start-up and elections
// starve (and slow everything beside them). This names each such file.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { processFiles, testFiles } from '../../vitest.config.ts';

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

describe('test groups', () => {
  it('tags every file that starts a process of its own, so that it runs in the processes group', () => {
    // This file names the helpers without calling them.
    const files = testFiles
      .filter((file) => file !== 'test/suite/groups.test.ts')
      .map((file) => ({ file, text: readFileSync(file, 'utf8') }));
    expect(files.length).toBeGreaterThan(200);
    expect(untaggedProcessFiles(files, processFiles)).toEqual([]);
  });

  it('meta: a file that spawns without the tag is named, one with the tag is not', () => {
    const spawning = { file: 'test/x/spawns.test.ts', text: "import { startAppProcess } from '../support/app.ts';" };
    const compiling = { file: 'test/x/compiles.test.ts', text: "import { execFile } from 'node:child_process';" };
    const inProcess = { file: 'test/x/inProcess.test.ts', text: "import { startTestApp } from '../support/app.ts';" };
    expect(untaggedProcessFiles([spawning, compiling, inProcess], [])).toEqual([spawning.file, compiling.file]);
    expect(untaggedProcessFiles([spawning, compiling, inProcess], [spawning.file, compiling.file])).toEqual([]);
    // The real list is read from the tag, not made up: the replica-set failover files are in it.
    expect(processFiles).toContain('test/health/replicaSet.test.ts');
  });
});
