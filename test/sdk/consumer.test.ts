// @module-tag processes
// Proves @precondition/sdk works as a service would get it: `npm pack` of a copy of
// packages/sdk that has never been built (no dist/, as in a fresh clone), so only the package's
// own prepack script can build what the tarball holds; installed from the tarball into a project
// outside the repository (no network: its dependencies come packed from this repository's
// node_modules), the README's "Using the SDK" example compiled there with `tsc --strict`
// (declarations checked, no skipLibCheck) and run with plain `node` against the running API.
// An earlier version built dist/ itself and packed with --ignore-scripts, so it passed while a
// fresh clone packed a tarball without dist/: the test must not do the package's work for it.
import { execFile, spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/waiting.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);
/** What the tarball and the example need besides the SDK, packed from the repo's own copies. */
const PACKED_DEPENDENCIES = ['graphql-ws', '@opentelemetry/api', '@graphql-typed-document-node/core', 'graphql', 'ws', '@types/node', 'undici-types', '@types/ws'];

function readmeExample(readme: string): string {
  const block = /<!-- sdk-example:start -->\s*```ts\n([\s\S]*?)```\s*<!-- sdk-example:end -->/.exec(readme);
  if (!block?.[1]) throw new Error('README.md has no sdk-example block between its markers');
  return block[1];
}

type Packed = { name: string; filename: string; size: number; unpackedSize: number; files: Array<{ path: string }> };

async function pack(specs: string[], destination: string, options: { cwd?: string; scripts?: boolean } = {}): Promise<Packed[]> {
  const flags = options.scripts ? [] : ['--ignore-scripts'];
  const { stdout } = await run('npm', ['pack', '--json', ...flags, '--pack-destination', destination, ...specs], { cwd: options.cwd ?? ROOT });
  // npm prints the lifecycle scripts' output before the JSON when scripts run.
  return JSON.parse(stdout.slice(stdout.search(/^\[/m))) as Packed[];
}

/**
 * packages/sdk as a fresh clone has it: its tracked sources without dist/, under a root whose
 * node_modules is the repository's (as `npm ci` at the root would make it).
 */
async function unbuiltSdkCopy(into: string): Promise<string> {
  const sdk = join(into, 'packages/sdk');
  await cp(`${ROOT}packages/sdk`, sdk, { recursive: true, filter: (source) => !/[\\/](dist|node_modules)$/.test(source) });
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
  it('installs, compiles the README example under tsc --strict and runs it on node against the API', async () => {
    const source = await unbuiltSdkCopy(join(dir, 'clone'));
    const deps = join(dir, 'deps');
    await mkdir(deps);
    const [sdk] = await pack([], dir, { cwd: source, scripts: true });
    const files = sdk!.files.map((file) => file.path);
    expect(files).toEqual(expect.arrayContaining(['dist/index.js', 'dist/index.d.ts', 'README.md', 'LICENSE', 'trusted-documents.json']));
    const packed = await pack(PACKED_DEPENDENCIES.map((name) => `./node_modules/${name}`), deps);
    console.log(`@precondition/sdk tarball: ${sdk!.filename}, ${sdk!.size} bytes packed, ${sdk!.unpackedSize} unpacked`);

    const project = join(dir, 'consumer');
    await mkdir(project);
    const dependencies = Object.fromEntries([
      ['@precondition/sdk', `file:../${sdk!.filename}`],
      ...packed.map((dep) => [dep.name, `file:../deps/${dep.filename}`]),
    ]);
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module', dependencies }, null, 2));
    const tsconfig = { compilerOptions: { strict: true, target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', types: ['node'], outDir: 'dist' }, files: ['example.ts'] };
    await writeFile(join(project, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
    await writeFile(join(project, 'example.ts'), readmeExample(await readFile(`${ROOT}README.md`, 'utf8')));

    await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: project });
    const installed = JSON.parse(await readFile(join(project, 'node_modules/@precondition/sdk/package.json'), 'utf8')) as { version: string };
    expect(installed.version).toBe('0.1.0');
    await run(`${ROOT}node_modules/.bin/tsc`, ['-p', 'tsconfig.json', '--strict'], { cwd: project });

    // The example runs until its subscription sees a work item created; make one once it listens.
    const feed = app.services.liveFeeds.workItems;
    const listenersBefore = feed.subscriberCount;
    const child = spawn(process.execPath, ['dist/example.js'], {
      cwd: project,
      env: { PATH: process.env['PATH'], PRECONDITION_URL: app.url, PRECONDITION_API_KEY: app.keys.admin },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    await eventually(() => expect(feed.subscriberCount).toBe(listenersBefore + 1), { timeout: 20_000, interval: 50 });
    await app.gql('mutation { createWorkItem(input: { kind: "README_SDK", idempotencyKey: "readme-sdk-1" }) { __typename } }');
    expect(await exited, stderr).toBe(0);
    console.log(`example output:\n${stdout}`);

    expect(stdout.trim().split('\n')).toEqual([
      'deposit: DepositSuccess after 1 attempt(s)',
      'withdrew 200, balance 300',
      'balance: 300',
      'error: BAD_USER_INPUT',
      'event: README_SDK PENDING version 1',
      'worker: ClaimSuccess, HeartbeatSuccess, DONE version 3',
    ]);
  }, 120_000);
});
