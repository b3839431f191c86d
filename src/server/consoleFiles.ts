// The ops console's files, as scripts/buildConsole.ts builds them from src/console into
// dist/console (`npm start` and the test run's setup build it when its sources changed). Nothing
// is fetched from elsewhere: the page, its script (the SDK and Chart.js bundled in) and its styles.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express from 'express';

export const CONSOLE_PATH = '/console';
const CONSOLE_BUILD_DIR = fileURLToPath(new URL('../../dist/console/', import.meta.url));
const NOT_BUILT = 'The ops console is not built: run `npm run build:console` (npm start does it), then reload.';

/** Serves the built console at /console, and says how to build it when it is not. */
export function serveConsole(http: express.Express): void {
  http.get('/favicon.ico', (_req, res) => void res.redirect(301, `${CONSOLE_PATH}/favicon.svg`));
  http.use(
    CONSOLE_PATH,
    (_req, res, next) => (existsSync(join(CONSOLE_BUILD_DIR, 'index.html')) ? next() : void res.status(503).type('text/plain').send(NOT_BUILT)),
    express.static(CONSOLE_BUILD_DIR, { index: 'index.html', fallthrough: false }),
  );
}
