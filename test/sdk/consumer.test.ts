// Proves @precondition/sdk works as a service would use it: built, packed with `npm pack`,
// installed from the tarball into a project outside the repository (no network: its
// dependencies come packed from this repository's node_modules), the README's "Using the SDK"
// example compiled there with `tsc --strict` (declarations checked, no skipLibCheck) and run with
// plain `node` against the running API.
import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
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
const PACKED_DEPENDENCIES = ['graphql-ws', '@graphql-typed-document-node/core', 'graphql', 'ws', '@types/node', 'undici-types', '@types/ws'];

function readmeExample(readme: string): string {
  const block = /<!-- sdk-example:start -->\s*```ts\n([\s\S]*?)```\s*<!-- sdk-example:end -->/.exec(readme);
  if (!block?.[1]) throw new Error('README.md has no sdk-example block between its markers');
  return block[1];
}

async function pack(specs: string[], destination: string): Promise<Array<{ name: string; filename: string; size: number; unpackedSize: number }>> {
  const { stdout } = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', destination, ...specs], { cwd: ROOT });
  return JSON.parse(stdout) as Array<{ name: string; filename: string; size: number; unpackedSize: number }>;
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
    await rm(`${ROOT}packages/sdk/dist`, { recursive: true, force: true });
    await run(`${ROOT}node_modules/.bin/tsc`, ['-p', 'packages/sdk/tsconfig.build.json'], { cwd: ROOT });
    const deps = join(dir, 'deps');
    await mkdir(deps);
    const [sdk] = await pack(['./packages/sdk'], dir);
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
    ]);
  }, 120_000);
});
