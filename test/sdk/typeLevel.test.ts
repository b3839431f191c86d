// @module-tag processes
// Proves match() is exhaustive at compile time: the TypeScript compiler accepts a fixture that
// handles every member plus `unknown`, and rejects one that omits a member or `unknown`.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURES = ['matchComplete.ts', 'matchMissingBranch.ts', 'matchMissingUnknown.ts'].map(
  (name) => `test/sdk/fixtures/${name}`,
);

async function tscErrors(files: string[]): Promise<string> {
  const args = [
    '--ignoreConfig',
    '--noEmit',
    '--strict',
    '--target',
    'es2022',
    '--module',
    'nodenext',
    '--moduleResolution',
    'nodenext',
  ];
  args.push('--allowImportingTsExtensions', '--skipLibCheck', '--types', 'node', ...files);
  try {
    await promisify(execFile)(`${ROOT}node_modules/.bin/tsc`, args, { cwd: ROOT });
    return '';
  } catch (error) {
    return String((error as { stdout?: string }).stdout);
  }
}

describe('match() at compile time', () => {
  it('accepts every member handled, rejects a missing member and a missing unknown branch', async () => {
    const output = await tscErrors(FIXTURES);
    expect(output).not.toContain('matchComplete.ts');
    expect(output).toMatch(
      /matchMissingBranch\.ts\(\d+,\d+\): error TS2345[^\n]*\n\s+Property 'OutcomeUnknown' is missing/,
    );
    expect(output).toMatch(/matchMissingUnknown\.ts\(\d+,\d+\): error TS2345[^\n]*\n\s+Property 'unknown' is missing/);
    expect(output.match(/error TS/g)).toHaveLength(2);
  });
});
