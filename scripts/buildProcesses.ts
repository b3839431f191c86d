// Bundles the programs the tests start as processes (the API's src/main.ts, the emulator's CLI)
// with esbuild, the compiler tsx runs file by file, into one file each. A process started from a
// bundle is listening in a fraction of a second; through tsx's loader it first compiles and
// resolves hundreds of modules, 2-5 s on this 2-core machine with a test run beside it, and the
// suite starts well over a hundred such processes. The test run's setup calls it; it builds only
// when the sources changed since the last build (a hash of every input is kept beside the
// bundle, as the emulator's bin checks before it runs one).
//   node --import tsx/esm scripts/buildProcesses.ts [--force]
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Each bundle sits as deep below the repository (or its package) as its entry does, so that a
 * module's `new URL('../../dist/console/', import.meta.url)` finds the same file from the bundle.
 */
export const PROCESS_BUNDLES = {
  /** The API server: test/support/app.ts spawnMain. */
  server: { entry: 'src/main.ts', outfile: 'dist/processes/main.mjs' },
  /** The emulator's CLI: packages/mongo-emulator/bin/mongo-emulator.mjs runs it while it is current. */
  emulator: { entry: 'packages/mongo-emulator/src/cli.ts', outfile: 'packages/mongo-emulator/dist/cli.mjs' },
} as const;
export type ProcessBundle = keyof typeof PROCESS_BUNDLES;

/** Beside each bundle: the hash of its inputs and their paths (relative to the bundle's folder). */
export const stampFileOf = (outfile: string): string => `${outfile}.stamp.json`;

interface Stamp {
  hash: string;
  inputs: string[];
}

/** The same hash as the emulator's bin computes: each input's path and content, in order. */
async function hashOf(folder: string, inputs: string[]): Promise<string> {
  const hash = createHash('sha256');
  for (const input of inputs) {
    hash.update(input).update('\0');
    hash.update(await readFile(join(folder, input))).update('\0');
  }
  return hash.digest('hex');
}

async function isCurrent(outfile: string): Promise<boolean> {
  const folder = dirname(outfile);
  const stamp = await readFile(stampFileOf(outfile), 'utf8')
    .then((text) => JSON.parse(text) as Stamp)
    .catch(() => null);
  if (stamp === null) return false;
  const hash = await hashOf(folder, stamp.inputs).catch(() => null);
  return hash === stamp.hash;
}

export type BundleOutcome = 'built' | 'up to date';

export async function buildProcessBundle(
  name: ProcessBundle,
  options: { force?: boolean } = {},
): Promise<BundleOutcome> {
  const { entry, outfile: relativeOutfile } = PROCESS_BUNDLES[name];
  const outfile = join(ROOT, relativeOutfile);
  if (!options.force && (await isCurrent(outfile))) return 'up to date';
  const esbuild = await import('esbuild');
  const staging = `${outfile}.building-${process.pid}.mjs`;
  await mkdir(dirname(outfile), { recursive: true });
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: [entry],
    outfile: staging,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // type-graphql names a GraphQL type after its class; bundling must not rename a class that
    // another file's class of the same name would shadow.
    keepNames: true,
    sourcemap: 'inline',
    metafile: true,
    logLevel: 'warning',
    // @precondition/* from their sources, as tsconfig's customConditions say; every other package
    // is loaded by node from node_modules, as it is under tsx.
    conditions: ['precondition-source'],
    plugins: [
      {
        name: 'node-modules-stay-external',
        setup(build) {
          build.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@precondition/') ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
  });
  const folder = dirname(outfile);
  const inputs = [
    ...Object.keys(result.metafile.inputs).map((input) => relative(folder, join(ROOT, input))),
    relative(folder, fileURLToPath(import.meta.url)),
    relative(folder, join(ROOT, 'package-lock.json')),
  ].sort();
  const stamp: Stamp = { hash: await hashOf(folder, inputs), inputs };
  // The bundle first, then its stamp: a reader that sees the new stamp finds the new bundle.
  await rename(staging, outfile);
  await writeFile(`${stampFileOf(outfile)}.${process.pid}`, JSON.stringify(stamp));
  await rename(`${stampFileOf(outfile)}.${process.pid}`, stampFileOf(outfile));
  return 'built';
}

/** Every bundle, each built only if its sources changed: one line for the run's log. */
export async function buildProcessBundles(options: { force?: boolean } = {}): Promise<string> {
  const names = Object.keys(PROCESS_BUNDLES) as ProcessBundle[];
  const outcomes = await Promise.all(names.map((name) => buildProcessBundle(name, options)));
  return names.map((name, i) => `${PROCESS_BUNDLES[name].outfile} ${outcomes[i]}`).join(', ');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(await buildProcessBundles({ force: process.argv.includes('--force') }));
}
