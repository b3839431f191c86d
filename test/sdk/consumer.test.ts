// @module-tag processes
// Proves @precondition/sdk works as a service would get it: `npm pack` of a copy of
// packages/sdk that has never been built (no dist/, as in a fresh clone), so only the package's
// own prepack script can build what the tarball holds; installed from the tarball into a project
// outside the repository (no network: its dependencies come packed from this repository's
// node_modules), the README's "Using the SDK" example and the SDK's own README (its TypeScript
// blocks, one program) compiled there with `tsc --strict` (declarations checked, no skipLibCheck)
// and run with plain `node` against the running API until they finish by themselves: nothing is
// done for them on the side (an earlier version created the work item the example waited for, so
// the test passed while the example as printed hung). The SDK README's install line names every
// package the compile needs.
// An earlier version built dist/ itself and packed with --ignore-scripts, so it passed while a
// fresh clone packed a tarball without dist/: the test must not do the package's work for it.
import { execFile, spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);
/** What the tarball and the example need besides the SDK, packed from the repo's own copies. */
const PACKED_DEPENDENCIES = [
  'graphql-ws',
  '@opentelemetry/api',
  '@graphql-typed-document-node/core',
  'graphql',
  'ws',
  '@types/node',
  'undici-types',
  '@types/ws',
];

function readmeExample(readme: string): string {
  const block = /<!-- sdk-example:start -->\s*```ts\n([\s\S]*?)```\s*<!-- sdk-example:end -->/.exec(readme);
  if (!block?.[1]) throw new Error('README.md has no sdk-example block between its markers');
  return block[1];
}

/** The SDK README's program: its ```ts blocks between the markers, in order. */
function sdkReadmeProgram(readme: string): string {
  const part = /<!-- sdk-readme:start -->([\s\S]*?)<!-- sdk-readme:end -->/.exec(readme)?.[1];
  if (!part) throw new Error('packages/sdk/README.md has no sdk-readme part between its markers');
  const blocks = [...part.matchAll(/```ts\n([\s\S]*?)```/g)].map(([, code]) => code!);
  expect(blocks.length).toBeGreaterThanOrEqual(5);
  return blocks.join('\n');
}

