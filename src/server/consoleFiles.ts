// The ops console's files, as scripts/buildConsole.ts builds them from src/console into
// dist/console (`npm start` and the test run's setup build it when its sources changed). Nothing
// is fetched from elsewhere: the page, its script (the SDK and Chart.js bundled in) and its styles.
import { readdir } from 'node:fs/promises';
import { extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CONSOLE_PATH = '/console';
export const CONSOLE_BUILD_DIR = fileURLToPath(new URL('../../dist/console/', import.meta.url));
export const CONSOLE_NOT_BUILT =
  'The ops console is not built: run `npm run build:console` (npm start does it), then reload.';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
  '.png': 'image/png',
};

/**
 * The built console's files by their path under the folder ('assets/index-<hash>.js'): only these
 * are served, so no path from a request reaches the file system. Listed per request (a few files;
 * the console is not a hot path), since a rebuild swaps the folder under a running server.
 */
export async function builtConsoleFiles(dir: string): Promise<Set<string>> {
  try {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    return new Set(
      entries.filter((entry) => entry.isFile()).map((entry) => relative(dir, join(entry.parentPath, entry.name))),
    );
  } catch {
    return new Set();
  }
}

export function consoleContentType(file: string): string {
  return TYPES[extname(file)] ?? 'application/octet-stream';
}
