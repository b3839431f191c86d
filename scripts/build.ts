// `npm run build`, and the first half of `npm start`: the ops console (vite, dist/console) and the
// server's bundle (esbuild, dist/processes/main.mjs), each only when its sources changed since its
// last build, so a start with nothing changed pays a few tens of milliseconds.
//   node --import tsx/esm scripts/build.ts [--force]
import { buildConsole, reportConsoleBuild } from './buildConsole.ts';
import { buildProcessBundle, PROCESS_BUNDLES } from './buildProcesses.ts';

const force = process.argv.includes('--force');
const startedMs = Date.now();
const [consoleOutcome, serverOutcome] = await Promise.all([
  buildConsole({ force }),
  buildProcessBundle('server', { force }),
]);
reportConsoleBuild(consoleOutcome);
console.log(`server: ${serverOutcome} in ${PROCESS_BUNDLES.server.outfile} (${Date.now() - startedMs} ms in all)`);