/** The packages the SDK README's `npm install` lines name, the tarball left out. */
function installedByReadme(readme: string): string[] {
  const block = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
  return block
    .split('\n')
    .filter((line) => line.startsWith('npm install'))
    .flatMap((line) => line.replace(/#.*$/, '').split(/\s+/).slice(2))
    .filter((word) => word !== '' && !word.startsWith('-') && !word.endsWith('.tgz'));
}

/** Runs a compiled program with the API's URL and key, to its end; its exit code and output. */
async function runToEnd(
  project: string,
  file: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const started = Date.now();
  const child = spawn(process.execPath, [file], { cwd: project, env: { PATH: process.env['PATH'], ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearTimeout(timer);
  return { code, stdout, stderr, ms: Date.now() - started };
}

type Packed = { name: string; filename: string; size: number; unpackedSize: number; files: Array<{ path: string }> };

async function pack(
  specs: string[],
  destination: string,
  options: { cwd?: string; scripts?: boolean } = {},
): Promise<Packed[]> {
  const flags = options.scripts ? [] : ['--ignore-scripts'];
  const { stdout } = await run('npm', ['pack', '--json', ...flags, '--pack-destination', destination, ...specs], {
    cwd: options.cwd ?? ROOT,
  });
  // npm prints the lifecycle scripts' output before the JSON when scripts run.
  return JSON.parse(stdout.slice(stdout.search(/^\[/m))) as Packed[];
}

/**
 * packages/sdk as a fresh clone has it: its tracked sources without dist/, under a root whose
 * node_modules is the repository's (as `npm ci` at the root would make it).
 */
async function unbuiltSdkCopy(into: string): Promise<string> {
  const sdk = join(into, 'packages/sdk');
  await cp(`${ROOT}packages/sdk`, sdk, {
    recursive: true,
    filter: (source) => !/[\\/](dist|node_modules)$/.test(source),
  });
  await symlink(`${ROOT}node_modules`, join(into, 'node_modules'), 'dir');
  return sdk;
}

let app: TestApp;
let dir: string;
beforeAll(async () => {
  app = await startTestApp();
  dir = await mkdtemp(join(tmpdir(), 'precondition-sdk-consumer-'));
});
afterAll(async () => {
  await app?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the packed SDK in a project outside the repository', () => {
  it('installs, compiles the README example and the SDK README program under tsc --strict, and runs each to its end on node against the API', async () => {
    const source = await unbuiltSdkCopy(join(dir, 'clone'));
    const deps = join(dir, 'deps');
    await mkdir(deps);
    const [sdk] = await pack([], dir, { cwd: source, scripts: true });
    const files = sdk!.files.map((file) => file.path);
    expect(files).toEqual(
      expect.arrayContaining(['dist/index.js', 'dist/index.d.ts', 'README.md', 'LICENSE', 'trusted-documents.json']),
    );
    const packed = await pack(
      PACKED_DEPENDENCIES.map((name) => `./node_modules/${name}`),
      deps,
    );
    console.log(
      `@precondition/sdk tarball: ${sdk!.filename}, ${sdk!.size} bytes packed, ${sdk!.unpackedSize} unpacked`,
    );

    const project = join(dir, 'consumer');
    await mkdir(project);
    const dependencies = Object.fromEntries([
      ['@precondition/sdk', `file:../${sdk!.filename}`],
      ...packed.map((dep) => [dep.name, `file:../deps/${dep.filename}`]),
    ]);
    await writeFile(
      join(project, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true, type: 'module', dependencies }, null, 2),
    );
    const tsconfig = {
      compilerOptions: {
        strict: true,
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        types: ['node'],
        outDir: 'dist',
      },
      files: ['example.ts', 'sdk-readme.ts'],
    };
    await writeFile(join(project, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
    await writeFile(join(project, 'example.ts'), readmeExample(await readFile(`${ROOT}README.md`, 'utf8')));
    const sdkReadme = await readFile(`${ROOT}packages/sdk/README.md`, 'utf8');
    await writeFile(join(project, 'sdk-readme.ts'), sdkReadmeProgram(sdkReadme));
    // What the README tells a TypeScript user to install is what this project has (ws's types included).
    const named = installedByReadme(sdkReadme);
    expect(named).toEqual(expect.arrayContaining(['ws', '@types/ws', '@types/node', 'typescript']));
    for (const name of named.filter((name) => name !== 'typescript')) expect(PACKED_DEPENDENCIES).toContain(name);

    await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: project });
    const installed = JSON.parse(
      await readFile(join(project, 'node_modules/@precondition/sdk/package.json'), 'utf8'),
    ) as { version: string };
    expect(installed.version).toBe('0.1.0');
    await run(`${ROOT}node_modules/.bin/tsc`, ['-p', 'tsconfig.json', '--strict'], { cwd: project }).catch(
      (error: { stdout?: string; message: string }) => {
        throw new Error(`the examples do not compile under --strict:\n${error.stdout ?? error.message}`);
      },
    );

    const env = { PRECONDITION_URL: app.url, PRECONDITION_API_KEY: app.keys.admin };
    const example = await runToEnd(project, 'dist/example.js', env);
    console.log(`example output (${example.ms} ms):\n${example.stdout}`);
    expect(example.code, example.stderr).toBe(0);
    expect(example.stdout.trim().split('\n')).toEqual([
      'deposit: DepositSuccess after 1 attempt(s)',
      'withdrew 200, balance 300',
      'balance: 300',
      'transfer: AccountNotFound',
      'worker: ClaimSuccess, HeartbeatSuccess, DONE version 3',
      'event: README_SDK DONE version 3',
    ]);

    const program = await runToEnd(project, 'dist/sdk-readme.js', env);
    console.log(`SDK README program output (${program.ms} ms):\n${program.stdout}${program.stderr}`);
    expect(program.code, program.stderr).toBe(0);
    expect(program.stderr).toBe('');
    const lines = program.stdout
      .trim()
      .split('\n')
      .map((line) => line.replace(/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/g, '<uuid>'));
    // The creation's event arrives if the subscription was open by then (usually); the rest always.
    expect(lines.filter((line) => line !== 'event: EMAIL PENDING version 1').sort()).toEqual(
      [
        'DepositSuccess <uuid> 1',
        'acct-1 holds 500 EUR; 0 failed work item(s) on this page',
        'balance 300',
        'transfer: AccountNotFound',
        'createWorkItem: CreateWorkItemSuccess',
        'email sent: {"to":"ops@example.com"}',
        'event: EMAIL PROCESSING version 2',
        'event: EMAIL DONE version 3',
      ].sort(),
    );
    expect(lines.at(-1)).toBe('event: EMAIL DONE version 3');
  }, 240_000);
});
