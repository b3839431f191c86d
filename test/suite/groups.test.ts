// npm test runs in two groups (vitest.config.ts): the files tagged `// @module-tag processes` first,
// a few at a time, then every other file four at a time (those tagged `failpoints` each on an
// engine of its own). A file that starts processes of its own
// and forgets the tag lands in the crowded group, where its processes' start-up and elections
// starve (and slow everything beside them). This names each such file.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { failPointFiles, processFiles, testFiles } from '../../vitest.config.ts';
import { untaggedProcessFiles } from '../support/untaggedProcessFiles.ts';

describe('test groups', () => {
  it('tags every file that starts a process of its own, so that it runs in the processes group', () => {
    // This file names the helpers without calling them.
    const files = testFiles
      .filter((file) => file !== 'test/suite/groups.test.ts')
      .map((file) => ({ file, text: readFileSync(file, 'utf8') }));
    expect(files.length).toBeGreaterThan(200);
    expect(untaggedProcessFiles(files, processFiles)).toEqual([]);
  });

  it('gives each file tagged failpoints an engine of its own, so that its faults wait on no other file', () => {
    expect(failPointFiles).toContain('test/work/elections.test.ts');
    const shared = failPointFiles.filter((file) => !/^useOwnEngine\(\);$/m.test(readFileSync(file, 'utf8')));
    expect(shared).toEqual([]);
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
