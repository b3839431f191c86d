// Builds the ops console (src/console: TypeScript on the SDK, HTML, CSS) with vite into
// dist/console, which the server serves at /console. `npm start` and the test run's setup call
// it; it builds only when the sources changed since the last build (a hash of them is kept in the
// build), so a start with nothing changed pays a few milliseconds. The new build is written
// beside the old one and swapped in, so a running server never serves half a build.
//   node --import tsx/esm scripts/buildConsole.ts [--force]
import { createHash } from 'node:crypto';
import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CONSOLE_SOURCE_DIR = join(ROOT, 'src', 'console');
/** Where the server looks for the console (src/server/startServer.ts, CONSOLE_BUILD_DIR). */
export const CONSOLE_BUILD_DIR = join(ROOT, 'dist', 'console');
/** What the build is made of: the page, the SDK it runs on, and the locked versions of the rest. */
const INPUTS = [
  CONSOLE_SOURCE_DIR,
  join(ROOT, 'packages', 'sdk', 'src'),
  join(ROOT, 'package-lock.json'),
  fileURLToPath(import.meta.url),
];
/** The hash of the inputs a build was made from, kept inside it. */
const STAMP_FILE = '.source-hash';

async function filesUnder(path: string): Promise<string[]> {
  const entries = await readdir(path, { withFileTypes: true }).catch(() => null);
  if (entries === null) return [path];
  const nested = await Promise.all(entries.map((entry) => filesUnder(join(path, entry.name))));
  return nested.flat();
}

async function sourceHash(): Promise<string> {
  const hash = createHash('sha256');
  const files = (await Promise.all(INPUTS.map(filesUnder))).flat().sort();
  for (const file of files) {
    hash.update(relative(ROOT, file)).update('\0');
    hash.update(await readFile(file)).update('\0');
  }
  return hash.digest('hex');
}

export type BuildOutcome = 'built' | 'up to date' | 'no vite';

export async function buildConsole(options: { force?: boolean } = {}): Promise<BuildOutcome> {
  const hash = await sourceHash();
  const built = await readFile(join(CONSOLE_BUILD_DIR, STAMP_FILE), 'utf8').catch(() => null);
  if (!options.force && built === hash) return 'up to date';
  let vite: typeof import('vite');
  try {
    vite = await import('vite');
  } catch {
    // An install without dev dependencies (npm install --omit=dev): serve what was built, if anything.
    return 'no vite';
  }
  const staging = `${CONSOLE_BUILD_DIR}.building-${process.pid}`;
  await vite.build({
    root: CONSOLE_SOURCE_DIR,
    // Relative URLs: the page is served under /console/.
    base: './',
    configFile: false,
    logLevel: 'warn',
    // @precondition/sdk from its sources, as the rest of the repository imports it (tsconfig customConditions).
    resolve: { conditions: ['precondition-source', ...vite.defaultClientConditions] },
    build: { outDir: staging, emptyOutDir: true, sourcemap: true, target: 'es2022', reportCompressedSize: false },
  });
  await writeFile(join(staging, STAMP_FILE), hash);
  await rm(CONSOLE_BUILD_DIR, { recursive: true, force: true });
  try {
    await rename(staging, CONSOLE_BUILD_DIR);
  } catch (error) {
    // Another process (a second test run) swapped in its build of the same sources first.
    await rm(staging, { recursive: true, force: true });
    const theirs = await readFile(join(CONSOLE_BUILD_DIR, STAMP_FILE), 'utf8').catch(() => null);
    if (theirs !== hash) throw error;
  }
  return 'built';
}

/** The build's line for a start's log: a warning when vite is missing. */
export function reportConsoleBuild(outcome: BuildOutcome, suffix = ''): void {
  const where = relative(process.cwd(), CONSOLE_BUILD_DIR) || '.';
  if (outcome === 'no vite')
    console.warn(
      `ops console: vite is not installed (dev dependencies omitted); serving ${where} as it was built, if it was`,
    );
  else console.log(`ops console: ${outcome} in ${where}${suffix}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const startedMs = Date.now();
  const outcome = await buildConsole({ force: process.argv.includes('--force') });
  reportConsoleBuild(outcome, ` (${Date.now() - startedMs} ms)`);
}
