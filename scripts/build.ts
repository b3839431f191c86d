// `npm run build`, and the first half of `npm start`: the ops console (vite, dist/console) and the
// server's bundle (esbuild, dist/processes/main.mjs), each only when its sources changed since its
// last build, so a start with nothing changed pays a few tens of milliseconds.
//   node --import tsx/esm scripts/build.ts [--force]
import { relative } from 'node:path';
import { buildConsole, CONSOLE_BUILD_DIR } from './buildConsole.ts';
import { buildProcessBundle, PROCESS_BUNDLES } from './buildProcesses.ts';

const force = process.argv.includes('--force');
const startedMs = Date.now();
const [consoleOutcome, serverOutcome] = await Promise.all([
  buildConsole({ force }),
  buildProcessBundle('server', { force }),
]);
const where = relative(process.cwd(), CONSOLE_BUILD_DIR) || '.';
if (consoleOutcome === 'no vite')
  console.warn(
    `ops console: vite is not installed (dev dependencies omitted); serving ${where} as it was built, if it was`,
  );
else console.log(`ops console: ${consoleOutcome} in ${where}`);
console.log(`server: ${serverOutcome} in ${PROCESS_BUNDLES.server.outfile} (${Date.now() - startedMs} ms in all)`);
